# SPDX-License-Identifier: GPL-2.0
"""planted/: cases on the debug kernel with defects planted by a module of
their own (planted.c, built against the debug kernel's tree), that
debug/selftest/planted runs through the harness and checks: a use after
free that KASAN reports, a leak that kmemleak reports at the case's end, a
clean load on what must be the debug kernel, and the case after the use
after free in a fresh boot.  (Each case costs the runner's two kmemleak
scans, some 20 s under TCG, hence no more cases than that.)"""

import os
import shutil
import subprocess

from cases import Case

WHERE = "guest"
KERNEL = "debug"
HERE = os.path.dirname(os.path.abspath(__file__))


def GUEST_FILES(ctx):
    work = os.path.join(ctx.results, "planted-module")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for f in ("planted.c", "Kbuild"):
        shutil.copy(os.path.join(HERE, f), work)
    subprocess.run(["nice", "-n", "19", "make", "-s", "-C", ctx.kernel_build,
                    f"M={work}", "modules"], check=True,
                   stdout=subprocess.DEVNULL)
    return [(os.path.join(work, "planted.ko"), "/harness/suite/planted.ko")]


def cases():
    return [
        Case("planted/clean", "planted.sh", "none"),
        Case("planted/uaf", "planted.sh", "uaf"),
        Case("planted/after-uaf", "planted.sh", "none"),
        Case("planted/leak", "planted.sh", "leak"),
    ]
