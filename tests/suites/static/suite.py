# SPDX-License-Identifier: GPL-2.0
"""static/: checkpatch --strict, sparse and W=1 over the tree's kernel code,
the self-test that shows each check failing on a planted defect, and QEMU's
checkpatch over the device models."""

from cases import Case

WHERE = "host"
CHECKS = ["checkpatch", "sparse", "w1"]


def cases():
    tree = [Case(f"static/{c}", "check", c, timeout=900) for c in CHECKS]
    selftest = [Case(f"static/selftest/{c}", "selftest", c, timeout=300)
                for c in ["clean"] + CHECKS]
    qemu = [Case("static/qemu-checkpatch", "qemu-style", timeout=600)]
    return tree + selftest + qemu
