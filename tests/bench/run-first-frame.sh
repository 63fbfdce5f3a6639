#!/bin/sh
# run-first-frame.sh SPANSCOPE SPANSCOPE-CLI TRACE [RUNS [GEN-TRACE]]
#
# Open to first frame (issue 19): the wall time from process start to the
# end of `spanscope --screenshot` on TRACE (import, the window's first
# complete timeline frame, the PNG written; under Xvfb when there is no
# display), against `spanscope-cli info TRACE` (the import and a summary),
# in turns, RUNS times each (default 3), the window once with each of GSK's
# renderers in SPANSCOPE_BENCH_RENDERERS (default "cairo gl": under Xvfb
# the GL renderer rasterises on the CPU, llvmpipe); prints the medians and
# each renderer's ratio (target ≤ 1.3×). The PNG's encoding makes the
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


# Milliseconds of wall time of a command, its output dropped
wall_ms() {
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
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
for r in $renderers; do
  : > "$out/frame-$r"
done
i=0
while [ "$i" -lt "$runs" ]; do
  wall_ms "$cli" info "$trace" >> "$out/info"
  for r in $renderers; do
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      wall_ms env GSK_RENDERER="$r" xvfb-run -a -s "-screen 0 1280x1024x24" "$app" --screenshot "$out/shot-$r.png" "$trace" >> "$out/frame-$r"
    else
      wall_ms env GSK_RENDERER="$r" "$app" --screenshot "$out/shot-$r.png" "$trace" >> "$out/frame-$r"
    fi
  done
  i=$((i + 1))
done

info=$(median < "$out/info")
echo "spanscope-cli info:           $info ms (runs: $(tr '\n' ' ' < "$out/info"))"
for r in $renderers; do
  [ -s "$out/shot-$r.png" ] || { echo "no screenshot was written with GSK_RENDERER=$r" >&2; exit 1; }
  frame=$(median < "$out/frame-$r")
  echo "spanscope --screenshot ($r): $frame ms (runs: $(tr '\n' ' ' < "$out/frame-$r"))"
  awk -v f="$frame" -v i="$info" -v r="$r" 'BEGIN { printf "open to first frame / info (%s): %.2f× (target ≤ 1.3×)\n", r, f / i }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
