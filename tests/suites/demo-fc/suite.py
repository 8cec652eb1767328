# SPDX-License-Identifier: GPL-2.0
"""demo-fc/: what `make demo` shows of the emulated Brocade 825: the guest
of the bfa/ suite (same HBA, LUNs and firmware image) with Debian's bfa.ko,
as an administrator looks at it."""

import os

from cases import Case, suite_module

_bfa = suite_module("bfa")

WHERE = "guest"
DEMO = True
MODULES = _bfa.MODULES
TOOLS = _bfa.TOOLS + ["grep", "sort"]


def GUEST_FILES(ctx):
    return _bfa.GUEST_FILES(ctx) + [(os.path.join(_bfa.HERE, "lib.sh"),
                                     "/harness/suite/bfa-lib.sh")]


QEMU_ARGS = _bfa.QEMU_ARGS
host_setup = _bfa.host_setup


def cases():
    return [Case("demo-fc/brocade-825", "hba.sh", timeout=180)]
