# SPDX-License-Identifier: GPL-2.0
#
# demo-fc/brocade-825: Debian's bfa.ko on the emulated Brocade 825 and its
# fabric: the disks, the FC host, the remote ports.
. /harness/suite/bfa-lib.sh

show() {
	echo
	echo "# $*"
	"$@"
}

bfa_up
show lsscsi -H -t
show lsscsi
poll 60 fc_host_online "$HBA1_WWPN" || fail "port 1 not Online within 60 s"
for h in /sys/class/fc_host/host*; do
	echo
	echo "# $h"
	for a in port_name node_name port_id port_type port_state speed \
		fabric_name supported_speeds symbolic_name; do
		printf '%-18s %s\n' "$a" "$(cat "$h/$a")"
	done
done
for r in /sys/class/fc_remote_ports/rport-*; do
	echo
	echo "# $r"
	for a in port_name node_name port_id roles port_state dev_loss_tmo; do
		printf '%-18s %s\n' "$a" "$(cat "$r/$a")"
	done
done
echo
echo "# kernel log of the driver"
dmesg | grep -E 'bfa |scsi host|sd [0-9]' | sed 's/^\[[ 0-9.]*\] //'
