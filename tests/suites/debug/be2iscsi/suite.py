# SPDX-License-Identifier: GPL-2.0
"""debug/be2iscsi/: the fault suite of be2iscsi/ours on the debug kernel
(make check-full), named debug/<case>: the be2iscsi/ suite's guest, card,
tgtd and scripts, with our be2iscsi.ko built against the debug kernel.
Skipped when the cache has no debug kernel."""

from cases import on_debug_kernel

WHERE = "guest"
KERNEL = "debug"
BASE = "be2iscsi"


def cases():
    return on_debug_kernel(BASE, [], ["be2iscsi/ours/fault-*",
                                      "be2iscsi/ours/hostile"])
