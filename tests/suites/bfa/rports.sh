# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/rports: both remote ports of the emulated fabric are Online
# as FCP targets with the model's names and port IDs, and every LUN is a
# disk with the capacity of its backing file.
. /harness/suite/lib.sh

bfa_up
for x in "$TGT0_WWPN 0x011000" "$TGT1_WWPN 0x011100"; do
	set -- $x
	r=$(rport_of "$1") || fail "no remote port named $1"
	expect_eq "$1 port_state" Online "$(cat "$r/port_state")"
	expect_eq "$1 port_id" "$2" "$(cat "$r/port_id")"
	expect_match "$1 roles" "FCP Target" "$(cat "$r/roles")"
done
# the FCP targets among the remote ports (a driver may also list the
# fabric's well-known ports it logged in to, the name server)
n=$(cat /sys/class/fc_remote_ports/rport-"$(host_no)":*/roles | grep -c "FCP Target")
expect_eq "remote ports that are FCP targets" 2 "$n"
for x in $LUNS; do
	t=${x%%:*}; rest=${x#*:}; l=${rest%%:*}; mib=${rest#*:}
	d=$(disk_of "$t" "$l") || fail "no disk for target $t LUN $l"
	expect_eq "$d (target $t LUN $l) sectors" $((mib * 2048)) "$(cat /sys/block/"$d"/size)"
done
lsscsi
