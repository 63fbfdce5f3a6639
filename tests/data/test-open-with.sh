#!/bin/sh
# The double-click test (PLATFORM.md §6): install the built .desktop file and
# MIME package into a throw-away XDG tree, then check what a file manager
# would see and do: which type each kind of file gets, that Spanscope is the
# default application for our types (and not for anybody else's), and that
# "gio open FILE" starts `spanscope` with the file's path.
#
# `spanscope` here is a stub written at test time that records its
# arguments, so the test needs neither the GTK app nor a real session.  A
# second variant opens a trace with the real binary when it can exit by
# itself (it has --screenshot); otherwise that variant is skipped.
#
# Usage: test-open-with.sh DESKTOP_FILE MIME_PACKAGE [SPANSCOPE_EXE]
# Output: TAP.  Everything lives in one temporary folder, removed on exit.

set -u

if [ $# -lt 2 ]; then
  echo "usage: $0 DESKTOP_FILE MIME_PACKAGE [SPANSCOPE_EXE]" >&2
  exit 2
fi

desktop_src=$1
mime_src=$2
real_exe=${3:-}

app_id=io.github.spanscope.Spanscope
desktop_id=$app_id.desktop
# Every type the .desktop file must list and the MIME package must define.
our_types="application/x-chrome-trace+json
application/x-compressed-chrome-trace
application/x-nettrace
application/x-etrace
application/x-diagsession
application/x-etl
application/x-etl-zip
application/x-spanscope-profile"

for tool in gio update-mime-database update-desktop-database; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "1..0 # SKIP $tool is not installed"
    exit 0
  fi
done

# ---------------------------------------------------------------------------
# TAP helpers

n=0
failures=0

pass ()
{
  n=$((n + 1))
  echo "ok $n - $1"
}

fail ()
{
  n=$((n + 1))
  failures=$((failures + 1))
  echo "not ok $n - $1"
}

skip ()
{
  n=$((n + 1))
  echo "ok $n - $1 # SKIP $2"
}

# Prints stdin as TAP diagnostics.
diag ()
{
  sed 's/^/# /'
}

# ---------------------------------------------------------------------------
# A private XDG tree, so neither the user's nor the machine's settings,
# nor an installed Spanscope, can change the answers.

T=$(mktemp -d "${TMPDIR:-/tmp}/spanscope-open-with.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT PIPE TERM

mkdir -p "$T/home" "$T/data/applications" "$T/data/mime/packages" \
         "$T/config" "$T/config-dirs" "$T/cache" "$T/state" "$T/runtime" \
         "$T/bin" "$T/files"
chmod 700 "$T/runtime"

export HOME="$T/home"
export XDG_DATA_HOME="$T/data"
export XDG_CONFIG_HOME="$T/config"
export XDG_CONFIG_DIRS="$T/config-dirs"
export XDG_CACHE_HOME="$T/cache"
export XDG_STATE_HOME="$T/state"
export XDG_RUNTIME_DIR="$T/runtime"
# The XDG default; it holds the base shared-mime-info database.
export XDG_DATA_DIRS=/usr/local/share:/usr/share
export LC_ALL=C.UTF-8
export GIO_USE_VFS=local
export GIO_USE_VOLUME_MONITOR=unix
export PATH="$T/bin:$PATH"
unset LANGUAGE XDG_CURRENT_DESKTOP XDG_SESSION_DESKTOP DESKTOP_SESSION \
      DISPLAY WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS \
      GIO_LAUNCHED_DESKTOP_FILE GIO_LAUNCHED_DESKTOP_FILE_PID

# The stand-in for the app.  It writes its log in one rename so that a
# reader never sees half of it.
cat > "$T/bin/spanscope" <<EOF
#!/bin/sh
{
  echo "desktop=\${GIO_LAUNCHED_DESKTOP_FILE:-}"
  echo "argc=\$#"
  for arg in "\$@"; do
    echo "arg=\$arg"
  done
} > "$T/launch.part.\$\$"
mv "$T/launch.part.\$\$" "$T/launch.log"
EOF
chmod +x "$T/bin/spanscope"

# open-and-wait LOG COMMAND…: runs COMMAND, then waits up to 10 s for LOG.
cat > "$T/bin/open-and-wait" <<'EOF'
#!/bin/sh
log=$1
shift
rm -f "$log"
"$@" || exit $?
tries=0
while [ ! -e "$log" ]; do
  tries=$((tries + 1))
  if [ $tries -gt 100 ]; then
    echo "nothing was launched within 10 s" >&2
    exit 124
  fi
  sleep 0.1
done
EOF
chmod +x "$T/bin/open-and-wait"

# Launching happens the way a desktop does it: with a display and a session
# bus, both private and gone with the command.  The stub needs neither, so
# without xvfb-run the stub checks still run.  Without dbus-run-session,
# GDBus is pointed at nothing so that it cannot autolaunch a bus daemon
# that would outlive the test.
in_session ()
{
  if command -v dbus-run-session >/dev/null 2>&1; then
    set -- dbus-run-session -- "$@"
  else
    set -- env DBUS_SESSION_BUS_ADDRESS="unix:path=$T/no-bus" "$@"
  fi
  if command -v xvfb-run >/dev/null 2>&1; then
    set -- xvfb-run -a -s "-screen 0 800x600x24 -nolisten tcp" "$@"
  fi
  "$@"
}

# ---------------------------------------------------------------------------
# Install and build the databases, as a package's triggers would.

cp "$desktop_src" "$XDG_DATA_HOME/applications/$desktop_id"
cp "$mime_src" "$XDG_DATA_HOME/mime/packages/$app_id.xml"

out=$(update-mime-database "$XDG_DATA_HOME/mime" 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ -z "$out" ] && [ -s "$XDG_DATA_HOME/mime/mime.cache" ]; then
  pass "update-mime-database accepts the package silently"
else
  fail "update-mime-database accepts the package silently"
  { echo "exit status $rc"; printf '%s\n' "$out"; } | diag
fi

for pair in "application/x-chrome-trace+json application/json" \
            "application/x-compressed-chrome-trace application/gzip" \
            "application/x-diagsession application/zip" \
            "application/x-etl-zip application/zip" \
            "application/x-spanscope-profile application/vnd.sqlite3"; do
  if grep -qxF "$pair" "$XDG_DATA_HOME/mime/subclasses"; then
    pass "${pair% *} is a sub-class of ${pair#* }"
  else
    fail "${pair% *} is a sub-class of ${pair#* }"
    diag < "$XDG_DATA_HOME/mime/subclasses"
  fi
done

out=$(update-desktop-database "$XDG_DATA_HOME/applications" 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ -z "$out" ]; then
  pass "update-desktop-database accepts the .desktop file silently"
else
  fail "update-desktop-database accepts the .desktop file silently"
  { echo "exit status $rc"; printf '%s\n' "$out"; } | diag
fi

cache="$XDG_DATA_HOME/applications/mimeinfo.cache"
for type in $our_types; do
  if grep -qxF "$type=$desktop_id;" "$cache" 2>/dev/null; then
    pass "mimeinfo.cache maps $type to $desktop_id"
  else
    fail "mimeinfo.cache maps $type to $desktop_id"
    diag < "$cache"
  fi
done

# ---------------------------------------------------------------------------
# Content types, as a file manager sees them (gio reads the name and, when
# the name is not conclusive, the first bytes).

files="$T/files"
mkdir -p "$files/chrome" "$files/kineto" "$files/plain"

# A NetTrace v4 header: "Nettrace", u32 20, "!FastSerialization.1".
printf 'Nettrace\024\000\000\000!FastSerialization.1' > "$files/my trace.nettrace"
cp "$files/my trace.nettrace" "$files/renamed.bin"
cp "$files/my trace.nettrace" "$files/capture"

event='{"name":"main","ph":"X","ts":0,"dur":10,"pid":1,"tid":1}'
printf '[%s]\n' "$event" > "$files/x.trace.json"
printf '{"traceEvents":[%s]}\n' "$event" > "$files/chrome/foo.json"
printf '{"name":"spanscope","traceEvent":"not quite","version":"0.1.0"}\n' \
  > "$files/plain/foo.json"
# The PyTorch profiler writes its device list before "traceEvents".
{
  printf '{\n  "schemaVersion": 1,\n  "deviceProperties": [\n'
  for id in 0 1 2 3; do
    printf '    {"id": %d, "name": "GPU", "totalGlobalMem": 68702699520, ' "$id"
    printf '"computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024, '
    printf '"maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536, '
    printf '"warpSize": 64, "sharedMemPerBlock": 65536, "numSms": 104, '
    printf '"maxSharedMemoryPerMultiProcessor": 65536},\n'
  done
  printf '    {}\n  ],\n  "traceEvents": [%s]\n}\n' "$event"
} > "$files/kineto/foo.json"

gzip -n -c "$files/x.trace.json" > "$files/x.trace.json.gz"
gzip -n -c "$files/chrome/foo.json" > "$files/foo.json.gz"

# An empty ZIP archive: just the end-of-central-directory record.
printf 'PK\005\006\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' \
  > "$files/x.diagsession"
cp "$files/x.diagsession" "$files/other.zip"
cp "$files/x.diagsession" "$files/perfview.etl.zip"
# A package's first member: a stored, empty metadata.xml (the local header:
# signature, version 20, flags, method, time, date, CRC, sizes, name length
# 12, no extra field, then the name)
{
  printf 'PK\003\004\024\000\000\000\000\000\000\000\000\000'
  printf '\000\000\000\000\000\000\000\000\000\000\000\000\014\000\000\000'
  printf 'metadata.xml'
} > "$files/package"

# An ETL's first buffer: 72-byte header with BufferType 4 at byte 54, then
# the trace header's system record (version 2, type 2 = 64-bit, flags 0xc0,
# group 0, type 0)
{
  head -c 54 /dev/zero
  printf '\004\000'
  head -c 16 /dev/zero
  printf '\002\000\002\300\134\001\000\000'
  head -c 64 /dev/zero
} > "$files/kernel.etl"
cp "$files/kernel.etl" "$files/renamed-etl"

# A saved profile's database header: SQLite's magic, and our application
# id "SpsP" at byte 68; the same header with another id is somebody
# else's database
{
  printf 'SQLite format 3\000'
  head -c 52 /dev/zero
  printf 'SpsP'
  head -c 28 /dev/zero
} > "$files/saved.spprofile"
cp "$files/saved.spprofile" "$files/renamed-profile"
{
  printf 'SQLite format 3\000'
  head -c 84 /dev/zero
} > "$files/other.sqlite"

# One execution-trace frame: length 4, then a protobuf TraceFrame.
printf '\004\010\002\030\001' > "$files/x.etrace"
printf '\001\002\003\004\005\006\007\010' > "$files/foo.bin"

content_type ()
{
  gio info -a standard::content-type "$1" 2>&1 |
    sed -n 's/^ *standard::content-type: //p'
}

is_ours ()
{
  printf '%s\n' "$our_types" | grep -qxF "$1"
}

# expect_type FILE TYPE: FILE must get exactly TYPE.
expect_type ()
{
  got=$(content_type "$1")
  if [ "$got" = "$2" ]; then
    pass "${1#"$files"/} is $2"
  else
    fail "${1#"$files"/} is $2"
    echo "got: '$got'" | diag
  fi
}

# expect_not_ours FILE: FILE must get some type, and not one of ours.
expect_not_ours ()
{
  got=$(content_type "$1")
  if [ -n "$got" ] && ! is_ours "$got"; then
    pass "${1#"$files"/} is not ours ($got)"
  else
    fail "${1#"$files"/} is not ours"
    echo "got: '$got'" | diag
  fi
}

expect_type "$files/my trace.nettrace" application/x-nettrace
expect_type "$files/renamed.bin" application/x-nettrace
expect_type "$files/capture" application/x-nettrace
expect_type "$files/x.trace.json" application/x-chrome-trace+json
expect_type "$files/chrome/foo.json" application/x-chrome-trace+json
expect_type "$files/kineto/foo.json" application/x-chrome-trace+json
expect_type "$files/plain/foo.json" application/json
expect_type "$files/x.trace.json.gz" application/x-compressed-chrome-trace
expect_type "$files/foo.json.gz" application/x-compressed-chrome-trace
expect_type "$files/x.diagsession" application/x-diagsession
expect_type "$files/package" application/x-diagsession
expect_type "$files/other.zip" application/zip
expect_type "$files/perfview.etl.zip" application/x-etl-zip
expect_type "$files/kernel.etl" application/x-etl
expect_type "$files/renamed-etl" application/x-etl
expect_type "$files/x.etrace" application/x-etrace
expect_type "$files/saved.spprofile" application/x-spanscope-profile
expect_type "$files/renamed-profile" application/x-spanscope-profile
expect_not_ours "$files/other.sqlite"
expect_not_ours "$files/foo.bin"

# ---------------------------------------------------------------------------
# Default applications.

default_app ()
{
  gio mime "$1" 2>&1 | sed -n 's/^Default application for .*: //p'
}

for type in $our_types; do
  got=$(default_app "$type")
  if [ "$got" = "$desktop_id" ]; then
    pass "gio mime $type: default is $desktop_id"
  else
    fail "gio mime $type: default is $desktop_id"
    gio mime "$type" 2>&1 | diag
  fi
done

for type in application/json application/gzip application/zip \
            application/octet-stream; do
  if gio mime "$type" 2>&1 | grep -qF "$desktop_id"; then
    fail "gio mime $type does not offer $desktop_id"
    gio mime "$type" 2>&1 | diag
  else
    pass "gio mime $type does not offer $desktop_id"
  fi
done

if command -v xdg-mime >/dev/null 2>&1; then
  got=$(xdg-mime query default application/x-nettrace 2>&1)
  if [ "$got" = "$desktop_id" ]; then
    pass "xdg-mime query default application/x-nettrace is $desktop_id"
  else
    fail "xdg-mime query default application/x-nettrace is $desktop_id"
    echo "got: '$got'" | diag
  fi
else
  skip "xdg-mime query default application/x-nettrace" "xdg-mime is not installed"
fi

# ---------------------------------------------------------------------------
# Double-click: launch through the association and check what the app got.

log="$T/launch.log"

# expect_launch DESCRIPTION VIA FILE… -- COMMAND…: COMMAND must start the
# stub with exactly the FILE arguments, in one process.  VIA "association"
# also requires that GIO found it through our installed desktop file (GIO
# only says so when it launches with a launch context, as gio open does);
# VIA "desktop-file" is for a launch from an explicitly named desktop file.
expect_launch ()
{
  desc=$1
  via=$2
  shift 2
  argc=0
  for arg in "$@"; do
    [ "$arg" = "--" ] && break
    argc=$((argc + 1))
  done
  want=$(
    echo "desktop=$XDG_DATA_HOME/applications/$desktop_id"
    echo "argc=$argc"
    while [ "$1" != "--" ]; do
      echo "arg=$1"
      shift
    done
  )
  shift $((argc + 1))

  out=$(in_session "$T/bin/open-and-wait" "$log" "$@" 2>&1)
  rc=$?
  got=$(cat "$log" 2>/dev/null)
  if [ "$via" = desktop-file ]; then
    want=$(printf '%s\n' "$want" | sed 1d)
    got=$(printf '%s\n' "$got" | sed 1d)
  fi
  if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
    pass "$desc"
  else
    fail "$desc"
    {
      echo "exit status $rc"
      printf '%s\n' "$out"
      echo "expected:"
      printf '%s\n' "$want"
      echo "got:"
      printf '%s\n' "$got"
    } | diag
  fi
}

expect_launch "gio open 'my trace.nettrace' starts spanscope with its path" \
  association "$files/my trace.nettrace" -- gio open "$files/my trace.nettrace"

expect_launch "gio open foo.json (a Chrome trace) starts spanscope" \
  association "$files/chrome/foo.json" -- gio open "$files/chrome/foo.json"

expect_launch "gio open x.diagsession starts spanscope" \
  association "$files/x.diagsession" -- gio open "$files/x.diagsession"

expect_launch "gio open renamed-etl (magic only) starts spanscope" \
  association "$files/renamed-etl" -- gio open "$files/renamed-etl"

expect_launch "gio launch passes several files to one spanscope (%F)" \
  desktop-file "$files/x.etrace" "$files/x.trace.json" -- \
  gio launch "$XDG_DATA_HOME/applications/$desktop_id" \
  "$files/x.etrace" "$files/x.trace.json"

if command -v xdg-open >/dev/null 2>&1; then
  expect_launch "xdg-open renamed.bin (magic only) starts spanscope" \
    association "$files/renamed.bin" -- \
    env XDG_CURRENT_DESKTOP=GNOME xdg-open "$files/renamed.bin"
else
  skip "xdg-open renamed.bin starts spanscope" "xdg-open is not installed"
fi

# ---------------------------------------------------------------------------
# The same with the real binary, when it can finish on its own: its
# --screenshot option loads the file, writes a PNG and exits.

real_desc="the real spanscope opens a double-clicked trace and exits"
if [ -z "$real_exe" ] || [ ! -x "$real_exe" ]; then
  skip "$real_desc" "no spanscope binary given"
elif ! command -v xvfb-run >/dev/null 2>&1; then
  skip "$real_desc" "xvfb-run is not installed"
elif ! timeout 20 "$real_exe" --help-all 2>/dev/null | grep -q -e '--screenshot'; then
  skip "$real_desc" "spanscope has no --screenshot option to exit by itself"
else
  mkdir -p "$T/real-bin"
  cat > "$T/real-bin/spanscope" <<EOF
#!/bin/sh
"$real_exe" --screenshot "$T/real.png" --size 800x600 "\$@"
echo "status=\$?" > "$T/real.part"
mv "$T/real.part" "$T/real.log"
EOF
  chmod +x "$T/real-bin/spanscope"
  printf '{"traceEvents":[%s]}\n' "$event" > "$files/real.trace.json"
  rm -f "$T/real.log"
  # shellcheck disable=SC2016 # the inner script expands its own $1 and $2
  out=$(in_session env PATH="$T/real-bin:$PATH" sh -c '
      gio open "$1" || exit $?
      tries=0
      while [ ! -e "$2" ]; do
        tries=$((tries + 1))
        [ $tries -gt 600 ] && { echo "spanscope did not exit within 60 s" >&2; exit 124; }
        sleep 0.1
      done' sh "$files/real.trace.json" "$T/real.log" 2>&1)
  rc=$?
  status=$(cat "$T/real.log" 2>/dev/null)
  signature=$(head -c 8 "$T/real.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')
  if [ $rc -eq 0 ] && [ "$status" = "status=0" ] &&
     [ "$signature" = "89504e470d0a1a0a" ]; then
    pass "$real_desc"
  else
    fail "$real_desc"
    {
      echo "exit status $rc, $status, PNG signature '$signature'"
      printf '%s\n' "$out"
    } | diag
  fi
fi

echo "1..$n"
[ $failures -eq 0 ]
