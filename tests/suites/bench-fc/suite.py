# SPDX-License-Identifier: GPL-2.0
"""bench-fc/: `make bench` for the Brocade driver.  The guest of the bfa/
suite (same HBA, fabric, LUNs and firmware image) plus a null-backed LUN
(QEMU's null-co block driver, reads of zeroes) behind the HBA and another
behind a virtio-scsi controller of the same QEMU build.  fio runs the same
jobs on the null LUN through our bfa.ko, Debian's bfa.ko and virtio-scsi
in one boot, and the case prints the ratios."""

import os

from cases import Case, suite_module

_bfa = suite_module("bfa")

WHERE = "guest"
APPEND = _bfa.APPEND
BENCH = True
MODULES = _bfa.MODULES + ["virtio_pci", "virtio_scsi"]
TOOLS = _bfa.TOOLS + ["fio"]
NULL_BYTES = 8 << 30


def GUEST_FILES(ctx):
    return _bfa.GUEST_FILES(ctx) + [(os.path.join(_bfa.HERE, "lib.sh"),
                                     "/harness/suite/bfa-lib.sh")]


def QEMU_ARGS(ctx):
    null = f"driver=null-co,size={NULL_BYTES},read-zeroes=on"
    return _bfa.QEMU_ARGS(ctx) + [
        # target 0, LUN 2 of the fabric: the HBA's null LUN
        "-blockdev", f"{null},node-name=nullfc",
        "-device", "scsi-hd,bus=hba0.0,scsi-id=0,lun=2,drive=nullfc",
        "-device", "virtio-scsi-pci,id=vs0,addr=5.0",
        "-blockdev", f"{null},node-name=nullvs",
        "-device", "scsi-hd,bus=vs0.0,scsi-id=0,lun=0,drive=nullvs"]


host_setup = _bfa.host_setup


def cases():
    return [Case("bench-fc/fio", "fio.sh", timeout=900)]
