# SPDX-License-Identifier: GPL-2.0
"""demo/: what `make demo` shows.  Until the emulated HBAs exist, a
scsi_debug disk with DIF type 2 and DIX, as an administrator would inspect
it."""

from cases import Case

WHERE = "guest"
DEMO = True
MODULES = ["scsi_debug", "sd_mod", "sg"]
TOOLS = ["lsscsi", "sg_readcap", "sg_raw", "sg_inq", "dd", "cmp", "od"]


def cases():
    return [Case("demo/scsi-debug-dif2", "dif2.sh", timeout=120)]
