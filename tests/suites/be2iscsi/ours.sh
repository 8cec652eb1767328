# SPDX-License-Identifier: GPL-2.0
# be2iscsi/ours/*: what our be2iscsi.ko offers beyond the suite both
# drivers run.  ours.sh MODE:
#   intx       loaded with intx=1, both event queues share the INTx line
#              (IO-APIC in /proc/interrupts, no MSI-X vector); a session
#              logs in and what is written reads back, on the host too
#   reload-20  20 rounds of login, both disks, logout, rmmod, modprobe:
#              after every logout no BHS buffer of the card's DMA pool is
#              in use, no oops or warning, and from round 2 to 20 no code
#              of be2iscsi, libiscsi or scsi_transport_iscsi, nor of a
#              module since unloaded, holds one kmalloc object more per
#              round (slub_debug=U records each object's allocating code;
#              names of sysfs nodes are printed apart, not asserted)
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

# alloc_sites: "code objects" for the kmalloc objects in use, by the code
# that allocated them (debugfs' alloc_traces of slub_debug=U): the first
# frame of the allocating stack in be2iscsi, libiscsi or
# scsi_transport_iscsi, or in a module no longer loaded (a bare address),
# else the function that called the allocator.  Names of sysfs nodes
# (kernfs) count apart, as "sysfs:code": the kernel keeps those of
# removed session, connection and MSI directories with Debian's
# be2iscsi.ko just the same (four a session, four a connection).
alloc_sites() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	cat /sys/kernel/debug/slab/kmalloc-*/alloc_traces 2>/dev/null | awk '
		function frame(f, m) {
			sub(/\+.*/, "", f)
			return m ~ /^\[.*\]$/ ? f m : f
		}
		function flush() {
			if (count)
				n[(kn ? "sysfs:" : "") (owner ? owner : site)] += count
		}
		/^ *[0-9]+ / {
			flush()
			count = $1; site = frame($2, $3); owner = ""; kn = 0
			next
		}
		/^[ \t]/ {
			f = frame($1, $2)
			if (f == "__kernfs_new_node")
				kn = 1
			if (!owner &&
			    (f ~ /\[(be2iscsi|libiscsi|scsi_transport_iscsi)\]$/ ||
			     f ~ /^0x/))
				owner = f
		}
		END { flush(); for (s in n) print s, n[s] }'
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
	[ -n "$(alloc_sites)" ] ||
		fail "no allocation sites in /sys/kernel/debug/slab/kmalloc-*/alloc_traces (slub_debug=U missing?)"
	for round in $(seq 1 20); do
		# the first round fills what stays (caches, sysfs of the host)
		[ "$round" != 2 ] || before=$(alloc_sites)
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
	after=$(alloc_sites)
	grew=$(printf '%s\n' "$before" "--" "$after" | awk '
		$1 == "--" { second = 1; next }
		!second { n[$1] = $2; next }
		{ d = $2 - n[$1]; if (d > 0) print d, $1 }' | sort -rn)
	echo "kmalloc objects gained from round 2 to 20, by allocating code:"
	printf '%s\n' "$grew" | head -8
	# 19 rounds: a site that leaks once a round has gained 19
	bad=$(printf '%s\n' "$grew" | awk '$1 >= 19 && $2 !~ /^sysfs:/ &&
		($2 ~ /\[(be2iscsi|libiscsi|scsi_transport_iscsi)\]$/ ||
		 $2 ~ /^0x/)')
	[ -z "$bad" ] ||
		fail "kmalloc objects held once a round or more (expected none): $bad"
	echo "ok: no iSCSI code or unloaded module holds objects round after round"
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
