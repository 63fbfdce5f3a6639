#!/bin/sh
# test-sdk-examples.sh: the C example plugins (examples/plugins/
# spans-importer, examples/c-view), built outside the tree against the SDK
# as `meson install` installs it (into a temporary folder: headers,
# pkg-config files, libraries), then loaded from SPANSCOPE_PLUGIN_PATH by
# spanscope-cli (the importer) and by test-ui-example-view under Xvfb (the
# view) and checked on their example files.
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

# Loaded and used by the CLI: 4 spans on 2 threads, the longest "main"
out=$(SPANSCOPE_PLUGIN_PATH="$tmp/spans-build:$SPANSCOPE_PLUGIN_PATH" \
  "$SPANSCOPE_CLI" query "$tmp/spans/example.spans" \
  --ns --format csv "SELECT name, ts, dur, thread_id FROM slices ORDER BY ts" 2>&1 | tr -d "\r") ||
  fail "spanscope-cli query: $out"
expected='name,ts,dur,thread_id
main,0,1000000,0
parse,100000,300000,0
worker,200000,600000,1
render,500000,200000,0'
[ "$out" = "$expected" ] || fail "the spans read: got
$out
expected
$expected"
echo "ok: spanscope-cli reads example.spans through the C importer"

# A bad line: the error names the file and the line
printf '# spans 1\n1 0 10 fine\n1 x 10 bad\n' >"$tmp/bad.spans"
if out=$(SPANSCOPE_PLUGIN_PATH="$tmp/spans-build:$SPANSCOPE_PLUGIN_PATH" \
  "$SPANSCOPE_CLI" info "$tmp/bad.spans" 2>&1); then
  fail "a bad span list was read"
fi
case "$out" in
  *"bad.spans:3: the thread, start and duration must be integers"*) ;;
  *) fail "the error does not say where: $out" ;;
esac
echo "ok: a malformed span list is refused, with its line"

# The C view, out of tree too: it needs spanscope-gtk-1 (and through it
# gtk4 and spanscope-core-1) and libpeas-1.0, nothing else of the tree
build_example c-view c-view "the C view"

# Loaded by the plugin engine of a GTK program from its build folder, its
# panel made for a trace and read (test-ui-example-view.c says what)
if [ -n "${SPANSCOPE_EXAMPLE_VIEW_TEST:-}" ]; then
  SPANSCOPE_PLUGIN_PATH="$tmp/c-view-build:$SPANSCOPE_PLUGIN_PATH" \
    xvfb-run -a -s "-screen 0 1280x1024x24" "$SPANSCOPE_EXAMPLE_VIEW_TEST" >"$tmp/view.log" 2>&1 ||
    { cat "$tmp/view.log"; fail "the C view's panel"; }
  echo "ok: the C view's panel counts the slices of each thread"
fi
