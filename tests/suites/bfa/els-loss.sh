# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/els-loss: the first exchanges after a LIP (fabric and name
# server logins, queries) are lost on the wire; the driver times them out,
# retries, and both targets come back Online with their disks.
. /harness/suite/lib.sh

bfa_up
h=$(fc_host)
qom_set "$HBA" els-drop 3
timeout 30 sh -c "echo 1 >$h/issue_lip" || fail "issue_lip did not return within 30 s"
poll 120 rport_state_is "$TGT0_WWPN" Online ||
	fail "target 0 not Online within 120 s with 3 exchanges lost"
poll 120 rport_state_is "$TGT1_WWPN" Online ||
	fail "target 1 not Online within 120 s with 3 exchanges lost"
poll 60 all_disks_up || fail "disks missing after the lost exchanges"
echo "ok: recovered from 3 lost exchanges"
