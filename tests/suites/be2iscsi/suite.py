# SPDX-License-Identifier: GPL-2.0
"""be2iscsi/: the emulated BladeEngine 2 iSCSI function
(tests/qemu/hw/scsi/be2-iscsi.c) with an iSCSI driver in the guest and a
real target behind it.  be2iscsi/mainline/* runs Debian's be2iscsi.ko on
the model: the model counts only when the driver nobody here wrote takes
it for the card.  be2iscsi/ours/* runs the same cases with the tree's
driver, and more of its own (ours.sh); be2iscsi/compare/session logs in
through both and compares what each shows.

be2iscsi/iscsi_tcp/data logs the same guest in to the same tgtd through
the software initiator over a virtio NIC, the peer of the card.  The NIC's
user-mode network is restricted (restrict=on: no route out); its one
forward, 10.0.2.100:3260, runs socat to tgtd's loopback portal for every
connection the guest opens.

The host runs tgt's tgtd for the suite, listening on 127.0.0.1 only (on a
port free at the time), with one target whose LUNs are files under the
run's results folder.  The model's offload engine connects there whatever
portal the guest names; the cases name 192.0.2.1:3260 (a documentation
address) so that nothing could leave the machine even if it tried.
"""

import hashlib
import os
import shutil
import socket
import subprocess
import time

import ckio
from cases import Case

WHERE = "guest"
# slub_debug=U: each kmalloc object records the code that allocated it,
# which ours/reload-20 counts
APPEND = ["slab_nomerge", "slub_debug=U,kmalloc-*"]
MODULES = ["be2iscsi", "iscsi_tcp", "virtio_pci", "virtio_scsi", "virtio_net",
           "crc32c_generic", "sd_mod", "sg"]
TOOLS = ["iscsiadm", "iscsid", "lsscsi", "sg_inq", "dd", "cmp", "sha256sum",
         "stat", "blockdev", "pgrep"]
# the software initiator's NIC (tcp.sh)
NIC_MAC = "52:54:00:be:02:01"
TCP_PORTAL = "10.0.2.100:3260"
HERE = os.path.dirname(os.path.abspath(__file__))

TARGET = "iqn.2026-12.test.be2iscsi:disks"
INITIATOR = "iqn.2026-12.test.be2iscsi:guest"
MAC = "00:00:c9:be:02:00"
# (lun, MiB) of the target's disks
LUNS = [(1, 64), (2, 32)]


def _workdir(ctx):
    d = os.path.join(ctx.results, "be2iscsi-host")
    os.makedirs(d, exist_ok=True)
    return d


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Target:
    """A tgtd of the suite's own: loopback portal, its own control port."""

    def __init__(self, ctx, image_dir=None):
        self.dir = _workdir(ctx)
        self.image_dir = image_dir or self.dir
        self.port = _free_port()
        self.proc = None
        # tgtd's management channel number (below 32768); another tgtd on
        # the machine may hold one, so start() moves on to the next
        self.control = 1000 + os.getpid() % 30000

    def adm(self, *args):
        subprocess.run(["tgtadm", "-C", str(self.control), "--lld", "iscsi",
                        *args], check=True, capture_output=True, text=True)

    def _spawn(self):
        with open(os.path.join(self.dir, "tgtd.log"), "ab") as log:
            self.proc = subprocess.Popen(
                ["tgtd", "-f", "-C", str(self.control),
                 "--iscsi", f"portal=127.0.0.1:{self.port}"],
                stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                self.adm("--op", "show", "--mode", "target")
                return True
            except subprocess.CalledProcessError:
                if self.proc.poll() is not None:
                    return False
                if time.monotonic() > deadline:
                    self.stop()
                    return False
                time.sleep(0.1)

    def start(self):
        for _ in range(5):
            if self._spawn():
                break
            self.control = 1000 + (self.control - 999) % 30000
        else:
            raise RuntimeError(f"tgtd did not come up; see {self.dir}/tgtd.log")
        self.adm("--op", "new", "--mode", "target", "--tid", "1",
                 "-T", TARGET)
        for lun, _ in LUNS:
            self.adm("--op", "new", "--mode", "logicalunit", "--tid", "1",
                     "--lun", str(lun), "-b", self.image(lun))
        self.adm("--op", "bind", "--mode", "target", "--tid", "1",
                 "-I", "ALL")

    def image(self, lun):
        return os.path.join(self.image_dir, f"lun-{lun}.img")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


_target = {}


def host_setup(ctx, image_dir=None):
    """tgtd with the suite's target; its LUNs' files in image_dir (default:
    the run's results folder)."""
    for tool, pkg in (("tgtd", "tgt"), ("socat", "socat")):
        if not shutil.which(tool):
            raise RuntimeError(f"{tool} is missing: scripts/deps installs {pkg}")
    t = Target(ctx, image_dir)
    for lun, mib in LUNS:
        with open(t.image(lun), "wb") as f:
            f.truncate(mib << 20)
    t.start()
    _target["t"] = t
    return t


def host_teardown(ctx, t):
    if t:
        t.stop()


def image_sha256(ctx, image, offset, length, digest):
    """The bytes [offset, offset + length) of a LUN's backing file."""
    path = os.path.join(_workdir(ctx), os.path.basename(image))
    with open(path, "rb") as f:
        f.seek(int(offset))
        data = f.read(int(length))
    if len(data) != int(length):
        return f"{image}: only {len(data)} of {length} bytes at {offset}"
    got = hashlib.sha256(data).hexdigest()
    if got != digest:
        return (f"{image} at {offset}+{length}: sha256 {got}, the guest "
                f"wrote {digest}")
    return None


def target_param(ctx, name, value):
    """A login parameter the target offers from now on."""
    _target["t"].adm("--op", "update", "--mode", "target", "--tid", "1",
                     "-n", name, "-v", value)
    return None


def target_stop(ctx):
    """tgtd goes away, as a target restarting does (its connections
    close)."""
    _target["t"].stop()
    return None


def target_start(ctx):
    """tgtd is back on the same portal with the same target and LUNs."""
    _target["t"].start()
    return None


def ckio_image(ctx, image, *args):
    """A LUN's backing file holds what a guest's ckio run settled on."""
    return ckio.image_check(
        os.path.join(_workdir(ctx), os.path.basename(image)), *args)


HOST_CHECKS = {"image-sha256": image_sha256, "target-param": target_param,
               "target-stop": target_stop, "target-start": target_start,
               "ckio-image": ckio_image}


def GUEST_FILES(ctx):
    d = _workdir(ctx)
    name = os.path.join(d, "initiatorname.iscsi")
    with open(name, "w") as f:
        f.write(f"InitiatorName={INITIATOR}\n")
    return [(name, "/etc/iscsi/initiatorname.iscsi"),
            (os.path.join(HERE, "iscsid.conf"), "/etc/iscsi/iscsid.conf")]


def QEMU_ARGS(ctx):
    t = _target["t"]
    return ["-d", "guest_errors,unimp",
            "-D", os.path.join(_workdir(ctx), "model.log"),
            # a boot controller, as machines have, so that the card is not
            # SCSI host 0: iscsiadm (2.1.8) refuses to apply iface settings
            # to host 0 ("Can't find host_no")
            "-device", "virtio-scsi-pci,id=boot,addr=6.0",
            "-device", f"be2-iscsi,id=be0,addr=5.0,mac={MAC},"
            f"target=127.0.0.1:{t.port}",
            "-netdev", "user,id=net0,restrict=on,guestfwd=tcp:"
            f"{TCP_PORTAL}-cmd:socat - TCP:127.0.0.1:{t.port}",
            # no option ROM: the guest boots from -kernel, not the NIC
            "-device", f"virtio-net-pci,netdev=net0,addr=7.0,romfile=,"
            f"mac={NIC_MAC}"]


def cases():
    out = []
    for drv in ("mainline", "ours"):
        full = "the mainline driver, for comparison" \
            if drv == "mainline" else None
        out += [Case(f"be2iscsi/{drv}/up", "up.sh", timeout=180),
                Case(f"be2iscsi/{drv}/login", "login.sh", timeout=240),
                Case(f"be2iscsi/{drv}/data", "data.sh", "None", timeout=400),
                Case(f"be2iscsi/{drv}/data-crc32c", "data.sh", "CRC32C",
                     timeout=400),
                Case(f"be2iscsi/{drv}/target-restart", "restart.sh",
                     timeout=300),
                Case(f"be2iscsi/{drv}/faults", "faults.sh", timeout=400),
                Case(f"be2iscsi/{drv}/hostile", "hostile.sh", timeout=400),
                # the fault suite (fault.sh): checksummed load through
                # each fault, verified on the backing files; make check
                # runs ours but for the resets (faults has them, without
                # the load), make check-full 10 and 100 of them and the
                # mainline driver's results for comparison
                Case(f"be2iscsi/{drv}/fault-resets", "fault.sh", "resets",
                     "10", timeout=400,
                     full=full or "10 connection resets under load"),
                Case(f"be2iscsi/{drv}/fault-resets-100", "fault.sh",
                     "resets", "100", timeout=1500,
                     full="100 connection resets"),
                Case(f"be2iscsi/{drv}/fault-replacement", "fault.sh",
                     "replacement", timeout=400, full=full),
                # make check has bfa's escalation case (all four
                # steps); this one is make check-full, for the budget
                Case(f"be2iscsi/{drv}/fault-escalation", "fault.sh",
                     "escalation", timeout=600,
                     full=full or "the iSCSI escalation case"),
                Case(f"be2iscsi/{drv}/fault-unload", "fault.sh", "unload",
                     timeout=400, full=full),
                # last: it leaves a driver loaded afresh
                Case(f"be2iscsi/{drv}/reload-10", "reload.sh", timeout=400)]
    for case in out:
        if case.name.startswith("be2iscsi/mainline/fault-resets"):
            case.known = ("with Debian's be2iscsi.ko a connection reset "
                          "now and then reports no connection error and "
                          "I/O goes on; cause not found")
        if case.name == "be2iscsi/mainline/hostile":
            # what Debian's driver does with the same entries, for
            # comparison
            case.known = ("Debian's be2iscsi.ko trusts the card and can oops "
                          "in beiscsi_process_cq on hostile completions")
    # ours beyond that: INTx, leaks over reloads, refused input, and the
    # two drivers side by side
    for mode in ("intx", "reload-20", "refuse"):
        out.append(Case(f"be2iscsi/ours/{mode}", "ours.sh", mode,
                        timeout=600))
    out.append(Case("be2iscsi/compare/session", "compare.sh", timeout=400))
    out.append(Case("be2iscsi/iscsi_tcp/data", "tcp.sh", NIC_MAC, TCP_PORTAL,
                    timeout=300))
    return out
