#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# The Flatpak manifest's checks (build-aux/flatpak-check.py manifest): the
# real manifest passes, and each kind of mistake they exist for is caught
# in a copy of it (TAP output).

import copy
import json
import os
import subprocess
import sys
import tempfile

top = sys.argv[1]
checker = os.path.join(top, "build-aux", "flatpak-check.py")
name = "io.github.spanscope.Spanscope.json"
with open(os.path.join(top, "flatpak", name), encoding="utf-8") as f:
    real = json.load(f)


def run(manifest, file_name=name):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, file_name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(manifest, f)
        return subprocess.run([sys.executable, checker, "manifest", path, top],
                              capture_output=True, text=True)


def mutated(change):
    m = copy.deepcopy(real)
    change(m)
    return m


def module(m, n):
    return next(x for x in m["modules"] if x["name"] == n)


cases = [
    ("the real manifest passes", real, name, 0, ""),
    ("a home file system grant fails", mutated(lambda m: m["finish-args"].append("--filesystem=home")),
     name, 1, "finish-args grant --filesystem=home"),
    ("a host file system grant fails", mutated(lambda m: m["finish-args"].append("--filesystem=host:ro")),
     name, 1, "finish-args grant --filesystem=host:ro"),
    ("a module without sha256 fails", mutated(lambda m: module(m, "libzip")["sources"][0].pop("sha256")),
     name, 1, "module libzip: no sha256"),
    ("a module from git fails", mutated(lambda m: module(m, "libpeas")["sources"][0].update(type="git")),
     name, 1, "module libpeas: source type 'git' is not a pinned archive"),
    ("another app id fails", mutated(lambda m: m.update(id="org.example.Other")),
     name, 1, "id is 'org.example.Other', data/ says 'io.github.spanscope.Spanscope'"),
    ("a manifest not named after the id fails", real, "other.json", 1,
     "the manifest is not named after the app id"),
    ("a command the build does not install fails", mutated(lambda m: m.update(command="spanscope-viewer")),
     name, 1, "command 'spanscope-viewer' is not a program the build installs"),
    ("a missing wayland socket fails", mutated(lambda m: m["finish-args"].remove("--socket=wayland")),
     name, 1, "finish-args lack --socket=wayland"),
]

print(f"1..{len(cases)}")
for i, (what, manifest, file_name, want_rc, want_text) in enumerate(cases, 1):
    proc = run(manifest, file_name)
    ok = proc.returncode == want_rc and want_text in proc.stderr
    if want_rc == 0:
        ok = ok and proc.stderr == ""
    print(f"{'ok' if ok else 'not ok'} {i} - {what}")
    if not ok:
        print(f"# exit {proc.returncode}, stderr: {proc.stderr.strip()}")
