# SPDX-License-Identifier: GPL-2.0
"""harness/: the harness itself, run on the fixture suite in tests/selftest.
It must report each known outcome as such, survive a WARN and a panic by
booting again, hand a host helper's data to the guest through extra QEMU
arguments, select cases by filter, and keep nightly-size cases for
--full."""

from cases import Case

WHERE = "host"


def cases():
    return [Case("harness/outcomes", "outcomes", timeout=600),
            Case("harness/filter", "filter", timeout=60),
            Case("harness/full", "full", timeout=300)]
