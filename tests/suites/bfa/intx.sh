# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/intx: with MSI-X turned off (msix_disable_cb=1) the driver
# takes every cause on the INTx line: the IOC, ports and disks come up and
# data reads back identical.
. /harness/suite/lib.sh

if lsmod | grep -q '^bfa '; then
	rmmod bfa || fail "rmmod bfa failed"
fi
BFA_PARAMS=$PARAM_INTX bfa_up
expect_eq "interrupt type" "IO-APIC" "$(irq_kinds | tr '\n' ' ' | sed 's/ $//')"
round_trip "$(disk_of 1 0)" 4 INTx lun-1-0.img
rmmod bfa || fail "rmmod bfa failed"
