#!/bin/sh
# Runs a validator and fails when it exits non-zero OR prints anything.
# desktop-file-validate exits 0 on warnings and hints; we want none at all.
#
# Usage: check-silent.sh PROGRAM [ARG…]

set -u

if [ $# -lt 1 ]; then
  echo "usage: $0 PROGRAM [ARG…]" >&2
  exit 2
fi

out=$("$@" 2>&1)
rc=$?

if [ -n "$out" ]; then
  printf '%s\n' "$out"
fi

if [ $rc -ne 0 ]; then
  echo "FAIL: $1 exited with status $rc" >&2
  exit 1
fi
if [ -n "$out" ]; then
  echo "FAIL: $1 reported problems (output above)" >&2
  exit 1
fi
exit 0
