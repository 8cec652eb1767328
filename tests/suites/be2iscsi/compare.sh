# SPDX-License-Identifier: GPL-2.0
# be2iscsi/compare/session: the same node logged in through Debian's
# be2iscsi.ko and through ours shows the same to the administrator: what
# iscsiadm prints of the session, the session's and connection's sysfs
# attributes, the disks and their sizes; and data written through one
# driver reads back through the other.  Host numbers, session IDs and sd
# names are allowed to differ, and two things ours shows where mainline
# leaves them empty: the iface address in iscsiadm's session view (from
# the host's ipaddress attribute, which mainline does not fill) and the
# target reset timeout.  Nothing else is.
. /harness/suite/lib.sh

mkdir -p /tmp/compare && cd /tmp/compare && rm -rf ./* ||
	fail "no scratch space in /tmp/compare"

# show: what an administrator sees of the session, normalized
show() {
	local s c a
	iscsiadm -m session -P 3 |
		sed -E -e 's/SID: [0-9]+/SID: N/' \
			-e 's/Host Number: [0-9]+/Host Number: N/' \
			-e 's/scsi[0-9]+ Channel/scsiN Channel/' \
			-e 's/disk sd[a-z]+/disk sdX/' \
			-e 's/(Iface Netdev|Iface Name): .*/\1: X/' \
			-e '/Iface IPaddress:|Target Reset Timeout:/d'
	s=$(be2_session) || fail "no session"
	for a in targetname tpgt state initial_r2t immediate_data \
		first_burst_len max_burst_len max_outstanding_r2t \
		data_pdu_in_order data_seq_in_order erl recovery_tmo \
		abort_tmo lu_reset_tmo initiatorname \
		fast_abort; do
		echo "session $a: $(cat "$s/$a" 2>&1)"
	done
	c=$(ls -d /sys/class/iscsi_connection/connection"${s##*session}":* | head -1)
	for a in persistent_address persistent_port address port \
		header_digest data_digest max_recv_dlength max_xmit_dlength \
		ping_tmo recv_tmo; do
		echo "connection $a: $(cat "$c/$a" 2>&1)"
	done
	be2_disks | while read -r lun d; do
		echo "LUN $lun: $(blockdev --getsize64 /dev/"$d") bytes"
	done
}

for BE2_DRIVER in mainline ours; do
	[ ! -d /sys/module/be2iscsi ] || rmmod be2iscsi ||
		fail "rmmod be2iscsi failed"
	be2_node
	be2_login
	be2_two_disks
	show >"$BE2_DRIVER.seen"
	if [ "$BE2_DRIVER" = ours ]; then
		expect_match "iface address in the session view" \
			"Iface IPaddress: $IFACE_IP" "$(iscsiadm -m session -P 3)"
		expect_eq "tgt_reset_tmo" 30 "$(cat "$(be2_session)/tgt_reset_tmo")"
	fi
	d=$(be2_disks | awk '$1 == 1 { print $2 }')
	if [ "$BE2_DRIVER" = mainline ]; then
		random_file pattern 1048576
		dd if=pattern of=/dev/"$d" bs=1M seek=8 oflag=direct conv=fsync \
			2>/dev/null || fail "the write through mainline failed"
	else
		dd if=/dev/"$d" of=back bs=1M skip=8 count=1 iflag=direct \
			2>/dev/null || fail "the read through ours failed"
		cmp -s pattern back ||
			fail "ours reads back other data than mainline wrote"
		echo "ok: 1 MiB written through mainline reads back through ours"
	fi
	be2_logout
done
cat ours.seen
diff=$(diff mainline.seen ours.seen) ||
	fail "the drivers show different things: $diff"
echo "ok: both drivers show the same session, connection and disks"
[ ! -d /sys/module/be2iscsi ] || rmmod be2iscsi || fail "rmmod be2iscsi failed"
BE2_DRIVER=ours
be2_up
