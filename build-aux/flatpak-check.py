#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Checks of the Flatpak manifest that need no Flathub access.

    flatpak-check.py manifest MANIFEST TOP
        what the manifest says, read as flatpak-builder reads it: the app id
        is data/'s, the command is a program the build installs, every
        module's source is pinned (URL + sha256, or the local checkout),
        finish-args grant no host or home file system (exit 0 or 1)

    flatpak-check.py modules MANIFEST TOP WORKDIR
        builds each bundled module outside Flatpak, from Debian's source of
        the same release (its orig tarball must have the manifest's sha256,
        which proves it is the same file), with the manifest's build system
        and options, into WORKDIR/prefix; then configures and builds
        Spanscope with the manifest's options against that prefix. An option
        the module does not know fails, whatever its build system (meson
        refuses it; configure and CMake only warn, so their warnings are
        read). A module whose source the Debian mirror does not serve is
        reported and skipped: nothing can check it here.

The machines this runs on reach Debian's mirror and nothing else, so the
tarballs the manifest names cannot be downloaded here; Debian's orig
tarballs are those same files whenever the checksums agree.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET

# Modules whose build takes long and whose options configure alone checks.
CONFIGURE_ONLY = {"protobuf"}

# Permissions a trace viewer never needs.
FORBIDDEN_ARGS = ("--filesystem=host", "--filesystem=home", "--filesystem=host-os",
                  "--filesystem=host-etc", "--socket=session-bus", "--socket=system-bus")


def fail(message):
    print("flatpak-check: " + message, file=sys.stderr)
    return 1


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def app_id_of(top):
    """The app id of data/'s metainfo (the desktop file is named after it)."""
    tree = ET.parse(os.path.join(top, "data", "io.github.spanscope.Spanscope.metainfo.xml.in"))
    return tree.getroot().findtext("id")


def installed_programs(top):
    """Names of the executables the meson build installs."""
    names = set()
    for root, _dirs, files in os.walk(os.path.join(top, "app")):
        if "meson.build" in files:
            with open(os.path.join(root, "meson.build"), encoding="utf-8") as f:
                text = f.read()
            for m in re.finditer(r"executable\(\s*'([^']+)'(.*?)\n\)", text, re.S):
                if re.search(r"install\s*:\s*true", m.group(2)):
                    names.add(m.group(1))
    return names


def check_manifest(path, top):
    errors = []
    manifest = load(path)
    expected = app_id_of(top)
    if manifest.get("id") != expected:
        errors.append(f"id is {manifest.get('id')!r}, data/ says {expected!r}")
    if os.path.basename(path) != expected + ".json":
        errors.append(f"the manifest is not named after the app id ({expected}.json)")
    if manifest.get("command") not in installed_programs(top):
        errors.append(f"command {manifest.get('command')!r} is not a program the build installs")
    for key in ("runtime", "runtime-version", "sdk"):
        if not manifest.get(key):
            errors.append(f"no {key}")
    args = manifest.get("finish-args", [])
    for arg in args:
        if arg.startswith(FORBIDDEN_ARGS) or arg.startswith("--filesystem=/"):
            errors.append(f"finish-args grant {arg}")
    for needed in ("--socket=wayland", "--socket=fallback-x11", "--share=ipc"):
        if needed not in args:
            errors.append(f"finish-args lack {needed}")
    modules = manifest.get("modules", [])
    if not modules or modules[-1].get("name") != "spanscope":
        errors.append("the last module is not spanscope")
    for module in modules:
        name = module.get("name", "?")
        sources = module.get("sources", [])
        if not sources:
            errors.append(f"module {name}: no sources")
        for source in sources:
            if source.get("type") == "dir":
                if name != "spanscope" or source.get("path") != "..":
                    errors.append(f"module {name}: only the app is built from the checkout")
                continue
            if source.get("type") != "archive":
                errors.append(f"module {name}: source type {source.get('type')!r} is not a pinned archive")
            if not str(source.get("url", "")).startswith("https://"):
                errors.append(f"module {name}: no https URL")
            if not re.fullmatch(r"[0-9a-f]{64}", str(source.get("sha256", ""))):
                errors.append(f"module {name}: no sha256")
    for e in errors:
        fail(f"{path}: {e}")
    return 1 if errors else 0


def archive_version(module):
    """The upstream version in a module's tarball name."""
    url = module["sources"][0]["url"]
    m = re.search(r"[-v](\d+(?:\.\d+)*)\.tar\.\w+$", url)
    return m.group(1) if m else None


def debian_orig(name, version, workdir):
    """Downloads Debian's source of @name (its orig tarball) into @workdir
    with an apt configuration of its own (the machine's lists have no
    deb-src). Returns the orig tarball's path, or None."""
    apt = os.path.join(workdir, "apt")
    for sub in ("lists/partial", "cache/archives/partial", "dl"):
        os.makedirs(os.path.join(apt, sub), exist_ok=True)
    sources = os.path.join(apt, "deb-src.sources")
    if not os.path.exists(sources):
        with open(sources, "w", encoding="utf-8") as f:
            f.write("Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\n"
                    "Components: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")
    opts = ["-o", f"Dir::Etc::SourceList={sources}", "-o", "Dir::Etc::SourceParts=/nonexistent",
            "-o", f"Dir::State::Lists={apt}/lists", "-o", f"Dir::Cache={apt}/cache", "-qq"]
    if not any(n.endswith("Sources") for n in os.listdir(os.path.join(apt, "lists"))):
        subprocess.run(["apt-get", *opts, "update"], check=True)
    dl = os.path.join(apt, "dl")
    subprocess.run(["apt-get", *opts, "source", "--download-only", name], cwd=dl,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for entry in os.listdir(dl):
        if entry.startswith(f"{name}_{version}.orig.tar."):
            return os.path.join(dl, entry)
    return None


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def run_checked(cmd, cwd, env, unknown_pattern):
    """Runs a configure step; fails when it exits non-zero or its output
    says an option was not used."""
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        print(proc.stdout[-4000:])
        raise RuntimeError(f"{' '.join(cmd[:2])}… failed ({proc.returncode})")
    if unknown_pattern and re.search(unknown_pattern, proc.stdout):
        print(proc.stdout[-4000:])
        raise RuntimeError("an option the module does not know")


def build_module(module, src, prefix, env, configure_only):
    system = module.get("buildsystem", "autotools")
    opts = module.get("config-opts", [])
    build = os.path.join(src, "_build")
    if system == "meson":
        run_checked(["meson", "setup", build, f"--prefix={prefix}", "--libdir=lib", *opts],
                    src, env, None)
        steps = [["ninja", "-C", build], ["ninja", "-C", build, "install"]]
    elif system in ("cmake", "cmake-ninja"):
        run_checked(["cmake", "-G", "Ninja", "-S", src, "-B", build,
                     f"-DCMAKE_INSTALL_PREFIX={prefix}", "-DCMAKE_INSTALL_LIBDIR=lib", *opts],
                    src, env, r"Manually-specified variables were not used")
        steps = [["ninja", "-C", build], ["ninja", "-C", build, "install"]]
    elif system == "autotools":
        run_checked(["./configure", f"--prefix={prefix}", "--libdir=" + os.path.join(prefix, "lib"),
                     *opts], src, env, r"unrecognized options")
        steps = [["make", f"-j{os.cpu_count() or 1}"], ["make", "install"]]
    else:
        raise RuntimeError(f"build system {system!r} is not handled")
    if configure_only:
        return
    for step in steps:
        proc = subprocess.run(step, cwd=src, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        if proc.returncode != 0:
            print(proc.stdout[-4000:])
            raise RuntimeError(f"{' '.join(step)} failed ({proc.returncode})")


def check_modules(path, top, workdir):
    manifest = load(path)
    os.makedirs(workdir, exist_ok=True)
    prefix = os.path.join(workdir, "prefix")
    env = dict(os.environ)
    env["PKG_CONFIG_PATH"] = os.path.join(prefix, "lib", "pkgconfig")
    env["PATH"] = os.path.join(prefix, "bin") + os.pathsep + env["PATH"]
    env["LD_LIBRARY_PATH"] = os.path.join(prefix, "lib")
    status = 0
    built = []
    for module in manifest["modules"]:
        name = module["name"]
        if name == "spanscope":
            continue
        version = archive_version(module)
        orig = debian_orig(name, version, workdir) if version else None
        if orig is None:
            print(f"flatpak-check: {name} {version}: the Debian mirror does not serve this "
                  "source; its options are not checked here")
            continue
        if sha256_of(orig) != module["sources"][0]["sha256"]:
            status = fail(f"{name}: Debian's {os.path.basename(orig)} is not the manifest's "
                          "tarball (sha256 differs)")
            continue
        src_root = os.path.join(workdir, "src", name)
        shutil.rmtree(src_root, ignore_errors=True)
        os.makedirs(src_root)
        with tarfile.open(orig) as tar:
            tar.extractall(src_root)
        (top_dir,) = os.listdir(src_root)
        try:
            build_module(module, os.path.join(src_root, top_dir), prefix, env,
                         name in CONFIGURE_ONLY)
        except (RuntimeError, subprocess.CalledProcessError) as e:
            status = fail(f"{name} {version}: {e}")
            continue
        how = "configured" if name in CONFIGURE_ONLY else "built"
        print(f"flatpak-check: {name} {version}: {how} with the manifest's options")
        if name not in CONFIGURE_ONLY:
            built.append(name)
    if status:
        return status

    # The app with the manifest's options, against what was built above.
    app = manifest["modules"][-1]
    build = os.path.join(workdir, "spanscope")
    shutil.rmtree(build, ignore_errors=True)
    subprocess.run(["meson", "setup", build, f"--prefix={prefix}", *app.get("config-opts", [])],
                   cwd=top, env=env, check=True, stdout=subprocess.DEVNULL)
    # What the Flatpak installs (the tests are not part of it)
    targets = json.loads(subprocess.run(["meson", "introspect", "--targets", build],
                                        capture_output=True, text=True, check=True).stdout)
    outputs = [os.path.relpath(f, build) for t in targets if t.get("installed")
               for f in t["filename"]]
    subprocess.run(["ninja", "-C", build, *outputs], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    # The bundled libraries are the ones linked (the prefix's, not Debian's).
    introspected = subprocess.run(["meson", "introspect", "--dependencies", build],
                                  capture_output=True, text=True, check=True).stdout
    deps = {d["name"]: d for d in json.loads(introspected)}
    for name, pc in (("libzip", "libzip"), ("protobuf-c", "libprotobuf-c")):
        if name in built:
            compile_args = " ".join(deps.get(pc, {}).get("compile_args", []) +
                                    deps.get(pc, {}).get("link_args", []))
            if prefix not in compile_args:
                status = fail(f"the app did not use the bundled {name}: {compile_args}")
    if not status:
        print("flatpak-check: spanscope built with the manifest's options against "
              + ", ".join(built))
    return status


def main(argv):
    if len(argv) >= 3 and argv[0] == "manifest":
        return check_manifest(argv[1], argv[2])
    if len(argv) >= 4 and argv[0] == "modules":
        return check_modules(argv[1], argv[2], argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
