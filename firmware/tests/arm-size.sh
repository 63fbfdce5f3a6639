#!/bin/sh
# arm-size.sh FIRMWARE_DIR [ARM_GCC]
#
# Builds the library for a Cortex-M4 with -Os and prints what it costs:
#   - code: .text of the library objects (every function), and of the
#     library as linked into tests/arm-app.c with --gc-sections;
#   - RAM: the recorder object (etrace_t) for the default configuration
#     (40 names), from the .bss the linked program gains;
#   - stack: the deepest recorder call chain, from -fstack-usage.
# Fails if a figure passes its bound (see the BOUND_* lines); skips (77)
# when arm-none-eabi-gcc is not installed.
set -eu

dir=$1
CC=${2:-arm-none-eabi-gcc}
if ! command -v "$CC" >/dev/null 2>&1; then
  echo "SKIP: $CC not found"
  exit 77
fi
prefix=${CC%gcc}
SIZE=${prefix}size

# SystemView claims < 2 KB of code and ~600 B of RAM. Measured with Debian
# 12's arm-none-eabi-gcc 12.2: 1834 B of code, 472 B of RAM, 348 B of
# stack. The bounds leave about 4% for other compiler versions and stay
# below SystemView's figures, so a change that loses the lead fails here.
BOUND_CODE=1920
BOUND_RAM=512
BOUND_STACK=384

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

FLAGS="-std=c99 -pedantic -Wall -Wextra -Werror -mcpu=cortex-m4 -mthumb -Os -ffunction-sections -fdata-sections -I$dir/include"

for src in "$dir"/src/*.c; do
  "$CC" $FLAGS -fstack-usage -c "$src" -o "$work/$(basename "$src" .c).o"
done
# The example ports must build for the target too.
for src in "$dir"/examples/etrace-*.c; do
  "$CC" $FLAGS -I"$dir/examples" -c "$src" -o "$work/port-$(basename "$src" .c).o"
done

objects_text=$("$SIZE" -t "$work"/etrace-*.o | awk 'END { print $1 }')
objects_ram=$("$SIZE" -t "$work"/etrace-*.o | awk 'END { print $2 + $3 }')

LINK="-nostartfiles -Wl,--gc-sections -Wl,-e,app_main -specs=nano.specs"
"$CC" $FLAGS -DETRACE_ENABLED=1 "$dir/tests/arm-app.c" "$work"/etrace-*.o $LINK -o "$work/app-on.elf"
"$CC" $FLAGS -DETRACE_ENABLED=0 "$dir/tests/arm-app.c" $LINK -o "$work/app-off.elf"
# Code: every function in the linked program except the application's own
# (app_*); RAM: the .data + .bss the program gains with tracing on.
NM=${prefix}nm
linked_code=$("$NM" -S -t d "$work/app-on.elf" | awk '$3 ~ /^[Tt]$/ && $4 !~ /^app_/ { total += $2 } END { print total + 0 }')
on=$("$SIZE" "$work/app-on.elf" | awk 'NR == 2 { print $2 + $3 }')
off=$("$SIZE" "$work/app-off.elf" | awk 'NR == 2 { print $2 + $3 }')
linked_ram=$(( on - off ))

# Deepest chain: a record helper -> record/transmit -> encode -> entry frame
# -> begin_frame -> put_nonzero -> put_varint (static functions the
# compiler inlined are not listed and count 0).
stack=$(cat "$work"/*.su | awk -F'\t' '
  { split ($1, a, ":"); size[a[4]] = $2 }
  END {
    n = split ("etrace_marker record transmit etrace_encoder_encode write_name_frame begin_frame put_nonzero put_varint", chain, " ")
    for (i = 1; i <= n; i++) total += size[chain[i]]
    print total
  }')

echo "Cortex-M4, -Os, default configuration (ETRACE_NAME_CAPACITY=40):"
echo "  code, all library objects:       $objects_text bytes (data+bss in the objects: $objects_ram)"
echo "  code, linked into a firmware:    $linked_code bytes"
echo "  RAM, one etrace_t:               $linked_ram bytes"
echo "  stack, deepest recorder call:    $stack bytes"

status=0
if [ "$objects_ram" -ne 0 ]; then
  echo "FAIL: the library has static data ($objects_ram bytes)" >&2
  status=1
fi
if [ "$objects_text" -gt $BOUND_CODE ] || [ "$linked_code" -gt $BOUND_CODE ]; then
  echo "FAIL: code above $BOUND_CODE bytes" >&2
  status=1
fi
if [ "$linked_ram" -gt $BOUND_RAM ]; then
  echo "FAIL: RAM above $BOUND_RAM bytes" >&2
  status=1
fi
if [ "$stack" -gt $BOUND_STACK ] || [ "$stack" -eq 0 ]; then
  echo "FAIL: stack figure $stack out of (0, $BOUND_STACK]" >&2
  status=1
fi
exit $status
