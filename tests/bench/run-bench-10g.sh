#!/bin/sh
# run-bench-10g.sh GEN-TRACE BENCH-IMPORT SPANSCOPE-CLI BENCH-SQL BENCH-FLAME
#                  SPANSCOPE BENCH-FRAME DIR [EVENTS]
#
# The 10 GB trace (issue 19), on demand only (`build-aux/dev bench 10g`,
# suite bench-10g, never in CI): generates EVENTS events (default
# 60,000,000: about 10 GB of Chrome JSON) into DIR when there is room
# (the file plus 4 GB to spare), then, each in a process of its own that
# imports the file again:
#
#   - the window (SPANSCOPE, under Xvfb when there is no display):
#     `spanscope --screenshot`, process start to the first complete
#     timeline frame written as a PNG, with its peak RSS; the PNG is kept
#     as DIR/bench-10g.png to be looked at;
#   - bench-frame: the timeline's frame build times at four zooms (pan and
#     zoom frames, median and 95th percentile; 40 frames each);
#   - bench-sql --quick: count(*), GROUP BY name, two joins and a ts range;
#   - bench-flame: the whole-trace, busiest-thread and range flame trees;
#   - bench-import: import time, MB/s, peak RSS, anonymous bytes per event;
#   - `spanscope-cli info`: wall time and peak RSS.
#
# SPANSCOPE and BENCH-FRAME may be empty (a build without GTK): the window
# steps are then skipped. The file is deleted after unless
# SPANSCOPE_BENCH_KEEP is set. Nothing here is a timed test: it reports.
set -eu

gen=$1
bench=$2
cli=$3
sql=$4
flame=$5
app=$6
frame=$7
dir=$8
events=${9:-60000000}
file="$dir/bench-$events.json"

# 171 bytes an event on average (gen-trace's mix), 4 GB to spare
need_kb=$(( events / 1000 * 171 + 4 * 1024 * 1024 ))
free_kb=$(df -Pk "$dir" | awk 'NR == 2 { print $4 }')
if [ ! -s "$file" ] && [ "$free_kb" -lt "$need_kb" ]; then
  echo "bench-10g: $dir has $((free_kb / 1024 / 1024)) GB free, $((need_kb / 1024 / 1024)) GB needed; skipped"
  exit 0
fi
if [ -z "${SPANSCOPE_BENCH_KEEP:-}" ]; then
  # Stopped or done, the 10 GB go
  trap 'rm -f "$file" "$file.tmp"' EXIT
  trap 'exit 1' INT TERM
fi

# Runs a step with its wall time and peak RSS, output shown
step() {
  label=$1; shift
  echo "== $label"
  start=$(date +%s%N)
  status=0
  /usr/bin/time -f "$label: peak RSS %M KB, %U s user, %S s system" "$@" || status=$?
  echo "$label: $(( ($(date +%s%N) - start) / 1000000 )) ms wall, exit status $status;" \
       "load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
}

# The same under Xvfb unless there is a display
step_x() {
  label=$1; shift
  if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    step "$label" xvfb-run -a -s "-screen 0 1920x1080x24" "$@"
  else
    step "$label" "$@"
  fi
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ ! -s "$file" ]; then
  start=$(date +%s)
  "$gen" "$events" "$file.tmp"
  mv "$file.tmp" "$file"
  echo "generated $file in $(( $(date +%s) - start )) s"
fi
echo "$file: $(du -h "$file" | cut -f1)"
echo

# The window first: what the issue asks of a 10 GB trace beyond the
# import, then SQL and flame trees, then the import's own figures
if [ -n "$app" ]; then
  # Process start → first complete frame → PNG; the window at 1600×1000
  step_x "window: spanscope --screenshot" "$app" --size 1600x1000 --screenshot "$dir/bench-10g.png" "$file"
  [ -s "$dir/bench-10g.png" ] && echo "screenshot: $dir/bench-10g.png" && echo
fi
if [ -n "$frame" ]; then
  step_x "timeline frames: bench-frame" "$frame" --frames 40 "$file"
fi
step "SQL: bench-sql --quick" "$sql" --quick --repeat 1 "$file"
step "flame trees: bench-flame" "$flame" --runs 1 "$file"
step "bench-import" "$bench" "$file"
step "spanscope-cli info" "$cli" info "$file"

echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
