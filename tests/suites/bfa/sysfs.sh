# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/sysfs: what an administrator does through fc_host: read the
# statistics (the firmware answers, the reader does not hang), reset them,
# and issue a LIP, after which both targets are Online again.
. /harness/suite/lib.sh

bfa_up
h=$(fc_host)
s=$(timeout 20 cat "$h/statistics/seconds_since_last_reset") ||
	fail "reading the fc_host statistics did not return within 20 s"
expect_match "seconds_since_last_reset" '^0x[0-9a-f]+$' "$s"
timeout 20 sh -c "echo 1 >$h/statistics/reset_statistics" ||
	fail "reset_statistics did not return within 20 s"
s=$(timeout 20 cat "$h/statistics/seconds_since_last_reset") ||
	fail "statistics unreadable after the reset"
[ $((s)) -le 5 ] || fail "seconds_since_last_reset is $((s)) right after a reset"
echo "ok: statistics read and reset"
klog_mark
timeout 30 sh -c "echo 1 >$h/issue_lip" || fail "issue_lip did not return within 30 s"
poll 60 rport_state_is "$TGT0_WWPN" Online || fail "target 0 not Online after the LIP"
poll 60 rport_state_is "$TGT1_WWPN" Online || fail "target 1 not Online after the LIP"
poll 60 all_disks_up || fail "disks missing after the LIP"
expect_match "driver log of the LIP" "$LOG_LIP" "$(klog_since)"
echo "ok: both targets Online after issue_lip"
