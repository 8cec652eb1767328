# SPDX-License-Identifier: GPL-2.0
"""debug/be2iscsi/: cases of be2iscsi/ours on the debug kernel (KASAN,
lockdep, kmemleak, DEBUG_OBJECTS), named debug/<case>: the be2iscsi/
suite's guest, card, target and scripts, with our be2iscsi.ko built
against the debug kernel.  Skipped when the cache has no debug kernel."""

from cases import renamed, suite_module

WHERE = "guest"
KERNEL = "debug"
BASE = "be2iscsi"
# what of be2iscsi/ours runs here: on the debug kernel under TCG a case
# takes minutes, so make check has bring-up only; make check KERNEL=debug
# T=be2iscsi/ours runs them all
PICK = ["up"]
WANTED = {f"be2iscsi/ours/{p}" for p in PICK}


def cases():
    return renamed("debug/", [c for c in suite_module(BASE).cases()
                              if c.name in WANTED])
