# SPDX-License-Identifier: GPL-2.0
"""bfa/: the emulated Brocade 825 (tests/qemu/hw/scsi/brocade-cb.c) with a
Brocade driver in the guest.  bfa/mainline/* runs Debian's own bfa.ko on
the model: the model counts only when the driver nobody here wrote accepts
it as the card.

The guest gets the firmware image the project generates (tests/qemu/mkfw)
as /lib/firmware/cbfw-3.2.5.1.bin, and one HBA with its LUNs: QEMU scsi-hd
devices on the HBA's bus, target T being remote port T, backed by files on
the host under the run's results folder.  The HBA has both of its ports (PCI functions
4.0 and 4.1) on the same switch; the cases use port 0 unless they say.
"""

import hashlib
import os
import subprocess

import ckio
from cases import Case

WHERE = "guest"
# every slab cache on its own, so that a leak shows in its own counts
APPEND = ["slab_nomerge"]
MODULES = ["bfa", "sd_mod", "sg"]
TOOLS = ["lsscsi", "sg_inq", "dd", "cmp", "od", "sha256sum", "stat",
         "sg_reset"]
FIRMWARE = "cbfw-3.2.5.1.bin"
HERE = os.path.dirname(os.path.abspath(__file__))

# the fault suite's RSCN storm: target 1 leaves and rejoins this often
RSCN_ROUNDS = 100

# (target, lun, MiB) of the LUNs the HBA carries
LUNS = [(0, 0, 64), (0, 1, 32), (1, 0, 48)]


def _workdir(ctx):
    d = os.path.join(ctx.results, "bfa-host")
    os.makedirs(d, exist_ok=True)
    return d


def GUEST_FILES(ctx):
    fw = os.path.join(_workdir(ctx), FIRMWARE)
    subprocess.run([os.path.join(ctx.top, "tests", "qemu", "mkfw"), fw],
                   check=True)
    # the bsg tool, static so that it needs nothing from the guest; the FC
    # bsg layout comes from the kernel's own UAPI header
    tool = os.path.join(_workdir(ctx), "fc-bsg")
    uapi = f"/lib/modules/{ctx.kver}/source/include/uapi"
    subprocess.run(["cc", "-O2", "-Wall", "-Wextra", "-Werror", "-static",
                    "-idirafter", uapi, "-o", tool,
                    os.path.join(HERE, "fc-bsg.c")], check=True)
    return [(fw, "/lib/firmware/" + FIRMWARE),
            (tool, "/harness/suite/fc-bsg")]


def host_setup(ctx):
    for t, lun, mib in LUNS:
        img = os.path.join(_workdir(ctx), f"lun-{t}-{lun}.img")
        with open(img, "wb") as f:
            f.truncate(mib << 20)


def QEMU_ARGS(ctx):
    # the model's complaints about what the driver asked of it
    args = ["-d", "guest_errors,unimp",
            "-D", os.path.join(_workdir(ctx), "model.log"),
            "-device", "brocade-825,id=hba0,addr=4.0,multifunction=on",
            "-device", "brocade-825-fn1,chip=hba0,addr=4.1"]
    for t, lun, _ in LUNS:
        img = os.path.join(_workdir(ctx), f"lun-{t}-{lun}.img")
        drive = f"t{t}l{lun}"
        args += ["-drive", f"if=none,id={drive},format=raw,file={img},"
                 "cache=writeback",
                 "-device", f"scsi-hd,bus=hba0.0,scsi-id={t},lun={lun},"
                 f"drive={drive}"]
    return args


def image_sha256(ctx, image, offset, length, digest):
    """The bytes [offset, offset + length) of a LUN's backing file."""
    path = os.path.join(_workdir(ctx), os.path.basename(image))
    with open(path, "rb") as f:
        f.seek(int(offset))
        data = f.read(int(length))
    got = hashlib.sha256(data).hexdigest()
    if len(data) != int(length):
        return f"{image}: only {len(data)} of {length} bytes at {offset}"
    if got != digest:
        return (f"{image} at {offset}+{length}: sha256 {got}, the guest "
                f"wrote {digest}")
    return None


def ckio_image(ctx, image, *args):
    """A LUN's backing file holds what a guest's ckio run settled on."""
    return ckio.image_check(
        os.path.join(_workdir(ctx), os.path.basename(image)), *args)


HOST_CHECKS = {"image-sha256": image_sha256,
               "ckio-image": ckio_image}


def cases():
    out = []
    # the suite that proves the model, run with Debian's bfa.ko and with
    # ours; bsg.sh speaks mainline's private vendor commands, so ours has
    # its own bsg case (FC bsg ELS and CT pass-through) instead
    for drv in ("mainline", "ours"):
        out += [Case(f"bfa/{drv}/ioc-up", "ioc-up.sh", timeout=120),
                Case(f"bfa/{drv}/rports", "rports.sh", timeout=120),
                Case(f"bfa/{drv}/second-port", "second-port.sh", timeout=180),
                Case(f"bfa/{drv}/data", "data.sh", timeout=300),
                Case(f"bfa/{drv}/link-bounce", "link-bounce.sh", timeout=180),
                Case(f"bfa/{drv}/target-leaves", "target-leaves.sh",
                     timeout=300),
                Case(f"bfa/{drv}/heartbeat", "recover.sh", "heartbeat-stall",
                     timeout=180),
                Case(f"bfa/{drv}/ioc-fail", "recover.sh", "ioc-fail",
                     timeout=180),
                Case(f"bfa/{drv}/cmd-drop", "cmd-drop.sh", timeout=180),
                Case(f"bfa/{drv}/cmd-delay", "cmd-delay.sh", timeout=180),
                Case(f"bfa/{drv}/task-mgmt", "task-mgmt.sh", timeout=180),
                Case(f"bfa/{drv}/sysfs", "sysfs.sh", timeout=180),
                Case(f"bfa/{drv}/els-loss", "els-loss.sh", timeout=300),
                Case(f"bfa/{drv}/p2p", "p2p.sh", timeout=240),
                Case(f"bfa/{drv}/intx", "intx.sh", timeout=180),
                Case(f"bfa/{drv}/npiv", "npiv.sh", timeout=240),
                Case(f"bfa/{drv}/reload", "reload.sh", timeout=600)]
    # the fault suite (fault.sh): checksummed load through each fault,
    # verified on the backing files.  make check runs ours but for the
    # link bounces; make check-full adds 10 and 100 bounces and the
    # mainline driver's results on the same cases for comparison
    for drv in ("mainline", "ours"):
        full = "the mainline driver, for comparison" \
            if drv == "mainline" else None
        # make check has link-bounce (no load); the loaded bounces are
        # nightly-size, for the budget
        out += [Case(f"bfa/{drv}/fault-bounce", "fault.sh", "bounce", "10",
                     timeout=300, full=full or "10 link bounces under load"),
                Case(f"bfa/{drv}/fault-bounce-100", "fault.sh", "bounce",
                     "100", timeout=1500, full="100 link bounces"),
                Case(f"bfa/{drv}/fault-rscn", "fault.sh", "rscn",
                     str(RSCN_ROUNDS), timeout=600, full=full),
                Case(f"bfa/{drv}/fault-dev-loss", "fault.sh", "dev-loss",
                     timeout=400, full=full),
                Case(f"bfa/{drv}/fault-heartbeat", "fault.sh",
                     "heartbeat-stall", timeout=240, full=full),
                Case(f"bfa/{drv}/fault-ioc-fail", "fault.sh", "ioc-fail",
                     timeout=240, full=full),
                Case(f"bfa/{drv}/fault-escalation", "fault.sh",
                     "escalation", timeout=600, full=full),
                Case(f"bfa/{drv}/fault-unload", "fault.sh", "unload",
                     timeout=400, full=full),
                Case(f"bfa/{drv}/hostile", "hostile.sh", timeout=400,
                     full=full)]
    for case in out:
        if case.name == "bfa/mainline/fault-escalation":
            case.known = ("Debian's bfa.ko has no host reset handler: the "
                          "error handler's last step does nothing and the "
                          "LUN goes offline")
        if case.name == "bfa/mainline/hostile":
            # what Debian's driver does with the same elements
            case.known = ("Debian's bfa.ko indexes its I/O array by the "
                          "answer's tag and its handler table by the "
                          "message class, unchecked")
    out.append(Case("bfa/mainline/bsg", "bsg.sh", timeout=240))
    # ours beyond that: bring-up details, bsg, leaks, refused input
    for mode in ("up", "intx", "params", "heartbeat-stall", "ioc-fail",
                 "link", "fc-host", "fabric", "reload"):
        name = "msix" if mode == "up" else mode
        out.append(Case(f"bfa/ours/ioc-{name}", "ioc.sh", mode, timeout=240))
    for mode in ("bsg", "reload-20", "refuse"):
        out.append(Case(f"bfa/ours/{mode}", "ours.sh", mode, timeout=600))
    return out
