# SPDX-License-Identifier: GPL-2.0
# be2iscsi/ours/*: what our be2iscsi.ko offers beyond the suite both
# drivers run.  ours.sh MODE:
#   intx       loaded with intx=1, both event queues share the INTx line
#              (IO-APIC in /proc/interrupts, no MSI-X vector); a session
#              logs in and what is written reads back, on the host too
#   reload-20  20 rounds of login, both disks, logout, rmmod, modprobe:
#              after every logout no BHS buffer of the card's DMA pool is
#              in use, and no oops or warning; the growth of the kmalloc
#              caches from round 2 to 20 is printed, not asserted: they
#              grow with Debian's driver too (kmalloc-16), and ours' extra
#              growth is not explained yet
#   refuse     bad input is refused and changes nothing: a bad module
#              parameter; iface addresses the card cannot have (loopback,
#              multicast, a netmask with holes) leave its address as it was
. /harness/suite/lib.sh

PCI=/sys/bus/pci/devices/0000:00:05.0

# be2_unload: no be2iscsi is loaded
be2_unload() {
	[ ! -d /sys/module/be2iscsi ] || rmmod be2iscsi ||
		fail "rmmod be2iscsi failed"
}

# bhs_in_use: BHS buffers of the driver's DMA pool in use now
bhs_in_use() { awk '$1 == "be2iscsi_bhs" { print $2 }' "$PCI/pools"; }

# kmalloc_active: "cache objects" for every kmalloc cache
kmalloc_active() {
	awk '$1 ~ /^kmalloc-[0-9]+k?$/ { print $1, $2 }' /proc/slabinfo
}

case $1 in
intx)
	be2_unload
	modprobe -a virtio_pci virtio_scsi sd_mod sg ||
		fail "modprobe virtio_pci virtio_scsi sd_mod sg failed"
	modprobe be2iscsi intx=1 || fail "modprobe be2iscsi intx=1 failed"
	be2_up
	irqs=$(grep beiscsi /proc/interrupts)
	echo "$irqs"
	expect_match "interrupt type" "IO-APIC" "$irqs"
	case $irqs in *PCI-MSI*) fail "MSI-X in use with intx=1: $irqs" ;; esac
	be2_logged_in /tmp/intx
	while read -r lun d; do
		write_verify "$d" 0 1048576
		write_verify "$d" 4194304 65536
	done <disks
	no_bad
	host_verify
	echo "ok: $(ls ./*.back | wc -l) writes read back through INTx"
	be2_logout
	be2_unload
	be2_up
	;;
reload-20)
	be2_up
	be2_node
	for round in $(seq 1 20); do
		# the first round fills what stays (caches, sysfs of the host)
		[ "$round" != 2 ] || before=$(kmalloc_active)
		be2_login
		be2_two_disks
		[ "$(bhs_in_use)" -gt 0 ] ||
			fail "round $round: no BHS buffer in use with a session up ($PCI/pools)"
		be2_logout
		expect_eq "round $round: BHS buffers in use after logout" 0 "$(bhs_in_use)"
		be2_unload
		be2_up
	done
	echo "ok: 20 rounds of login, disks, logout and reload"
	after=$(kmalloc_active)
	grew=$(printf '%s\n' "$before" "--" "$after" | awk '
		$1 == "--" { second = 1; next }
		!second { n[$1] = $2; next }
		$2 != n[$1] { printf "%s %+d; ", $1, $2 - n[$1] }')
	echo "kmalloc caches, rounds 2 to 20 (not asserted): ${grew:-no change}"
	;;
refuse)
	be2_unload
	if modprobe be2iscsi intx=maybe 2>/dev/null; then
		fail "modprobe be2iscsi intx=maybe was accepted"
	fi
	[ ! -d /sys/module/be2iscsi ] || fail "be2iscsi loaded with intx=maybe"
	echo "ok: intx=maybe refused"
	be2_ready
	i=$(iface_name)
	ip=$(iface_attr ipaddress)
	mask=$(iface_attr subnet)
	klog_mark
	for bad in "ipaddress 127.0.0.1" "ipaddress 224.0.0.5" \
		"subnet_mask 255.0.255.0"; do
		set -- $bad
		iscsiadm -m iface -I "$i" -o update -n "iface.$1" -v "$2" >/dev/null ||
			fail "iscsiadm could not set iface.$1 = $2 in its record"
		iscsiadm -m iface -I "$i" -o apply >/dev/null 2>&1
		expect_eq "ipaddress after iface.$1 = $2" "$ip" "$(iface_attr ipaddress)"
		expect_eq "subnet after iface.$1 = $2" "$mask" "$(iface_attr subnet)"
		iscsiadm -m iface -I "$i" -o update -n iface.ipaddress -v "$ip" >/dev/null &&
			iscsiadm -m iface -I "$i" -o update -n iface.subnet_mask -v "$mask" >/dev/null ||
			fail "iscsiadm could not restore the iface record"
	done
	refused=$(klog_since | grep -c 'iface: invalid value' || true)
	expect_eq "refusals the driver logged" 3 "$refused"
	# and the card still works with what it had
	be2_node
	be2_login
	be2_two_disks
	be2_logout
	;;
*)
	fail "ours.sh: unknown mode '$1'"
	;;
esac
