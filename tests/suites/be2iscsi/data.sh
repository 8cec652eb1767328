# SPDX-License-Identifier: GPL-2.0
# be2iscsi/<driver>/data DIGEST: through a session logged in with
# HeaderDigest and DataDigest DIGEST (None or CRC32C), writes of 512 B to
# 4 MiB on both LUNs, more than 32 commands in flight, read back
# identical; the target's backing files on the host hold exactly what
# was written.  Writes carry immediate data and then wait for R2Ts (the
# driver offers InitialR2T=Yes, whatever the node says).  With CRC32C the
# target also takes 64 KiB PDUs; with None it keeps its 8 KiB.
. /harness/suite/lib.sh

digest=${1:?digest}
klog_mark
if [ "$digest" = CRC32C ]; then
	host_check target-param HeaderDigest CRC32C
	host_check target-param DataDigest CRC32C
	host_check target-param MaxRecvDataSegmentLength 65536
	host_sync
fi
be2_node
be2_node_set node.conn[0].iscsi.HeaderDigest "$digest"
be2_node_set node.conn[0].iscsi.DataDigest "$digest"
be2_login
neg=$(iscsiadm -m session -P 2)
expect_match "negotiated HeaderDigest" "HeaderDigest: $digest" "$neg"
expect_match "negotiated DataDigest" "DataDigest: $digest" "$neg"
be2_two_disks

mkdir -p /tmp/data && cd /tmp/data && rm -f ./* || fail "no scratch space"
sizes="512 4096 2560 65536 131072 12288 1048576 4194304"
jobs=0
be2_disks >disks
while read -r lun d; do
	qd=$(cat /sys/block/"$d"/device/queue_depth)
	[ "$qd" -ge 32 ] || fail "$d has queue depth $qd, wanted 32 or more"
	mib=$(($(blockdev --getsize64 /dev/"$d") >> 20))
	slot=0
	# one job per 4 MiB of the disk, sizes in turn; the big ones are
	# split into several commands, so well over 32 are in flight
	while [ $(((slot + 1) * 4)) -le "$mib" ]; do
		set -- $sizes
		shift $((slot % 8))
		size=$1
		off=$((slot * 4194304))
		[ "$size" -lt 4194304 ] && off=$((off + 512 * slot))
		write_verify "$d" "$off" "$size" &
		slot=$((slot + 1))
		jobs=$((jobs + 1))
	done
	echo "$lun" >"$d.lun"
done <disks
wait
no_bad
echo "ok: $jobs writes read back identical"

# the host sees the same bytes in the target's backing files
host_verify

be2_logout
if [ "$digest" = CRC32C ]; then
	host_check target-param HeaderDigest None
	host_check target-param DataDigest None
	host_check target-param MaxRecvDataSegmentLength 8192
	host_sync
fi
be2_log_clean
