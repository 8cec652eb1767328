# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the be2iscsi/ cases: the emulated BladeEngine 2 of suite.py
# (MAC, target), open-iscsi in the guest, whichever driver binds the card.

. /harness/lib.sh

CARD=/machine/peripheral/be0
MAC=00:00:c9:be:02:00
# the card's own initiator name, made from its MAC
CARD_INAME=iqn.2001-04.com.serverengines:be2-0000c9be0200
# what the cases configure through iscsiadm's iface, all in the
# documentation range: the model maps every portal to the host's tgtd
IFACE_IP=192.0.2.10
IFACE_MASK=255.255.255.0

BE2_DRIVER=${HARNESS_CASE#be2iscsi/}
BE2_DRIVER=${BE2_DRIVER%%/*}
BE2_DEBIAN_KO=/lib/modules/$(uname -r)/kernel/drivers/scsi/be2iscsi/be2iscsi.ko

# be2_host: the iscsi_host of the card (the one showing its MAC)
be2_host() { sysfs_find '/sys/class/iscsi_host/host*' hwaddress "$MAC"; }
be2_host_no() { basename "$(be2_host)" | sed 's/^host//'; }

link_up() {
	local h
	h=$(be2_host) && [ "$(cat "$h/port_state")" = "LINK UP" ]
}

# be2_load: the case's driver is loaded
be2_load() {
	if [ "$BE2_DRIVER" = mainline ]; then
		# its dependencies first, as modprobe would load them
		modprobe -a $(modinfo -F depends "$BE2_DEBIAN_KO" | tr , ' ') &&
			insmod "$BE2_DEBIAN_KO" "$@"
	else
		modprobe be2iscsi "$@"
	fi
}

# be2_loaded_is_ours: the loaded be2iscsi is this tree's (out of tree:
# the kernel taints with O), not Debian's
be2_loaded_is_ours() { grep -q O /sys/module/be2iscsi/taint; }

# be2_drop_other: if the be2iscsi loaded is not the case's driver (the
# cases before it ran the other one), its sessions end and it goes
be2_drop_other() {
	[ -d /sys/module/be2iscsi ] || return 0
	if be2_loaded_is_ours; then
		[ "$BE2_DRIVER" = mainline ] || return 0
	else
		[ "$BE2_DRIVER" != mainline ] || return 0
	fi
	iscsiadm -m node --logoutall=all >/dev/null 2>&1
	poll 30 no_session || fail "a session of the other be2iscsi stayed"
	rmmod be2iscsi || fail "rmmod of the other be2iscsi failed"
}

# be2_up: open-iscsi's directories exist, the case's driver is loaded and
# the card's iscsi_host is there with its link up
be2_up() {
	mkdir -p /etc/iscsi/nodes /etc/iscsi/send_targets /etc/iscsi/ifaces \
		/run/lock/iscsi /var/lib/iscsi
	qom_set "$CARD" link-down false
	be2_drop_other
	if [ ! -d /sys/module/be2iscsi ]; then
		# the boot controller first: it is SCSI host 0, as on a
		# real machine (see suite.py)
		modprobe -a virtio_pci virtio_scsi sd_mod sg ||
			fail "modprobe virtio_pci virtio_scsi sd_mod sg failed"
		poll 10 test -e /sys/class/scsi_host/host0 ||
			fail "the boot controller has no SCSI host"
		be2_load || fail "loading the $BE2_DRIVER be2iscsi failed"
	fi
	if [ "$BE2_DRIVER" = mainline ]; then
		! be2_loaded_is_ours || fail "our be2iscsi is loaded, not Debian's"
	elif [ "$BE2_DRIVER" = ours ]; then
		be2_loaded_is_ours || fail "Debian's be2iscsi is loaded, not ours"
	fi
	poll 60 be2_host >/dev/null ||
		fail "no iscsi_host with hwaddress $MAC within 60 s"
	poll 30 link_up || fail "port_state not 'LINK UP' within 30 s"
}

# be2_log_clean: the driver logged no trouble since the mark (mainline's
# messages carry a B?_<line> tag; the kernel's note that an out-of-tree
# module is unsigned is not the driver's)
be2_log_clean() {
	local bad
	bad=$(klog_since | grep -E 'be2iscsi|beiscsi|B[A-Z]_[0-9]+ :' |
		grep -Ei 'fail|error|timed? ?out|not supported|unsupported cmd' |
		grep -v -e 'Obsolete/Unsupported BE2' \
			-e 'be2iscsi: module verification failed' || true)
	[ -z "$bad" ] || fail "driver reported trouble: $bad"
}

# iface_name: the open-iscsi iface bound to the card's IPv4 interface
iface_name() {
	iscsiadm -m iface 2>/dev/null |
		awk -v m="$MAC" '$1 ~ /^be2iscsi\./ && index($0, m) && $1 ~ /ipv4/ { print $1; exit }'
}

# iface_set NAME VALUE...: iface.NAME = VALUE for every pair, then apply
iface_set() {
	local i
	i=$(iface_name)
	[ -n "$i" ] || fail "iscsiadm lists no be2iscsi iface for $MAC: $(iscsiadm -m iface 2>&1)"
	while [ $# -ge 2 ]; do
		iscsiadm -m iface -I "$i" -o update -n "iface.$1" -v "$2" >/dev/null ||
			fail "iscsiadm could not set iface.$1 = $2 on $i"
		shift 2
	done
	iscsiadm -m iface -I "$i" -o apply ||
		fail "iscsiadm could not apply iface $i to the card"
}

# iface_attr NAME: what the transport's ipv4 iface of the card shows
iface_attr() {
	cat /sys/class/iscsi_iface/ipv4-iface-"$(be2_host_no)"-0/"$1" 2>/dev/null
}

# the portal the cases name (the model maps it to the host's tgtd)
PORTAL=192.0.2.1:3260
TARGET=iqn.2026-12.test.be2iscsi:disks

# be2_iscsid: open-iscsi's daemon runs and answers iscsiadm (which says
# 20, "could not connect to iscsid", until it does)
iscsid_answers() {
	iscsiadm -m session >/dev/null 2>&1
	[ $? -ne 20 ]
}
be2_iscsid() {
	pgrep -x iscsid >/dev/null || iscsid || fail "iscsid did not start"
	poll 10 iscsid_answers || fail "iscsid does not answer within 10 s"
}

# be2_ready: the card is up with the cases' address and iscsid answers
be2_ready() {
	be2_up
	[ "$(iface_attr ipaddress)" = "$IFACE_IP" ] ||
		iface_set bootproto static ipaddress "$IFACE_IP" \
			subnet_mask "$IFACE_MASK"
	be2_iscsid
}

# be2_node: be2_ready, and open-iscsi knows the target's node through the
# card's iface afresh (settings back to iscsid.conf's, no session left
# over from a case that failed)
be2_node() {
	local i
	be2_ready
	i=$(iface_name)
	! be2_session >/dev/null || be2_logout
	iscsiadm -m node -T "$TARGET" -p "$PORTAL" -o delete >/dev/null 2>&1
	iscsiadm -m node -T "$TARGET" -p "$PORTAL" -I "$i" -o new >/dev/null ||
		fail "iscsiadm could not add the node $TARGET at $PORTAL"
}

# be2_node_set NAME VALUE: a setting of the node
be2_node_set() {
	iscsiadm -m node -T "$TARGET" -p "$PORTAL" -o update -n "$1" -v "$2" ||
		fail "iscsiadm could not set $1 = $2 on the node"
}

# be2_login: the session to the target is logged in through the card,
# with the node as the case made it (be2_node's if it made none); the
# card is readied first, whatever an earlier case left unloaded
be2_login() {
	be2_ready
	iscsiadm -m node -T "$TARGET" -p "$PORTAL" >/dev/null 2>&1 || be2_node
	iscsiadm -m node -T "$TARGET" -p "$PORTAL" --login ||
		fail "login to $TARGET at $PORTAL failed"
}

# be2_logout: the session is logged out and gone from sysfs
be2_logout() {
	iscsiadm -m node -T "$TARGET" -p "$PORTAL" --logout ||
		fail "logout from $TARGET failed"
	poll 30 no_session || fail "the session stayed after logout"
}
no_session() { ! be2_session >/dev/null; }

# be2_session: the sysfs directory of the card's session
be2_session() {
	sysfs_find '/sys/class/iscsi_session/session*' targetname "$TARGET"
}

# be2_disks: the sd devices of the session, "lun name" per line
be2_disks() {
	local s d
	s=$(be2_session) || return 1
	for d in "$s"/device/target*/*:*:*:*/block/*; do
		[ -e "$d" ] || continue
		echo "${d%/block/*}" | awk -F: '{ printf "%s ", $NF }'
		basename "$d"
	done
}

# be2_two_disks: the session shows both of the target's LUNs within 30 s,
# each with its block device node (devtmpfs makes it after sysfs shows
# the disk; a dd to a missing node would write a file instead)
has_two_disks() {
	[ "$(be2_disks | while read -r lun d; do
		[ ! -b "/dev/$d" ] || echo "$d"
	done | wc -l)" -ge 2 ]
}
be2_two_disks() {
	poll 30 has_two_disks ||
		fail "the session has $(be2_disks | wc -l) disks with nodes" \
			"$(ls -l /dev/sd* 2>&1 | tr '\n' ' '), wanted 2"
}

# be2_logged_in DIR: a fresh node logged in with both disks, and DIR a
# clean current directory holding "disks" (be2_disks) and a DISK.lun file
# per disk, for write_verify jobs and host_verify
be2_logged_in() {
	local lun d
	be2_node
	be2_login
	be2_two_disks
	mkdir -p "$1" && cd "$1" && rm -f ./* || fail "no scratch space in $1"
	be2_disks >disks
	while read -r lun d; do echo "$lun" >"$d.lun"; done <disks
}

# session_state, session_is STATE: the state of the card's session
session_state() { cat "$(be2_session)/state" 2>/dev/null; }
session_is() { [ "$(session_state)" = "$1" ]; }

# busy: some command is in flight on some disk
busy() { grep -qv '^ *0 *0$' /sys/block/sd*/inflight 2>/dev/null; }

# be2_wait_busy: the write_verify jobs of the current directory have
# commands in flight within 30 s; if not, the failure shows what the jobs
# reported and what state the disks and the session are in
be2_wait_busy() {
	local lun d why=""
	poll 30 busy && return 0
	while read -r lun d; do
		why="$why $d: state $(cat /sys/block/"$d"/device/state),"
		why="$why inflight$(tr -s ' ' </sys/block/"$d"/inflight),"
		why="$why stat$(tr -s ' ' </sys/block/"$d"/stat);"
	done <disks
	fail "no command was in flight within 30 s; session" \
		"$(session_state);$why jobs said: $(cat ./*.bad 2>/dev/null | tr '\n' ' ')"
}

# host_verify: the host finds in the target's backing files what every
# DISK-OFFSET file of the current directory holds (see write_verify and
# the DISK.lun files the case leaves)
host_verify() {
	local f d
	for f in sd*-[0-9]*; do
		case $f in *.back | *.bad | *.lun) continue ;; esac
		d=${f%%-*}
		host_check image-sha256 "lun-$(cat "$d.lun").img" "${f#*-}" \
			"$(stat -c %s "$f")" "$(sha_of "$f")"
	done
	host_sync
}

# no_bad: no write_verify job of the current directory reported trouble
no_bad() {
	local bad
	bad=$(cat ./*.bad 2>/dev/null || true)
	[ -z "$bad" ] || fail "$bad"
}
