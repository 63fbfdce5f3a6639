#!/bin/sh
# test-sdk-examples.sh: the four example plugins of examples/plugins/.
# The C ones (spans-importer, args-view) are built outside the tree
# against the SDK as `meson install` installs it (into a temporary folder:
# headers, pkg-config files, libraries, typelibs); then all four are
# loaded from SPANSCOPE_PLUGIN_PATH, with the Python ones
# (category-counts, tinytrace-importer) from their own folders, by
# spanscope-cli and by the application's window (test-ui-examples under
# Xvfb), and their output is checked exactly.
#
# Usage: test-sdk-examples.sh SOURCE_ROOT BUILD_ROOT
#
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu

src=$1
build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
  echo "not ok: $*"
  exit 1
}

# The SDK, as a distribution would install it
meson install -C "$build" --destdir "$tmp/root" --quiet >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; fail "meson install"; }
installed_pc=$(find "$tmp/root" -name spanscope-core-1.pc | head -n 1)
[ -n "$installed_pc" ] || fail "spanscope-core-1.pc is not installed"
# pkg-config files name their prefix: the temporary folder's here (a
# sysroot would move the system's packages, libpeas's, too)
pcdir=$tmp/pkgconfig
mkdir -p "$pcdir"
for pc in "$(dirname "$installed_pc")"/spanscope-*.pc; do
  sed "s|^prefix=|prefix=$tmp/root|" "$pc" >"$pcdir/$(basename "$pc")"
done

# build_example FOLDER NAME WHAT: copies examples/FOLDER alone (nothing
# else of the source tree) to $tmp/NAME and builds it in $tmp/NAME-build
# against the installed SDK, without warnings
build_example() {
  cp -r "$src/examples/$1" "$tmp/$2"
  PKG_CONFIG_PATH=$pcdir \
    meson setup "$tmp/$2-build" "$tmp/$2" >"$tmp/$2-setup.log" 2>&1 ||
    { cat "$tmp/$2-setup.log"; fail "meson setup of $3"; }
  ninja -C "$tmp/$2-build" >"$tmp/$2-ninja.log" 2>&1 ||
    { cat "$tmp/$2-ninja.log"; fail "building $3"; }
  grep -q "warning:" "$tmp/$2-ninja.log" && { cat "$tmp/$2-ninja.log"; fail "$3 builds with warnings"; }
  echo "ok: $3 builds against the installed SDK"
}

build_example plugins/spans-importer spans "the C importer"

# The Python examples need the Spanscope-1 typelib: the installed one
typelibs=$(dirname "$(find "$tmp/root" -name Spanscope-1.typelib | head -n 1)")
[ -d "$typelibs" ] || fail "Spanscope-1.typelib is not installed"
export GI_TYPELIB_PATH="$typelibs${GI_TYPELIB_PATH:+:$GI_TYPELIB_PATH}"
python_examples="$src/examples/plugins/category-counts:$src/examples/plugins/tinytrace-importer"

# cli ARGS...: spanscope-cli with the C importer and both Python examples
cli() {
  SPANSCOPE_PLUGIN_PATH="$tmp/spans-build:$python_examples:$SPANSCOPE_PLUGIN_PATH" \
    "$SPANSCOPE_CLI" "$@" 2>&1 | tr -d "\r"
}

# expect WHAT GOT EXPECTED
expect() {
  [ "$2" = "$3" ] || fail "$1: got
$2
expected
$3"
  echo "ok: $1"
}

# Read by the C importer (example.spans by hand: 5 spans on 2 threads,
# categories app, io twice, gfx and none)
expect "spanscope-cli reads example.spans through the C importer" \
  "$(cli query "$tmp/spans/example.spans" --ns --format csv \
       "SELECT name, ts, dur, thread_id, category, args FROM slices ORDER BY ts")" \
  'name,ts,dur,thread_id,category,args
main,0,1000000,0,app,"{""url"":""/index"",""frame"":1}"
parse,100000,300000,0,io,"{""bytes"":4096,""cached"":false}"
worker,200000,600000,1,io,"{""job"":""decode""}"
render,500000,200000,0,gfx,"{""layers"":[""bg"",""text""],""scale"":1.5}"
idle,850000,100000,1,,'

# Counted by the Python analysis, on process 1 (index 0): at each start
# of a slice of a category, how many of them have started (io at 100 µs,
# then 200 µs)
expect "the Python analysis' counters, one per category" \
  "$(cli query "$tmp/spans/example.spans" --ns --format csv \
       "SELECT name, series, process_id, ts, value FROM counters ORDER BY series, ts")" \
  'name,series,process_id,ts,value
Slices,(none),0,850000,1.0
Slices,app,0,0,1.0
Slices,gfx,0,500000,1.0
Slices,io,0,100000,1.0
Slices,io,0,200000,2.0'

# and its totals in `info --json`
expect "the Python analysis' totals in spanscope-cli info --json" \
  "$(cli info --json "$tmp/spans/example.spans" | /usr/bin/python3 -c \
       'import json, sys; print(json.dumps(json.load(sys.stdin)["category-counts"], sort_keys=True))')" \
  '{"(none)": 1, "app": 1, "gfx": 1, "io": 2}'

# The Python importer's example.tiny, counted too (3 slices, no category)
expect "spanscope-cli reads example.tiny through the Python importer" \
  "$(cli query "$src/examples/plugins/tinytrace-importer/example.tiny" --ns --format csv \
       "SELECT s.name AS name, s.ts AS ts, c.value AS value FROM slices s JOIN counters c ON c.ts = s.ts ORDER BY s.ts")" \
  'name,ts,value
load,0,1.0
parse,100000,2.0
decode,300000,3.0'

# refuses BAD_LINES ERROR: a span list of a good line, then BAD_LINES,
# is not read, and the error names the file and the line
refuses() {
  printf '# spans 1\n1 0 10 fine\n%s\n' "$1" >"$tmp/bad.spans"
  if out=$(SPANSCOPE_PLUGIN_PATH="$tmp/spans-build:$SPANSCOPE_PLUGIN_PATH" \
    "$SPANSCOPE_CLI" info "$tmp/bad.spans" 2>&1); then
    fail "a bad span list was read: $1"
  fi
  case "$out" in
    *"bad.spans:3: $2"*) ;;
    *) fail "the error does not say where or what: $out" ;;
  esac
  echo "ok: refused, with its line: $1"
}
refuses '1 x 10 bad' 'the thread, start and duration must be integers'
refuses '1 0 10 bad cat [1,2]' 'the args must be a JSON object'
refuses '1 0 10 bad cat {"a":' 'the args must be a JSON object'

# The C view, out of tree too: it needs spanscope-gtk-1 (and through it
# gtk4 and spanscope-core-1) and libpeas-1.0, nothing else of the tree
build_example plugins/args-view args-view "the C view"

# The four in the application's window (test-ui-examples.c says what)
if [ -n "${SPANSCOPE_EXAMPLES_UI_TEST:-}" ]; then
  SPANSCOPE_PLUGIN_PATH="$tmp/spans-build:$tmp/args-view-build:$python_examples:$SPANSCOPE_PLUGIN_PATH" \
    xvfb-run -a -s "-screen 0 1280x1024x24" "$SPANSCOPE_EXAMPLES_UI_TEST" >"$tmp/ui.log" 2>&1 ||
    { cat "$tmp/ui.log"; fail "the examples in the window"; }
  cat "$tmp/ui.log"
  echo "ok: the window reads, counts and lists the args with the four examples"
fi
