# SPDX-License-Identifier: GPL-2.0
"""debug/bfa/: cases of bfa/ours on the debug kernel (KASAN, lockdep,
kmemleak, DEBUG_OBJECTS), named debug/<case>: the bfa/ suite's guest,
HBA, fabric, LUNs and scripts, with our bfa.ko built against the debug
kernel.  Skipped when the cache has no debug kernel."""

from cases import renamed, suite_module

WHERE = "guest"
KERNEL = "debug"
BASE = "bfa"
# what of bfa/ours runs here: on the debug kernel under TCG a case takes
# minutes, so make check has bring-up only; make check KERNEL=debug
# T=bfa/ours runs them all
PICK = ["ioc-up"]
WANTED = {f"bfa/ours/{p}" for p in PICK}


def cases():
    return renamed("debug/", [c for c in suite_module(BASE).cases()
                              if c.name in WANTED])
