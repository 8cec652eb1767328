# SPDX-License-Identifier: GPL-2.0
"""demo-iscsi/: what `make demo` shows of the emulated BladeEngine 2: the
guest of the be2iscsi/ suite (same card, same tgtd and LUNs) with Debian's
be2iscsi.ko, as an administrator looks at it."""

import os

from cases import Case, suite_module

_be2 = suite_module("be2iscsi")

WHERE = "guest"
DEMO = True
APPEND = _be2.APPEND
MODULES = _be2.MODULES
TOOLS = _be2.TOOLS + ["grep", "sort"]
HOST_CHECKS = _be2.HOST_CHECKS
QEMU_ARGS = _be2.QEMU_ARGS
host_setup = _be2.host_setup
host_teardown = _be2.host_teardown


def GUEST_FILES(ctx):
    return _be2.GUEST_FILES(ctx) + [(os.path.join(_be2.HERE, "lib.sh"),
                                     "/harness/suite/be2-lib.sh")]


def cases():
    return [Case("demo-iscsi/be2-mainline", "card.sh", timeout=240)]
