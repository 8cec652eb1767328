# SPDX-License-Identifier: GPL-2.0
# be2iscsi/iscsi_tcp/data MAC PORTAL: the software initiator as the peer
# of the card: the same guest logs in to the same tgtd through iscsi_tcp
# over a virtio NIC (MAC), writes and reads back 4 MiB on both LUNs, and
# the host finds the data in the backing files.  The NIC's user-mode
# network is restricted: the one address it reaches, PORTAL, is
# forwarded to tgtd on the host's loopback (suite.py).
. /harness/suite/lib.sh

NIC_MAC=${1:?mac}
TCP_PORTAL=${2:?portal}

klog_mark
# iscsi_tcp asks the crypto API for crc32c at connection set-up
mods="virtio_pci virtio_net crc32c_generic iscsi_tcp sd_mod"
modprobe -a $mods || fail "modprobe $mods failed"
nic_dir() { sysfs_find '/sys/class/net/*' address "$NIC_MAC"; }
poll 30 nic_dir >/dev/null || fail "no network interface with $NIC_MAC within 30 s"
nic=$(basename "$(nic_dir)")
ip link set "$nic" up && ip addr add 10.0.2.15/24 dev "$nic" ||
	fail "could not give $nic the address 10.0.2.15/24"

mkdir -p /etc/iscsi/nodes /etc/iscsi/send_targets /etc/iscsi/ifaces \
	/run/lock/iscsi /var/lib/iscsi
be2_iscsid
# no session of the card's either: this case's disks are the only ones
! be2_session >/dev/null || iscsiadm -m session -u >/dev/null ||
	fail "an earlier session would not log out"
iscsiadm -m node -T "$TARGET" -p "$TCP_PORTAL" -o delete >/dev/null 2>&1
iscsiadm -m node -T "$TARGET" -p "$TCP_PORTAL" -I default -o new >/dev/null ||
	fail "iscsiadm could not add the node $TARGET at $TCP_PORTAL"
iscsiadm -m node -T "$TARGET" -p "$TCP_PORTAL" --login ||
	fail "login to $TARGET at $TCP_PORTAL through iscsi_tcp failed"
be2_two_disks

# the session is the software initiator's, not the card's
s=$(be2_session)
shost=$(basename "$(dirname "$(readlink -f "$s/device")")")
expect_eq "the session's SCSI host driver" iscsi_tcp \
	"$(cat /sys/class/scsi_host/"$shost"/proc_name)"

mkdir -p /tmp/tcp && cd /tmp/tcp && rm -f ./* || fail "no scratch space in /tmp/tcp"
be2_disks >disks
while read -r lun d; do
	echo "$lun" >"$d.lun"
	write_verify "$d" $((24 << 20)) 4194304 &
done <disks
wait
no_bad
echo "ok: 4 MiB written and read back on both LUNs through iscsi_tcp"
host_verify

iscsiadm -m node -T "$TARGET" -p "$TCP_PORTAL" --logout ||
	fail "logout from $TARGET at $TCP_PORTAL failed"
poll 30 no_session || fail "the session stayed after logout"
iscsiadm -m node -T "$TARGET" -p "$TCP_PORTAL" -o delete
ip link set "$nic" down
echo "ok: logged out"
