# SPDX-License-Identifier: GPL-2.0
"""debug/bfa/: cases of bfa/ours on the debug kernel (KASAN, lockdep,
kmemleak, DEBUG_OBJECTS), named debug/<case>: the bfa/ suite's guest,
HBA, fabric, LUNs and scripts, with our bfa.ko built against the debug
kernel.  Skipped when the cache has no debug kernel."""

from cases import on_debug_kernel

WHERE = "guest"
KERNEL = "debug"
BASE = "bfa"


def cases():
    # on the debug kernel under TCG a case takes minutes: make check-full
    # runs bring-up and the fault suite here; make check KERNEL=debug
    # T=bfa/ours runs every case of ours
    return on_debug_kernel(BASE, [], ["bfa/ours/ioc-up", "bfa/ours/fault-*",
                                      "bfa/ours/hostile"])
