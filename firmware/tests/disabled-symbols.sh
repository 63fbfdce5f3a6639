#!/bin/sh
# disabled-symbols.sh FIRMWARE_DIR CC...
#
# Builds examples/simulate.c twice with the host compiler and -Os, as a
# release firmware would be built: with ETRACE_ENABLED=0 nothing of the
# tracing may be left (no etrace_* symbol, no trace callbacks, no name
# strings). The enabled build is checked too, so that the test would notice
# if the symbol listing itself stopped working. The build is done here
# rather than by meson so that sanitizer builds of the project, which keep
# dead code alive, do not change what is measured.
set -eu

dir=$1
shift
NM=${NM:-nm}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
enabled=$work/simulate-enabled
disabled=$work/simulate-disabled
"$@" -std=c99 -pedantic -Wall -Wextra -Werror -Os -I"$dir/include" \
  "$dir/examples/simulate.c" "$dir"/src/*.c -o "$enabled"
"$@" -std=c99 -pedantic -Wall -Wextra -Werror -Os -I"$dir/include" -DETRACE_ENABLED=0 \
  "$dir/examples/simulate.c" -o "$disabled"

status=0

count=$("$NM" "$enabled" | grep -c ' etrace_' || true)
echo "enabled build: $count etrace_* symbols"
if [ "$count" -lt 5 ]; then
  echo "FAIL: expected the library's symbols in $enabled" >&2
  status=1
fi

left=$("$NM" "$disabled" | grep -i -e 'etrace' -e 'sim_write' -e 'sim_now' || true)
if [ -n "$left" ]; then
  echo "FAIL: trace symbols left in the disabled build:" >&2
  echo "$left" >&2
  status=1
else
  echo "disabled build: no trace symbols"
fi

for name in gyro_isr control_task ukf_predict ukf_update; do
  if grep -q -a "$name" "$disabled"; then
    echo "FAIL: the name \"$name\" is still in $disabled" >&2
    status=1
  fi
  if ! grep -q -a "$name" "$enabled"; then
    echo "FAIL: the name \"$name\" is missing from $enabled" >&2
    status=1
  fi
done

exit $status
