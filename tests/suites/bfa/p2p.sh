# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/p2p: the cable is moved from the switch straight to one
# target (point to point): the driver finds no fabric, assigns the N_Port
# IDs itself, logs in to the peer, and its LUNs carry data; moved back to
# the switch, both fabric targets return.
. /harness/suite/lib.sh

PEER_WWPN=0x10000000c9000001

bfa_up
qom_set "$HBA" p2p true
poll 60 rport_state_is "$PEER_WWPN" Online ||
	fail "the point-to-point peer $PEER_WWPN not Online within 60 s"
r=$(rport_of "$PEER_WWPN")
echo "ok: peer $PEER_WWPN Online as $(basename "$r")"
# the addresses the driver picks: mainline bfa means 0x010000/0x020000 but
# stores them byte-swapped, so 0x000001/0x000002 is what goes on the wire
# (and what the model then answers to)
case $(cat "$(fc_host)/port_id") in
0x010000 | 0x000001) echo "ok: HBA port_id $(cat "$(fc_host)/port_id")" ;;
*) fail "HBA port_id: expected 0x010000 (or mainline's 0x000001), got $(cat "$(fc_host)/port_id")" ;;
esac
case $(cat "$r/port_id") in
0x020000 | 0x000002) echo "ok: peer port_id $(cat "$r/port_id")" ;;
*) fail "peer port_id: expected 0x020000 (or mainline's 0x000002), got $(cat "$r/port_id")" ;;
esac
expect_match "peer roles" "FCP Target" "$(cat "$r/roles")"
tid=$(cat "$r/scsi_target_id")
peer_disk() { disk_at "$tid" 0 >/dev/null; }
poll 60 peer_disk || fail "no disk behind the peer within 60 s"
round_trip "$(disk_at "$tid" 0)" 1 "point to point" lun-0-0.img

qom_set "$HBA" p2p false
poll 60 rport_state_is "$TGT0_WWPN" Online || fail "target 0 not back on the switch"
poll 60 rport_state_is "$TGT1_WWPN" Online || fail "target 1 not back on the switch"
echo "ok: back on the switch"
