#!/bin/sh
# test-sdk-examples.sh: the example plugins of examples/plugins, built
# outside the tree against the SDK as `meson install` installs it (into a
# temporary folder: headers, pkg-config files, libraries), then loaded by
# spanscope-cli from SPANSCOPE_PLUGIN_PATH and checked on their example
# files.
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

# The C importer, with nothing of the source tree but its own folder
cp -r "$src/examples/plugins/spans-importer" "$tmp/spans-importer"
PKG_CONFIG_PATH=$pcdir \
  meson setup "$tmp/spans-build" "$tmp/spans-importer" >"$tmp/setup.log" 2>&1 ||
  { cat "$tmp/setup.log"; fail "meson setup of the C importer"; }
ninja -C "$tmp/spans-build" >"$tmp/ninja.log" 2>&1 ||
  { cat "$tmp/ninja.log"; fail "building the C importer"; }
grep -q "warning:" "$tmp/ninja.log" && { cat "$tmp/ninja.log"; fail "the C importer builds with warnings"; }
echo "ok: the C importer builds against the installed SDK"

# Loaded and used by the CLI: 4 spans on 2 threads, the longest "main"
out=$(SPANSCOPE_PLUGIN_PATH="$tmp/spans-build:$SPANSCOPE_PLUGIN_PATH" \
  "$SPANSCOPE_CLI" query "$tmp/spans-importer/example.spans" \
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
