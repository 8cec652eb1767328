# SPDX-License-Identifier: GPL-2.0
"""debug/selftest/: the harness on the debug kernel, run on the planted/
suite of tests/selftest-debug: a use after free and a leak that the case
scripts do not notice must fail their cases on the kernel's reports (KASAN,
the runner's kmemleak scan), and the cases around them must pass.  Skipped
when the cache has no debug kernel."""

from cases import Case

WHERE = "host"
KERNEL = "debug"


def cases():
    return [Case("debug/selftest/planted", "planted", timeout=900)]
