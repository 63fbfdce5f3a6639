#!/bin/sh
# run-bench.sh GEN-TRACE BENCH-IMPORT DIR [BENCH-PROFILE [BENCH-SIMDJSON]]
#
# Generates the benchmark traces into DIR (once; again when gen-trace is
# newer than a file) and runs bench-import on the 1e6 and 5e6 event files
# (on the 1e6 file also with the self trace off, then on: what --trace
# costs an import), then bench-profile (save and reopen a profile) on the
# 5e6 file. With BENCH-SIMDJSON, the 5e6 import is also compared with
# simdjson's walk of the same file (issue 19).
# The json-glib baseline runs on the 2e5 event file: json-glib builds a
# whole DOM (about 15× the file in RAM), which is the point of the
# comparison but too slow and too large to repeat on the big files.
set -eu

gen=$1
bench=$2
dir=$3
profile=${4:-}
simdjson=${5:-}

generate() {
  file="$dir/bench-$1.json"
  if [ ! -s "$file" ] || [ "$gen" -nt "$file" ]; then
    echo "generating $file"
    "$gen" "$1" "$file.tmp"
    mv "$file.tmp" "$file"
  fi
}

for n in 200000 1000000 5000000; do
  generate "$n"
done

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo

"$bench" "$dir/bench-1000000.json"
echo
# What the self trace (--trace) costs an import: off, then on
"$bench" --trace-cost 3 "$dir/bench-1000000.json"
echo
if [ -n "$simdjson" ]; then
  "$bench" --json-glib "$dir/bench-200000.json" --simdjson "$simdjson" "$dir/bench-5000000.json"
else
  "$bench" --json-glib "$dir/bench-200000.json" "$dir/bench-5000000.json"
fi
echo
if [ -n "$profile" ]; then
  "$profile" "$dir/bench-5000000.json"
  echo
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
