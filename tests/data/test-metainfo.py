#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# What appstreamcli cannot check of the metainfo: its newest release is the
# version meson builds, and every screenshot it lists is a PNG of this
# repository (data/screenshots/) of the size it states (TAP output).

import os
import struct
import sys
import xml.etree.ElementTree as ET

top, version = sys.argv[1], sys.argv[2]
root = ET.parse(os.path.join(top, "data", "io.github.spanscope.Spanscope.metainfo.xml.in")).getroot()
prefix = "https://raw.githubusercontent.com/spanscope/spanscope/main/"
results = []

releases = root.findall("releases/release")
results.append(("the newest release is the project's version " + version,
                bool(releases) and releases[0].get("version") == version))

shots = root.findall("screenshots/screenshot")
results.append(("there are screenshots, one of them the default",
                len(shots) >= 2 and sum(s.get("type") == "default" for s in shots) == 1))
for shot in shots:
    image = shot.find("image")
    url = image.text.strip()
    name = url[len(prefix):] if url.startswith(prefix) else None
    path = os.path.join(top, name) if name else None
    ok = bool(path) and name.startswith("data/screenshots/") and os.path.isfile(path)
    if ok:
        with open(path, "rb") as f:
            head = f.read(24)
        ok = head[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", head[16:24])
        ok = ok and (str(width), str(height)) == (image.get("width"), image.get("height"))
    results.append((f"{url} is a PNG of data/screenshots/ of the stated size", ok))
    results.append((f"{url} has a caption", bool((shot.findtext("caption") or "").strip())))

print(f"1..{len(results)}")
for i, (what, ok) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {what}")
