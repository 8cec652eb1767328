# SPDX-License-Identifier: GPL-2.0
# be2iscsi/<driver>/fault-*: the fault suite on iSCSI.  A checksummed load
# (ckio: 32 jobs, half writes, half reads, 4-64 KiB) runs on LUN 1 while
# the fault happens; afterwards every block is read back exactly and the
# host finds the same in tgtd's backing file.  Modes:
#   resets N     the card resets the connection N times: each time the
#                driver reports it, the session is LOGGED_IN again and I/O
#                resumes; no I/O fails (replacement_timeout is 30 s)
#   replacement  the target unreachable longer than replacement_timeout
#                (5 s): the session FAILED, I/O fails to the application
#                and nothing hangs; the path back, the session logs in
#                again on the same disks, which hold every completed write
#   escalation   LUN 2's statuses are held back until an abort, then a
#                LUN reset, then the session's recovery reaches it (tgtd
#                refuses target resets, so libiscsi's target reset step
#                always goes on to the session): each time the error
#                handler climbs to that step and no further, and the read
#                caught in it returns the right data; LUN 1's load goes on
#                meanwhile
#   unload       rmmod under load and with the session in recovery is
#                refused and harms nothing; after logout it unloads
. /harness/suite/lib.sh

FIRST=2048
COUNT=4096

conn_errors() { klog_since | grep -c 'detected conn error'; }


# the load's disk: LUN 1 of the session, backed by lun-1.img
lun1() { awk '$1 == 1 { print $2 }' disks; }

case $1 in
resets)
	klog_mark
	be2_logged_in /tmp/fault
	d=$(lun1)
	ck_start lun1 "$d" $FIRST $COUNT 32
	i=1
	while [ $i -le "$2" ]; do
		qom_set "$CARD" reset-connections true
		more_errors() { [ "$(conn_errors)" -ge "$i" ]; }
		poll 20 more_errors ||
			fail "reset $i: no connection error reported within 20 s" \
				"(session $(session_state), I/Os done $(ck_ops lun1), then $(sleep 1; ck_ops lun1) a second later)"
		poll 40 session_is LOGGED_IN ||
			fail "reset $i: the session is $(session_state) 40 s after the reset"
		ck_resumed lun1 40 || fail "reset $i: no I/O completed within 40 s of the login"
		i=$((i + 1))
	done
	ck_stop lun1
	ck_no_failures lun1 "connection resets"
	ck_settle lun1 "$d" lun-1.img
	echo "figure: connection resets survived: $2"
	ck_resumed_figure "after the session was back"
	be2_logout
	;;
escalation)
	be2_logged_in /tmp/fault
	d=$(lun1)
	d2=$(awk '$1 == 2 { print $2 }' disks)
	hang_setup "$d2"
	ck_start lun1 "$d" $FIRST $COUNT 16
	qom_set "$CARD" hang-lun 2
	# io-hang level:step; libiscsi's session reset is connection error 1021
	for round in "1:an abort" "2:a LUN reset" \
		"4:a target reset and the session's recovery"; do
		hang_round "$CARD" "$d2" lun-2.img "${round%%:*}" "${round#*:}" \
			"aborting command" "Sending BDR" "Sending target reset" \
			"detected conn error (1021)"
		poll 40 session_is LOGGED_IN ||
			fail "the session is $(session_state) 40 s after ${round#*:}"
		ck_resumed lun1 60 || fail "LUN 1's load did not move after ${round#*:}"
	done
	hang_end
	ck_stop lun1
	ck_no_failures lun1 "the escalation on LUN 2"
	ck_settle lun1 "$d" lun-1.img
	be2_logout
	;;
replacement)
	be2_node
	be2_node_set node.session.timeo.replacement_timeout 5
	be2_login
	be2_two_disks
	mkdir -p /tmp/fault && cd /tmp/fault && rm -f ./* || fail "no scratch space"
	be2_disks >disks
	d=$(lun1)
	ck_start lun1 "$d" $FIRST $COUNT 32
	t0=$(now_ms)
	qom_set "$CARD" target-unreachable true
	poll 30 session_is FAILED ||
		fail "the session stayed $(session_state) with the target unreachable"
	failing() { [ "$(ck_failed lun1)" -gt 0 ]; }
	poll 60 failing || fail "no I/O failed within 60 s of the target becoming unreachable"
	failed_ms=$(($(now_ms) - t0))
	echo "ok: I/O failed to the application $failed_ms ms after the path went"
	qom_set "$CARD" target-unreachable false
	t0=$(now_ms)
	poll 60 session_is LOGGED_IN ||
		fail "the session is $(session_state) 60 s after the path came back"
	back_ms=$(($(now_ms) - t0))
	[ "$(lun1)" = "$d" ] || fail "LUN 1 is $(lun1) after the recovery, was $d"
	ck_resumed lun1 30 || fail "no I/O completed within 30 s of the session's return"
	ck_stop lun1
	ck_settle lun1 "$d" lun-1.img
	echo "figure: target gone past replacement_timeout (5 s): I/O failed after $failed_ms ms, session back $back_ms ms after the path"
	be2_logout
	;;
unload)
	be2_logged_in /tmp/fault
	d=$(lun1)
	ck_start lun1 "$d" $FIRST $COUNT 32
	rmmod_refused be2iscsi "with I/O running"
	ck_resumed lun1 30 || fail "no I/O completed after the refused rmmod"
	qom_set "$CARD" target-unreachable true
	poll 30 session_is FAILED ||
		fail "the session stayed $(session_state) with the target unreachable"
	rmmod_refused be2iscsi "with the session in recovery"
	qom_set "$CARD" target-unreachable false
	poll 60 session_is LOGGED_IN ||
		fail "the session is $(session_state) 60 s after the path came back"
	ck_resumed lun1 30 || fail "no I/O completed after the recovery"
	ck_stop lun1
	ck_no_failures lun1 "refused unloads"
	ck_settle lun1 "$d" lun-1.img
	be2_logout
	t0=$(now_ms)
	timeout 120 rmmod be2iscsi || fail "rmmod be2iscsi after logout failed or hung"
	echo "ok: unloaded after logout in $(($(now_ms) - t0)) ms"
	be2_logged_in /tmp/fault-again
	write_verify "$(lun1)" $((40 << 20)) 1048576
	no_bad
	host_verify
	be2_logout
	;;
*)
	fail "unknown mode $1"
	;;
esac
