#!/bin/sh
# check-abi.sh LIBRARY SYMBOLS [STATIC_LIBRARY]: the ABI check.
#
# The dynamic symbols LIBRARY (a shared library) defines must be exactly
# the ones SYMBOLS lists (one a line, sorted; "#" starts a comment), so
# that a symbol appearing in or disappearing from the ABI is a decision
# made in the same commit as the list; no internal ("_sps_*") may be
# among them. With STATIC_LIBRARY, every listed
# symbol must also be defined there (the static library is built from
# the same objects).
#
#   check-abi.sh --update LIBRARY SYMBOLS   rewrites SYMBOLS' list
#
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu

update=false
if [ "$1" = --update ]; then
  update=true
  shift
fi
lib=$1
list=$2
static=${3:-}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "ADDRESS TYPE NAME" for each defined dynamic symbol; not the linker's
# own (_edata, _end, __bss_start…) nor what a sanitizer adds (__asan_*,
# __odr_asan_gen_*): "__" names are the toolchain's
nm -D --defined-only "$lib" |
  awk 'NF == 3 && $3 !~ /^__/ && $3 != "_edata" && $3 != "_end" && $3 != "_init" && $3 != "_fini" { print $3 }' |
  LC_ALL=C sort -u >"$tmp/exported"

# Internals ("_sps_*") are never ABI, whatever a list says: the shared
# libraries hide them (build-aux/hide-internals.map)
if grep -q '^_sps_' "$tmp/exported"; then
  echo "not ok: $(basename "$lib") exports internals:"
  grep '^_sps_' "$tmp/exported" | sed 's/^/  /'
  exit 1
fi

if $update; then
  { grep '^#' "$list" 2>/dev/null || true; cat "$tmp/exported"; } >"$tmp/new"
  cp "$tmp/new" "$list"
  echo "$list: $(wc -l <"$tmp/exported") symbols"
  exit 0
fi

grep -v '^#' "$list" | grep -v '^$' | LC_ALL=C sort -u >"$tmp/listed"

if ! cmp -s "$tmp/exported" "$tmp/listed"; then
  echo "not ok: $(basename "$lib") exports another set of symbols than $list"
  LC_ALL=C comm -23 "$tmp/exported" "$tmp/listed" | sed 's/^/  new:     /'
  LC_ALL=C comm -13 "$tmp/exported" "$tmp/listed" | sed 's/^/  missing: /'
  echo "If the change is meant, update the list: $0 --update $lib $list"
  exit 1
fi
echo "ok: $(basename "$lib") exports the $(wc -l <"$tmp/listed") symbols of $(basename "$list")"

if [ -n "$static" ]; then
  nm --defined-only -g "$static" 2>/dev/null | awk 'NF == 3 { print $3 }' | LC_ALL=C sort -u >"$tmp/static"
  if [ -n "$(LC_ALL=C comm -23 "$tmp/listed" "$tmp/static")" ]; then
    echo "not ok: $(basename "$static") lacks symbols of the ABI:"
    LC_ALL=C comm -23 "$tmp/listed" "$tmp/static" | sed 's/^/  /'
    exit 1
  fi
  echo "ok: $(basename "$static") defines them too"
fi
