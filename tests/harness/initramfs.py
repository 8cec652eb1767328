# SPDX-License-Identifier: GPL-2.0
"""The guest's initramfs: busybox, the suite's tools with their libraries, the
Debian modules the suite names with everything they depend on, our modules
under updates/, and the harness and case scripts.

Files keep their host paths, and the host's merged-/usr symlinks (/bin ->
usr/bin, ...) are recreated, so the dynamic loader finds libraries where ldd
found them.
"""

import os
import re
import shutil
import subprocess

SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


class BuildError(Exception):
    pass


class Initramfs:
    def __init__(self, root):
        self.root = root
        os.makedirs(root, exist_ok=True)
        for top in ("bin", "sbin", "lib", "lib64"):
            host = "/" + top
            if os.path.islink(host):
                target = os.readlink(host)
                os.makedirs(os.path.join(root, target.lstrip("/")),
                            exist_ok=True)
                os.symlink(target, os.path.join(root, top))
        for d in ("proc", "sys", "dev", "tmp", "run", "etc", "root", "mnt"):
            os.makedirs(os.path.join(root, d), exist_ok=True)

    def _dest(self, path):
        return os.path.join(self.root, path.lstrip("/"))

    def add_file(self, src, dest=None, mode=None):
        dest = self._dest(dest or src)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(src, dest)
        shutil.copymode(src, dest)
        if mode is not None:
            os.chmod(dest, mode)

    def add_text(self, dest, text, mode=0o644):
        dest = self._dest(dest)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "w") as f:
            f.write(text)
        os.chmod(dest, mode)

    def add_tree(self, src, dest):
        shutil.copytree(src, self._dest(dest), dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.py"))

    def _add_path(self, path):
        """Copy a host file, recreating the symlinks on the way to it."""
        dest = self._dest(path)
        if os.path.lexists(dest):
            return
        if os.path.islink(path):
            target = os.readlink(path)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            os.symlink(target, dest)
            self._add_path(os.path.join(os.path.dirname(path), target))
        else:
            self.add_file(path)

    def add_program(self, name):
        path = name if name.startswith("/") else shutil.which(name, path=SEARCH_PATH)
        if not path or not os.path.exists(path):
            raise BuildError(f"program {name} is not on this machine "
                             "(scripts/deps installs what the suites use)")
        self._add_path(path)
        for lib in shared_libraries(path):
            self._add_path(lib)

    def add_modules(self, kver, names, ours=(), root="/"):
        """Modules by name from the tree of release kver under root (the
        Debian kernel's in /, the debug kernel's in the cache), with their
        dependencies and soft dependencies as modprobe resolves them, plus
        our .ko files under updates/."""
        base = f"/lib/modules/{kver}"
        tree = os.path.join(root, base.lstrip("/"))
        wanted = list(names)
        for ko in ours:
            self.add_file(ko, f"{base}/updates/{os.path.basename(ko)}")
            deps = subprocess.run(["modinfo", "-F", "depends", ko],
                                  capture_output=True, text=True).stdout
            wanted += [d for d in deps.strip().split(",") if d]
        # Debian's module of the same name as one of ours stays too, in its
        # own place: modprobe finds ours (updates/ comes first), a case that
        # wants Debian's loads it by path
        for name in wanted:
            for path in module_closure(kver, name, root):
                self.add_file(path, "/" + os.path.relpath(path, root))
        for meta in ("modules.order", "modules.builtin", "modules.builtin.modinfo"):
            if os.path.exists(f"{tree}/{meta}"):
                self.add_file(f"{tree}/{meta}", f"{base}/{meta}")
        subprocess.run(["depmod", "-b", self.root, kver], check=True)

    def write(self, out):
        """Write the tree as a newc cpio archive, owned by root."""
        with open(out, "wb") as f:
            find = subprocess.Popen(["find", ".", "-print0"], cwd=self.root,
                                    stdout=subprocess.PIPE)
            subprocess.run(["cpio", "--null", "-o", "-H", "newc", "--quiet",
                            "-R", "0:0"], cwd=self.root, stdin=find.stdout,
                           stdout=f, check=True)
            find.wait()


def module_name(name):
    return os.path.basename(name).split(".ko")[0].replace("-", "_")


def module_closure(kver, name, root="/"):
    where = [] if root == "/" else ["-d", root]
    res = subprocess.run(["modprobe"] + where + ["-S", kver, "--show-depends",
                                                 name],
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise BuildError(f"module {name} is not in kernel {kver}: "
                         f"{res.stderr.strip()}")
    return re.findall(r"^insmod (\S+)", res.stdout, re.M)


def shared_libraries(path):
    res = subprocess.run(["ldd", path], capture_output=True, text=True)
    if res.returncode != 0:
        return []        # static binary
    libs = []
    for line in res.stdout.splitlines():
        m = re.search(r"(?:=>\s*)?(/\S+)\s+\(0x", line)
        if m:
            libs.append(m.group(1))
    return libs


def concatenate(parts, out):
    """The kernel unpacks concatenated cpio archives in order."""
    with open(out, "wb") as f:
        for part in parts:
            with open(part, "rb") as p:
                shutil.copyfileobj(p, f)
