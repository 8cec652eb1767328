# SPDX-License-Identifier: GPL-2.0
# bfa/<driver>/fault-*: the fault suite on FC.  A checksummed load (ckio:
# 32 jobs, half writes, half reads, 4-64 KiB) runs while the fault
# happens; afterwards every block is read back exactly and the host finds
# the same on the backing file.  Modes:
#   bounce N    N link bounces: each time the remote ports go Blocked and
#               come back Online and I/O resumes; no I/O fails (the
#               outages are well within dev_loss_tmo)
#   rscn N      target 1 leaves and rejoins the fabric N times in a burst
#               (2N RSCNs) while the load runs on target 0, which stays
#               Online with no I/O failed; target 1 comes back with its disk
#   dev-loss    target 1 gone longer than dev_loss_tmo under load: its I/O
#               fails to the application and its disk goes; it comes back
#               with a new disk that holds every write that completed;
#               target 0's load meanwhile sees no failure
#   heartbeat-stall, ioc-fail
#               the firmware fails under load: the driver recovers it and
#               I/O resumes within RECOVERY_S seconds (10; 20 on the
#               debug kernel, where the harness doubles every bound)
#   escalation  LUN 0:1 stops answering until a reset of a given scope
#               reaches it: an abort, a LUN reset, a target reset, the
#               host reset.  Each time the error handler climbs to that
#               step and no further, and the read caught in it returns
#               the right data; target 0's load goes on meanwhile
#   unload      rmmod under load and during a link outage is refused and
#               harms nothing; with no users, during an outage it unloads
#               or is refused harmlessly and unloads once the link is back
. /harness/suite/lib.sh

# the load's blocks on its disk: 16 MiB at 8 MiB
FIRST=2048
COUNT=4096
# the recovery bound: 10 s (twice that on the debug kernel)
RECOVERY_S=$((10 * $(time_scale)))

bfa_up
mkdir -p /tmp/fault && cd /tmp/fault && rm -f ./* || fail "no scratch space"
d0=$(disk_of 0 0)

# outage: the link goes down and up; both targets Online again and I/O of
# load $1 moving within 60 s; ck_ms: the milliseconds from Online to I/O
outage() {
	qom_set "$HBA" link-down true
	poll 30 rport_state_is "$TGT0_WWPN" Blocked ||
		fail "bounce $2: target 0 not Blocked within 30 s of the link going down"
	qom_set "$HBA" link-down false
	poll 60 rport_state_is "$TGT0_WWPN" Online ||
		fail "bounce $2: target 0 not Online within 60 s of the link coming back"
	poll 60 rport_state_is "$TGT1_WWPN" Online ||
		fail "bounce $2: target 1 not Online within 60 s of the link coming back"
	ck_resumed "$1" 60 || fail "bounce $2: no I/O completed within 60 s of target 0 Online"
}


case $1 in
bounce)
	ck_start t0 "$d0" $FIRST $COUNT 32
	i=1
	while [ $i -le "$2" ]; do
		outage t0 $i
		i=$((i + 1))
	done
	ck_stop t0
	ck_no_failures t0 "link bounces"
	ck_settle t0 "$d0" lun-0-0.img
	echo "figure: link bounces survived: $2"
	ck_resumed_figure "after the targets were Online"
	;;
rscn)
	ck_start t0 "$d0" $FIRST $COUNT 32
	# target 0 watched all through the storm
	watch() {
		while [ ! -e watch.stop ]; do
			rport_state_is "$TGT0_WWPN" Online || echo "$(now_ms)" >>t0-left
			sleep 0.1
		done
	}
	watch &
	watcher=$!
	t0=$(now_ms)
	i=1
	while [ $i -le "$2" ]; do
		qom_queue "$HBA" targets-away 2
		qom_queue "$HBA" targets-away 0
		i=$((i + 1))
	done
	host_sync
	echo "ok: $(($2 * 2)) join/leave events in $(($(now_ms) - t0)) ms"
	poll 90 rport_state_is "$TGT1_WWPN" Online ||
		fail "target 1 not Online within 90 s of the storm's end"
	touch watch.stop
	wait $watcher
	[ ! -e t0-left ] ||
		fail "target 0 left Online during the storm ($(wc -l <t0-left) looks)"
	echo "ok: target 0 Online all through the storm"
	poll 60 all_disks_up || fail "not every LUN has a disk 60 s after the storm"
	ck_resumed t0 30 || fail "no I/O completed on target 0 after the storm"
	ck_stop t0
	ck_no_failures t0 "RSCN storm"
	ck_settle t0 "$d0" lun-0-0.img
	round_trip "$(disk_of 1 0)" 4 "target 1 after the storm" lun-1-0.img
	echo "figure: fabric events survived: $(($2 * 2))"
	;;
dev-loss)
	d1=$(disk_of 1 0)
	r=$(rport_of "$TGT1_WWPN")
	echo 5 >"$r/dev_loss_tmo" || fail "cannot set dev_loss_tmo"
	ck_start t0 "$d0" $FIRST $COUNT 16
	ck_start t1 "$d1" $FIRST $COUNT 16
	t0=$(now_ms)
	qom_set "$HBA" targets-away 2
	poll 60 rport_state_is "$TGT1_WWPN" Blocked ||
		fail "target 1 not Blocked within 60 s of leaving"
	gone() { ! disk_of 1 0 >/dev/null; }
	failing() { [ "$(ck_failed t1)" -gt 0 ]; }
	poll 60 failing || fail "no I/O to target 1 failed within 60 s of its leaving"
	failed_ms=$(($(now_ms) - t0))
	poll 60 gone || fail "target 1's disk still there 60 s after it left"
	echo "ok: I/O to target 1 failed after $failed_ms ms, its disk is gone"
	ck_stop t1
	qom_set "$HBA" targets-away 0
	t0=$(now_ms)
	poll 90 rport_state_is "$TGT1_WWPN" Online ||
		fail "target 1 not Online within 90 s of rejoining"
	poll 60 disk_of 1 0 >/dev/null || fail "target 1's disk not back within 60 s"
	back_ms=$(($(now_ms) - t0))
	d1=$(disk_of 1 0)
	ck_stop t0
	ck_no_failures t0 "target 1 gone"
	ck_settle t0 "$d0" lun-0-0.img
	ck_settle t1 "$d1" lun-1-0.img
	echo "figure: target gone past dev_loss_tmo (5 s): I/O failed after $failed_ms ms, disk back $back_ms ms after rejoining"
	;;
heartbeat-stall | ioc-fail)
	ck_start t0 "$d0" $FIRST $COUNT 32
	klog_mark
	qom_set "$HBA" "$1" true
	hb_failed() { klog_since | grep -qE "$LOG_IOC_FAILED"; }
	poll 30 hb_failed || fail "the driver did not notice $1 within 30 s"
	t0=$(now_ms)
	poll $RECOVERY_S rport_state_is "$TGT0_WWPN" Online ||
		fail "target 0 not Online within $RECOVERY_S s of the driver noticing $1"
	ck_resumed t0 $RECOVERY_S ||
		fail "no I/O completed within $RECOVERY_S s of target 0 Online again"
	ms=$(($(now_ms) - t0))
	[ "$ms" -le $((RECOVERY_S * 1000)) ] ||
		fail "I/O resumed $ms ms after the driver noticed $1 (bound $RECOVERY_S s)"
	ck_stop t0
	ck_no_failures t0 "$1"
	ck_settle t0 "$d0" lun-0-0.img
	echo "figure: $1: I/O resumed $ms ms after the driver noticed"
	;;
escalation)
	d1=$(disk_of 0 1)
	hang_setup "$d1"
	ck_start t0 "$d0" $FIRST $COUNT 16
	qom_set "$HBA" fault-lun 1
	level=1
	for step in "an abort" "a LUN reset" "a target reset" "the host reset"; do
		hang_round "$HBA" "$d1" lun-0-1.img $level "$step" \
			"aborting command" "Sending BDR" "Sending target reset" \
			"Sending HRST"
		ck_resumed t0 60 || fail "target 0's load did not move after $step"
		level=$((level + 1))
	done
	qom_set "$HBA" fault-lun -1
	hang_end
	ck_stop t0
	ck_no_failures t0 "the escalation on LUN 0:1"
	ck_settle t0 "$d0" lun-0-0.img
	;;
unload)
	ck_start t0 "$d0" $FIRST $COUNT 32
	rmmod_refused bfa "with I/O running"
	ck_resumed t0 30 || fail "no I/O completed after the refused rmmod"
	qom_set "$HBA" link-down true
	poll 30 rport_state_is "$TGT0_WWPN" Blocked ||
		fail "target 0 not Blocked within 30 s of the link going down"
	rmmod_refused bfa "during the outage"
	qom_set "$HBA" link-down false
	poll 60 rport_state_is "$TGT0_WWPN" Online ||
		fail "target 0 not Online within 60 s of the link coming back"
	ck_resumed t0 60 || fail "no I/O completed after the outage"
	ck_stop t0
	ck_no_failures t0 "refused unloads"
	ck_settle t0 "$d0" lun-0-0.img
	# nobody holds a disk now: unloading in the middle of an outage works
	qom_set "$HBA" link-down true
	poll 30 rport_state_is "$TGT0_WWPN" Blocked ||
		fail "target 0 not Blocked within 30 s of the link going down"
	t0=$(now_ms)
	if timeout 120 rmmod bfa; then
		echo "ok: unloaded during an outage in $(($(now_ms) - t0)) ms"
	else
		# refused while recovery holds the module: it must stay whole,
		# and go once the outage is over
		[ -d /sys/module/bfa ] || fail "a refused rmmod left bfa half gone"
		echo "ok: rmmod refused during the outage (module references:" \
			"$(cat /sys/module/bfa/refcnt))"
		qom_set "$HBA" link-down false
		poll 60 rport_state_is "$TGT0_WWPN" Online ||
			fail "target 0 not Online within 60 s after the refused rmmod"
		poll 60 rmmod bfa 2>/dev/null ||
			fail "rmmod bfa still refused 60 s after the outage" \
				"($(cat /sys/module/bfa/refcnt) references)"
		echo "ok: unloaded after the outage"
	fi
	[ -z "$(ls /sys/class/fc_host)" ] || fail "fc_host left behind after rmmod"
	bfa_up
	round_trip "$(disk_of 0 0)" 4 "after the reload" lun-0-0.img
	;;
*)
	fail "unknown mode $1"
	;;
esac
