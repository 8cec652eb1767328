# SPDX-License-Identifier: GPL-2.0
# be2iscsi/<driver>/faults: the model's faults, set by QMP while writes
# run, each survived with every write on the medium:
#   reset-connections   the card resets the TCP connection: the driver
#                       reports a connection error, the session is back
#   target-unreachable  nothing moves for a while: the session fails
#                       (NOP-Out timeout), and recovers once the path is back
#   delay-ms 200        every PDU from the target is late: I/O is slow and
#                       right
#   drop-responses 1    a SCSI status is lost: the command times out, error
#                       handling aborts it and the retry completes
. /harness/suite/lib.sh

klog_mark
be2_logged_in /tmp/faults
# load BASE: per disk, four jobs each writing its own 4 MiB region at
# BASE MiB and reading it back, over and over until unload
keep_writing() {
	write_verify "$@"
	while [ ! -e stop ] && [ ! -e "$1-$2.bad" ]; do
		write_verify "$@"
	done
}
load() {
	local lun d slot
	rm -f stop
	while read -r lun d; do
		for slot in 0 1 2 3; do
			keep_writing "$d" $((($1 + slot * 4) << 20)) 4194304 &
		done
	done <disks
	be2_wait_busy
}
unload() {
	touch stop
	wait
	no_bad
}

# 1. connection reset
load 0
qom_set "$CARD" reset-connections true
conn_error() { klog_since | grep -q 'detected conn error'; }
poll 20 conn_error || fail "no connection error reported after the reset"
poll 40 session_is LOGGED_IN || fail "the session is $(session_state) 40 s after the reset"
unload
echo "ok: connection reset survived"

# 2. the target unreachable: the NOP-Outs go unanswered
load 16
qom_set "$CARD" target-unreachable true
poll 30 session_is FAILED || fail "the session stayed $(session_state) with the target unreachable"
echo "ok: session FAILED with the target unreachable"
qom_set "$CARD" target-unreachable false
poll 40 session_is LOGGED_IN || fail "the session is $(session_state) 40 s after the path came back"
unload
echo "ok: unreachable target survived"

# 3. late responses
qom_set "$CARD" delay-ms 200
d=$(awk 'NR == 1 { print $2 }' disks)
# hundredths of a second since boot
now_cs() { awk '{ sub(/\./, "", $1); print $1 + 0 }' /proc/uptime; }
t0=$(now_cs)
write_verify "$d" $((32 << 20)) 65536
ms=$((($(now_cs) - t0) * 10))
qom_set "$CARD" delay-ms 0
no_bad
[ "$ms" -ge 200 ] || fail "a write and a read took $ms ms with responses 200 ms late"
echo "ok: write and read back with 200 ms late responses ($ms ms)"

# 4. a lost SCSI status: the command times out and is retried
echo 5 >/sys/block/"$d"/device/timeout
before=$(($(cat /sys/block/"$d"/device/iotmo_cnt)))
qom_set "$CARD" drop-responses 1
write_verify "$d" $((33 << 20)) 4096
echo 30 >/sys/block/"$d"/device/timeout
no_bad
after=$(($(cat /sys/block/"$d"/device/iotmo_cnt)))
[ "$after" -gt "$before" ] ||
	fail "no command timed out with a response dropped (iotmo_cnt $before -> $after)"
session_is LOGGED_IN || fail "the session is $(session_state) after the timeout"
echo "ok: dropped response recovered by error handling"

host_verify
be2_logout
