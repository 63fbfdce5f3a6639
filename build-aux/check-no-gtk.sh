#!/bin/sh
# check-no-gtk.sh BUILDDIR: fails if anything of a -Dgtk=false build would
# need GTK on a machine that has none: a dependency on GTK or GtkSourceView
# in the configuration, a compile command with their headers, or a built
# program or module that loads their libraries (ldd, transitively).
#
# Registered as the test "no-gtk" of -Dgtk=false builds; build-aux/dev test
# runs it in build-nogtk.
set -eu

dir=${1:?usage: check-no-gtk.sh BUILDDIR}
status=0
gtk_pattern='gtk4|gtk\+-3|gtksourceview|libgtk-|libgdk-|/gtk-4\.0|/gtk-3\.0'

deps=$(meson introspect --dependencies "$dir" |
       /usr/bin/python3 -c 'import json, sys; print("\n".join(d["name"] for d in json.load(sys.stdin)))')
if printf '%s\n' "$deps" | grep -E "$gtk_pattern"; then
  echo "check-no-gtk: the configuration of $dir depends on the dependencies above" >&2
  status=1
fi

if grep -o -E -- "-I[^ \"]*($gtk_pattern)[^ \"]*" "$dir/compile_commands.json" | sort -u | grep .; then
  echo "check-no-gtk: $dir compiles against the headers above" >&2
  status=1
fi

# Every ELF file the build made: programs, shared libraries and modules
n=0
for f in $(find "$dir" -type f \( -name '*.so' -o -name '*.so.*' -o -perm -u+x \) \
             -not -path '*/meson-*' -not -name '*.sh' -not -name '*.py'); do
  if [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" != '177ELF' ]; then
    continue
  fi
  # A file that is not an ELF for this machine (the firmware's
  # cross-compiled objects) is not loaded here
  libs=$(ldd "$f" 2>/dev/null) || continue
  n=$((n + 1))
  if printf '%s\n' "$libs" | grep -E "$gtk_pattern"; then
    echo "check-no-gtk: $f loads the libraries above" >&2
    status=1
  fi
done

if [ "$n" -eq 0 ]; then
  echo "check-no-gtk: no built program or module in $dir" >&2
  exit 1
fi
[ "$status" -eq 0 ] && echo "check-no-gtk: $n programs and modules in $dir, none loads GTK"
exit "$status"
