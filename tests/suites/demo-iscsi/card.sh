# SPDX-License-Identifier: GPL-2.0
#
# demo-iscsi/be2-mainline: Debian's be2iscsi.ko on the emulated BladeEngine
# 2 and the host's tgtd: the card, its iSCSI interface, the session and
# its disks.
. /harness/suite/be2-lib.sh
BE2_DRIVER=mainline

show() {
	echo
	echo "# $*"
	"$@"
}

be2_node
h=$(be2_host)
echo
echo "# $h"
for a in hwaddress initiatorname port_state port_speed; do
	printf '%-16s %s\n' "$a" "$(cat "$h/$a")"
done
echo
echo "# its IPv4 interface, as iscsiadm's iface $(iface_name) set it"
for a in bootproto ipaddress subnet gateway; do
	printf '%-16s %s\n' "$a" "$(iface_attr "$a")"
done
echo
be2_login
be2_two_disks
show iscsiadm -m session -P 3
show lsscsi -t
for d in $(be2_disks | awk '{ print $2 }' | sort); do
	printf '%-6s %s bytes\n' "$d" "$(blockdev --getsize64 /dev/"$d")"
done
echo
be2_logout
echo
echo "# kernel log of the driver"
dmesg | grep -E 'be2iscsi|beiscsi|scsi host|sd [0-9]' | sed 's/^\[[ 0-9.]*\] //'
