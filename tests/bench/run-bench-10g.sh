#!/bin/sh
# run-bench-10g.sh GEN-TRACE BENCH-IMPORT SPANSCOPE-CLI DIR [EVENTS]
#
# The 10 GB trace (issue 19), on demand only (`build-aux/dev bench 10g`,
# suite bench-10g, never in CI): generates EVENTS events (default
# 60,000,000: about 10 GB of Chrome JSON) into DIR when there is room
# (the file plus 4 GB to spare), runs bench-import on it (import time,
# MB/s, peak RSS, anonymous bytes per event) and `spanscope-cli info`
# (wall time and its own peak RSS), then deletes the file unless
# SPANSCOPE_BENCH_KEEP is set.
set -eu

gen=$1
bench=$2
cli=$3
dir=$4
events=${5:-60000000}
file="$dir/bench-$events.json"

# 171 bytes an event on average (gen-trace's mix), 4 GB to spare
need_kb=$(( events / 1000 * 171 + 4 * 1024 * 1024 ))
free_kb=$(df -Pk "$dir" | awk 'NR == 2 { print $4 }')
if [ ! -s "$file" ] && [ "$free_kb" -lt "$need_kb" ]; then
  echo "bench-10g: $dir has $((free_kb / 1024 / 1024)) GB free, $((need_kb / 1024 / 1024)) GB needed; skipped"
  exit 0
fi
[ -n "${SPANSCOPE_BENCH_KEEP:-}" ] || trap 'rm -f "$file" "$file.tmp"' EXIT

echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ ! -s "$file" ]; then
  start=$(date +%s)
  "$gen" "$events" "$file.tmp"
  mv "$file.tmp" "$file"
  echo "generated $file in $(( $(date +%s) - start )) s"
fi
echo

"$bench" "$file"
echo

# spanscope-cli info: wall time and peak RSS of the whole process
start=$(date +%s%N)
/usr/bin/env time -f "spanscope-cli info: peak RSS %M KB, %U s user, %S s system" "$cli" info "$file" > /dev/null
echo "spanscope-cli info: $(( ($(date +%s%N) - start) / 1000000 )) ms wall"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
