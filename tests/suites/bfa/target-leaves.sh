# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/target-leaves: remote port 1 leaves the fabric (RSCN) for
# longer than dev_loss_tmo: it goes Blocked, then its disk goes away while
# target 0 keeps working; it rejoins: it is Online and its disk is back.
. /harness/suite/lib.sh

bfa_up
r=$(rport_of "$TGT1_WWPN")
echo 5 >"$r/dev_loss_tmo" || fail "cannot set dev_loss_tmo"
gone() { ! disk_of 1 0 >/dev/null; }

qom_set "$HBA" targets-away 2
poll 60 rport_state_is "$TGT1_WWPN" Blocked ||
	fail "target 1 not Blocked within 60 s of leaving"
echo "ok: target 1 Blocked"
poll 60 gone || fail "target 1's disk still there 60 s after it left"
echo "ok: target 1's disk removed after dev_loss_tmo"
rport_state_is "$TGT0_WWPN" Online || fail "target 0 left Online state"
d0=$(disk_of 0 0)
dd if=/dev/"$d0" of=/dev/null bs=65536 count=16 iflag=direct 2>/dev/null ||
	fail "target 0 unreadable while target 1 is away"

qom_set "$HBA" targets-away 0
poll 90 rport_state_is "$TGT1_WWPN" Online ||
	fail "target 1 not Online within 90 s of rejoining"
poll 60 disk_of 1 0 >/dev/null || fail "target 1's disk not back within 60 s"
d1=$(disk_of 1 0)
dd if=/dev/"$d1" of=/dev/null bs=65536 count=16 iflag=direct 2>/dev/null ||
	fail "target 1 unreadable after rejoining"
echo "ok: target 1 back as $d1"
