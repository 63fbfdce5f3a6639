#!/bin/sh
# disabled-symbols.sh ENABLED_EXE DISABLED_EXE
#
# The simulate example built with ETRACE_ENABLED=0 (and -Os, like a release
# firmware) must keep nothing of the tracing: no etrace_* symbol, no trace
# callbacks, no name strings. The enabled build is checked too, so that the
# test would notice if the symbol listing itself stopped working.
set -eu

enabled=$1
disabled=$2
NM=${NM:-nm}

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
