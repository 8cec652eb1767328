# SPDX-License-Identifier: GPL-2.0
"""model/: the device models on their own, driven register by register
through QEMU's qtest protocol (no guest): a hostile host must get errors,
never a crashed or wedged emulator."""

from cases import Case

WHERE = "host"


def cases():
    return [Case("model/brocade-825/hostile", "hostile", "brocade-825",
                 timeout=300)]
