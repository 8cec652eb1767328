# SPDX-License-Identifier: GPL-2.0
"""series/: the tree as a kernel patch series (scripts/series) on Debian's
linux-source-6.1, checked in the kernel tree (scripts/series-check).

series/export: the branch, the patches and the pull request are there and
say what they must, the tip holds exactly the checkout's files, and the
patches applied to the base give the tip.  series/checkpatch: every patch
is clean under the tree's own checkpatch.pl --strict.  series/intree-build:
the last commit configures and builds in the tree with C=2 and W=1 and no
warning.  series/selftest: the same checks report defects planted in a
copy of the checkout.  The build of every commit (bisection) is
``make series-check``, not part of the suite.

On a cold cache the first case unpacks the source tarball and the first
build prepares the kernel tree (olddefconfig, modules_prepare); both are
cached outside the checkout."""

from cases import Case

WHERE = "host"


def cases():
    return [Case("series/export", "export", timeout=900),
            Case("series/checkpatch", "check", "--no-build", timeout=900),
            Case("series/intree-build", "check", "--tip", "--no-checkpatch",
                 timeout=1800),
            Case("series/selftest", "selftest", timeout=900)]
