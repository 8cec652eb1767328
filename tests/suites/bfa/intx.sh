# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/intx: with MSI-X turned off (msix_disable_cb=1) the driver
# takes every cause on the INTx line: the IOC, ports and disks come up and
# data reads back identical.
. /harness/suite/lib.sh

if lsmod | grep -q '^bfa '; then
	rmmod bfa || fail "rmmod bfa failed"
fi
BFA_PARAMS=msix_disable_cb=1 bfa_up
expect_eq "interrupt type" "IO-APIC" "$(irq_kinds | tr '\n' ' ' | sed 's/ $//')"
d=$(disk_of 1 0)
mkdir -p /tmp/intx && cd /tmp/intx || fail "no scratch space"
random_file data 4194304
dd if=data of=/dev/"$d" bs=1048576 seek=20 oflag=direct 2>/dev/null || fail "write failed"
dd if=/dev/"$d" of=back bs=1048576 skip=20 count=4 iflag=direct 2>/dev/null || fail "read failed"
cmp data back || fail "data read back differs on INTx"
echo "ok: 4 MiB read back identical on INTx"
rmmod bfa || fail "rmmod bfa failed"
