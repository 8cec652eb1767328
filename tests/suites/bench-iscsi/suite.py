# SPDX-License-Identifier: GPL-2.0
"""bench-iscsi/: `make bench` for the BladeEngine 2 driver.  The guest of
the be2iscsi/ suite (same card, tgtd and LUNs), with the LUNs' backing
files on the host's tmpfs, so that the disk under them is not measured.
fio runs the same jobs on LUN 1 through our be2iscsi.ko, Debian's
be2iscsi.ko and iscsi_tcp over the suite's restricted virtio NIC, in one
boot, in rounds that interleave the three, and the case prints each
round's IOPS, throughput, guest CPU time and interrupts per I/O, their
medians and the medians of the per-round ratios."""

import os
import shutil
import tempfile

from cases import Case, suite_module

_be2 = suite_module("be2iscsi")

WHERE = "guest"
BENCH = True
APPEND = [a for a in _be2.APPEND if not a.startswith("slub_debug")]
MODULES = _be2.MODULES
TOOLS = _be2.TOOLS + ["fio", "ip"]
HOST_CHECKS = _be2.HOST_CHECKS
QEMU_ARGS = _be2.QEMU_ARGS


def _tmpfs():
    """/dev/shm if it is a tmpfs we may write to, or None."""
    with open("/proc/mounts") as f:
        for line in f:
            where, fstype = line.split()[1:3]
            if where == "/dev/shm" and fstype == "tmpfs" and \
                    os.access(where, os.W_OK):
                return where
    return None


def host_setup(ctx):
    where = _tmpfs()
    if not where:
        raise RuntimeError("the bench needs a writable tmpfs on the host "
                           "(/dev/shm) for the LUNs' backing files")
    images = tempfile.mkdtemp(prefix="bench-iscsi-", dir=where)
    try:
        return (_be2.host_setup(ctx, images), images)
    except BaseException:
        shutil.rmtree(images, ignore_errors=True)
        raise


def host_teardown(ctx, state):
    t, images = state
    try:
        _be2.host_teardown(ctx, t)
    finally:
        shutil.rmtree(images, ignore_errors=True)


def GUEST_FILES(ctx):
    return _be2.GUEST_FILES(ctx) + [(os.path.join(_be2.HERE, "lib.sh"),
                                     "/harness/suite/be2-lib.sh")]


def cases():
    return [Case("bench-iscsi/fio", "fio.sh", _be2.NIC_MAC, _be2.TCP_PORTAL,
                 timeout=1500)]
