# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the bfa/ cases: the HBA the suite gives the guest (one
# Brocade 825 with the LUNs of suite.py), whichever driver binds it.

. /harness/lib.sh

HBA=/machine/peripheral/hba0
# what suite.py and the model set up
HBA_WWPN=0x10000005330a0b00
HBA1_WWPN=0x10000005330a0b01      # the second port, PCI function 1
HBA_WWNN=0x20000005330a0b00
FABRIC_NAME=0x1000525400fa0b00
HBA_PORT_ID=0x010100
TGT0_WWPN=0x50060e8000000001
TGT1_WWPN=0x50060e8000000101
# target:lun:MiB of every LUN
LUNS="0:0:64 0:1:32 1:0:48"

# fc_host [WWPN]: the fc_host of the HBA's port 0 (or of that port name)
fc_host() {
	sysfs_find '/sys/class/fc_host/host*' port_name "${1:-$HBA_WWPN}"
}
host_no() { basename "$(fc_host "$@")" | sed 's/^host//'; }

# rport_of WWPN [HOST_WWPN]: the fc_remote_ports entry of that port name,
# seen from port 0 (or from the port named HOST_WWPN)
rport_of() {
	local r h
	h=$(host_no "$2") || return 1
	for r in /sys/class/fc_remote_ports/rport-"$h":*; do
		[ "$(cat "$r/port_name" 2>/dev/null)" = "$1" ] && echo "$r" && return 0
	done
	return 1
}

# rport_state_is WWPN STATE [HOST_WWPN]
rport_state_is() {
	local r
	r=$(rport_of "$1" "$3") || return 1
	[ "$(cat "$r/port_state")" = "$2" ]
}

# disk_at ID L [HOST_WWPN]: the sd block device at SCSI target id ID, LUN
# L, behind port 0 (or the port named HOST_WWPN)
disk_at() {
	local d
	for d in /sys/class/scsi_disk/"$(host_no "$3")":0:"$1":"$2"/device/block/*; do
		[ -e "$d" ] && basename "$d" && return 0
	done
	return 1
}

# disk_of T L [HOST_WWPN]: the disk of the model's target T (the remote
# port TGT<T>_WWPN), LUN L; the SCSI target id is the transport's choice
disk_of() {
	local w r
	eval "w=\$TGT$1_WWPN"
	r=$(rport_of "$w" "$3") || return 1
	disk_at "$(cat "$r/scsi_target_id")" "$2" "$3"
}

all_disks_up() {
	local x t l
	for x in $LUNS; do
		t=${x%%:*}; l=${x#*:}; l=${l%%:*}
		disk_of "$t" "$l" >/dev/null || return 1
	done
}

# the driver of the case (bfa/<driver>/...): mainline is Debian's bfa.ko,
# ours is the tree's, which modprobe finds first
BFA_DRIVER=${HARNESS_CASE#bfa/}
BFA_DRIVER=${BFA_DRIVER%%/*}
BFA_DEBIAN_KO=/lib/modules/$(uname -r)/kernel/drivers/scsi/bfa/bfa.ko

# how each driver words, in the kernel log, the events the cases wait for:
# the IOC up, port 0 logged in to the fabric, a port gone offline, port 0
# losing its fabric login (LIP), the firmware found failed
if [ "$BFA_DRIVER" = mainline ]; then
	LOG_IOC_UP="IOC enabled"
	LOG_PORT_ONLINE="Base port online: WWN = 10:00:00:05:33:0a:0b:00"
	LOG_PORT_OFFLINE="port (offline|taken offline)"
	LOG_LIP="Base port (offline|\(WWN = [0-9a-f:]+\) lost fabric connectivity)"
	LOG_IOC_FAILED="Heart Beat of IOC has failed"
	PARAM_INTX=msix_disable_cb=1	# the parameter that keeps to INTx
else
	LOG_IOC_UP="IOC operational"
	LOG_PORT_ONLINE="bfa 0000:00:04.0: fabric login: N_Port ID 010100"
	LOG_PORT_OFFLINE="link down"
	LOG_LIP="bfa 0000:00:04.0: fabric login: N_Port ID"
	LOG_IOC_FAILED="firmware (heartbeat stopped|error interrupt)"
	PARAM_INTX=msix=0
fi

# bfa_load [PARAM=VALUE...]: load the case's driver
bfa_load() {
	if [ "$BFA_DRIVER" = mainline ]; then
		modprobe scsi_transport_fc && insmod "$BFA_DEBIAN_KO" bfa_log_level=4 "$@"
	else
		modprobe bfa "$@"
	fi
}

# bfa_which: the bfa that is loaded, mainline or ours (which has the msix
# parameter); nothing when none is
bfa_which() {
	[ -d /sys/module/bfa ] || return 0
	if [ -e /sys/module/bfa/parameters/msix ]; then echo ours; else echo mainline; fi
}

# bfa_up: the case's driver is loaded (with $BFA_PARAMS if it was not
# loaded yet), both remote ports are Online and every LUN has its disk
bfa_up() {
	local w
	# whatever an earlier case left behind, the fabric starts whole
	qom_set "$HBA" link-down false
	qom_set "$HBA" p2p false
	qom_set "$HBA" targets-away 0
	qom_set "$HBA" heartbeat-stall false
	qom_set "$HBA" io-drop 0
	qom_set "$HBA" io-delay-ms 0
	qom_set "$HBA" fault-lun -1
	w=$(bfa_which)
	if [ -n "$w" ] && [ "$w" != "$BFA_DRIVER" ]; then
		rmmod bfa || fail "rmmod of the $w bfa failed"
		w=
	fi
	if [ -z "$w" ]; then
		modprobe sd_mod && modprobe sg || fail "modprobe sd_mod sg failed"
		bfa_load $BFA_PARAMS ||
			fail "loading $BFA_DRIVER bfa $BFA_PARAMS failed"
	fi
	poll 60 fc_host_online || fail "fc_host not Online within 60 s"
	poll 60 rport_state_is "$TGT0_WWPN" Online ||
		fail "target 0 ($TGT0_WWPN) not Online within 60 s"
	poll 60 rport_state_is "$TGT1_WWPN" Online ||
		fail "target 1 ($TGT1_WWPN) not Online within 60 s"
	poll 60 all_disks_up || fail "not every LUN has a disk within 60 s"
}

# bfa_reloads N: N times rmmod and bfa_up, nothing logged at error level
bfa_reloads() {
	local i=1
	while [ $i -le "$1" ]; do
		klog_mark
		rmmod bfa || fail "rmmod bfa failed (round $i)"
		[ -z "$(ls /sys/class/fc_host)" ] || fail "fc_host left behind after rmmod (round $i)"
		bfa_up
		bfa_log_clean
		i=$((i + 1))
	done
}

fc_host_online() {
	local h
	h=$(fc_host "$@") && [ "$(cat "$h/port_state")" = Online ]
}

# no_driver_errors SINCE-MARK: the driver logged nothing at error level
bfa_log_clean() {
	local bad
	bad=$(klog_since | grep -E 'bfa .*(fail|error|Error|incompatible|timed out)' || true)
	[ -z "$bad" ] || fail "driver reported trouble: $bad"
}

# irq_kinds: the interrupt types (IO-APIC, PCI-MSIX...) of the driver's
# vectors in /proc/interrupts
irq_kinds() {
	grep -E 'bfa' /proc/interrupts | grep -oE '(IO-APIC|PCI-MSI[X]?)' | sort -u
}

# round_trip DISK MIB WHAT [IMAGE]: write MIB MiB of fresh data at MiB
# offset 40 of DISK with O_DIRECT, read it back and compare; with IMAGE,
# the host checks that backing file holds the same bytes
round_trip() {
	local dir
	dir=$(mktemp -d) || fail "no scratch space"
	random_file "$dir/data" $(($2 * 1048576))
	dd if="$dir/data" of=/dev/"$1" bs=1048576 seek=40 oflag=direct 2>/dev/null ||
		fail "write to $1 failed ($3)"
	dd if=/dev/"$1" of="$dir/back" bs=1048576 skip=40 count="$2" iflag=direct \
		2>/dev/null || fail "read from $1 failed ($3)"
	cmp "$dir/data" "$dir/back" || fail "data read back from $1 differs ($3)"
	echo "ok: $2 MiB read back identical from $1 ($3)"
	[ -z "$4" ] || host_check image-sha256 "$4" $((40 * 1048576)) \
		$(($2 * 1048576)) "$(sha_of "$dir/data")"
	rm -rf "$dir"
}
