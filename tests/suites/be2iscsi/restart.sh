# SPDX-License-Identifier: GPL-2.0
# be2iscsi/<driver>/target-restart: tgtd goes away while writes are in
# flight on both LUNs and comes back; the session fails, is re-established
# within replacement_timeout (30 s, iscsid.conf) and every write
# completes.  Each job writes its region with new data, round after round,
# until the session is back and once more after that, so that commands
# are on the wire whenever the target goes, and a stale earlier write
# replayed after a later one would show: the host's backing files must
# hold exactly the last data.
. /harness/suite/lib.sh

klog_mark
be2_logged_in /tmp/restart
rounds() {
	while [ ! -e ./stop ] && [ ! -e "$1-$2.bad" ]; do
		write_verify "$@"
	done
	[ -e "$1-$2.bad" ] || write_verify "$@"
}
while read -r lun d; do
	for slot in 0 1 2 3 4 5; do
		rounds "$d" $((slot * 4194304)) 4194304 &
	done
done <disks

# the target stops once commands are on the wire
be2_wait_busy
host_check target-stop
host_sync
poll 30 session_is FAILED ||
	fail "the session stayed $(session_state) with the target gone"
echo "ok: session FAILED with tgtd stopped"
host_check target-start
host_sync
poll 40 session_is LOGGED_IN ||
	fail "the session is $(session_state) 40 s after tgtd came back"
echo "ok: session LOGGED_IN again"
touch ./stop
wait
no_bad
echo "ok: $(ls ./*.back | wc -l) writes read back identical"
host_verify

expect_match "the driver saw the connection fail" "detected conn error" "$(klog_since)"
be2_logout
