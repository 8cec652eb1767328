# SPDX-License-Identifier: GPL-2.0
# be2iscsi/<driver>/login: SendTargets discovery through the card's iface
# finds the target; login through the iface makes a session and a
# connection in sysfs, LOGGED_IN; the target's LUNs appear as sd devices
# with the sizes of the host's backing files; logout takes them away.
. /harness/suite/lib.sh

klog_mark
be2_up
iface_set bootproto static ipaddress "$IFACE_IP" subnet_mask "$IFACE_MASK"
be2_iscsid
i=$(iface_name)
out=$(iscsiadm -m discovery -t st -p "$PORTAL" -I "$i" -o nonpersistent 2>&1) ||
	fail "SendTargets discovery through $i failed: $out"
echo "$out"
expect_match "discovered targets" "$TARGET" "$out"

be2_node
be2_login
s=$(be2_session) || fail "no iscsi_session for $TARGET in sysfs"
expect_eq "session state" "LOGGED_IN" "$(cat "$s/state")"
c=$(ls -d /sys/class/iscsi_connection/connection"${s##*session}":* | head -1)
[ -d "$c" ] || fail "no iscsi_connection for $s"
expect_eq "connection address" "${PORTAL%:*}" "$(cat "$c/persistent_address")"
iscsiadm -m session -P 3

be2_two_disks
be2_disks
for want in "1 $((64 << 20))" "2 $((32 << 20))"; do
	lun=${want% *}
	dev=$(be2_disks | awk -v l="$lun" '$1 == l { print $2 }')
	[ -n "$dev" ] || fail "LUN $lun has no sd device"
	expect_eq "LUN $lun bytes" "${want#* }" "$(blockdev --getsize64 /dev/"$dev")"
done

be2_logout
be2_log_clean
