# SPDX-License-Identifier: GPL-2.0
"""bench-iscsi/: `make bench` for the BladeEngine 2 driver.  The guest of
the be2iscsi/ suite (same card, tgtd and LUNs; the host has the LUN's
backing file in its page cache after the first pass).  fio runs the same
jobs on LUN 1 through our be2iscsi.ko, Debian's be2iscsi.ko and iscsi_tcp
over the suite's restricted virtio NIC, in one boot, and the case prints
IOPS, throughput, guest CPU time per I/O and the ratios."""

import os

from cases import Case, suite_module

_be2 = suite_module("be2iscsi")

WHERE = "guest"
BENCH = True
APPEND = _be2.APPEND
MODULES = _be2.MODULES
TOOLS = _be2.TOOLS + ["fio", "ip"]
HOST_CHECKS = _be2.HOST_CHECKS
QEMU_ARGS = _be2.QEMU_ARGS
host_setup = _be2.host_setup
host_teardown = _be2.host_teardown


def GUEST_FILES(ctx):
    return _be2.GUEST_FILES(ctx) + [(os.path.join(_be2.HERE, "lib.sh"),
                                     "/harness/suite/be2-lib.sh")]


def cases():
    return [Case("bench-iscsi/fio", "fio.sh", _be2.NIC_MAC, _be2.TCP_PORTAL,
                 timeout=900)]
