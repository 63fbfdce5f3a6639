#!/bin/sh
# run-first-frame.sh SPANSCOPE SPANSCOPE-CLI TRACE [RUNS [GEN-TRACE]]
#
# Open to first frame (issue 19): the wall time from process start to the
# end of `spanscope --screenshot` on TRACE (import, the window's first
# complete timeline frame, the PNG written; each run under an Xvfb of its
# own when there is no display, whose start then counts: the benchmark
# runs the whole script under one), against `spanscope-cli info TRACE` (the import and a summary),
# in turns, RUNS times each (default 3), the window once with each of GSK's
# renderers in SPANSCOPE_BENCH_RENDERERS (default "cairo gl": under Xvfb
# the GL renderer rasterises on the CPU, llvmpipe); prints the medians and
# each renderer's ratio (target ≤ 1.3×), and the CPU times of the same
# runs beside them. The PNG's encoding makes the
# figure an upper bound of the first frame. Needs the environment of an
# uninstalled run (SPANSCOPE_PLUGIN_PATH, GSETTINGS_SCHEMA_DIR), which
# meson's benchmark sets. With GEN-TRACE, a missing TRACE (bench-N.json)
# is generated first.
set -eu

app=$1
cli=$2
trace=$3
runs=${4:-3}
gen=${5:-}
renderers=${SPANSCOPE_BENCH_RENDERERS:-cairo gl}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT


# Runs a command, its output dropped; appends its wall time (ms) to the
# file $1 and, when the command's program ran under $timer, its CPU time
# (user + system, ms) to $2: on a shared machine the CPU times move much
# less than the wall times
timer=""
if [ -x /usr/bin/time ]; then
  timer="/usr/bin/time -f %U+%S -o $out/time"
fi
timed() {
  wall=$1
  cpu=$2
  shift 2
  rm -f "$out/time"
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 )) >> "$wall"
  if [ -s "$out/time" ]; then
    awk -F+ '{ printf "%d\n", ($1 + $2) * 1000 }' "$out/time" >> "$cpu"
  fi
}

median() {
  sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

if [ ! -s "$trace" ] && [ -n "$gen" ]; then
  n=$(basename "$trace" .json | sed 's/^bench-//')
  "$gen" "$n" "$trace.tmp"
  mv "$trace.tmp" "$trace"
fi

echo "machine: $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$trace: $(du -h "$trace" | cut -f1)"
: > "$out/info"
: > "$out/info-cpu"
for r in $renderers; do
  : > "$out/frame-$r"
  : > "$out/frame-cpu-$r"
done
i=0
while [ "$i" -lt "$runs" ]; do
  # shellcheck disable=SC2086
  timed "$out/info" "$out/info-cpu" $timer "$cli" info "$trace"
  for r in $renderers; do
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      # shellcheck disable=SC2086
      timed "$out/frame-$r" "$out/frame-cpu-$r" env GSK_RENDERER="$r" \
        xvfb-run -a -s "-screen 0 1280x1024x24" $timer "$app" --screenshot "$out/shot-$r.png" "$trace"
    else
      # shellcheck disable=SC2086
      timed "$out/frame-$r" "$out/frame-cpu-$r" env GSK_RENDERER="$r" \
        $timer "$app" --screenshot "$out/shot-$r.png" "$trace"
    fi
  done
  i=$((i + 1))
done

# NAME FILE: the median of FILE and its runs
report() {
  if [ -s "$2" ]; then
    printf "%-40s %s ms (runs: %s)\n" "$1:" "$(median < "$2")" "$(tr '\n' ' ' < "$2")"
  fi
}

info=$(median < "$out/info")
report "spanscope-cli info, wall" "$out/info"
report "spanscope-cli info, CPU" "$out/info-cpu"
for r in $renderers; do
  [ -s "$out/shot-$r.png" ] || { echo "no screenshot was written with GSK_RENDERER=$r" >&2; exit 1; }
  frame=$(median < "$out/frame-$r")
  report "spanscope --screenshot ($r), wall" "$out/frame-$r"
  report "spanscope --screenshot ($r), CPU" "$out/frame-cpu-$r"
  awk -v f="$frame" -v i="$info" -v r="$r" 'BEGIN { printf "open to first frame / info (%s): %.2f× (target ≤ 1.3×)\n", r, f / i }'
  if [ -s "$out/info-cpu" ] && [ -s "$out/frame-cpu-$r" ]; then
    awk -v f="$(median < "$out/frame-cpu-$r")" -v i="$(median < "$out/info-cpu")" -v r="$r" \
      'BEGIN { printf "CPU of the window / CPU of info (%s): %.2f×\n", r, f / i }'
  fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
