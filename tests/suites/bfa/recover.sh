# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/heartbeat (recover.sh heartbeat-stall): the firmware stops
# its heartbeat during reads; bfa/mainline/ioc-fail (recover.sh ioc-fail):
# it reports an internal error and stops.  Either way the driver notices,
# resets and re-initialises the IOC, the ports come back and the reads
# complete with the right data.
. /harness/suite/lib.sh

bfa_up
d=$(disk_of 0 1)
mkdir -p /tmp/hb && cd /tmp/hb || fail "no scratch space"
random_file data 4194304
dd if=data of=/dev/"$d" bs=4194304 oflag=direct 2>/dev/null || fail "write failed"

reader() {
	local i=0
	while [ $i -lt 20 ]; do
		dd if=/dev/"$d" of=back.$i bs=4194304 count=1 iflag=direct 2>/dev/null &&
			cmp -s data back.$i || echo "read $i" >>failed
		rm -f back.$i
		i=$((i + 1))
	done
}

klog_mark
reader &
pid=$!
qom_set "$HBA" "$1" true
hb_failed() { klog_since | grep -qE "$LOG_IOC_FAILED"; }
poll 30 hb_failed || fail "the driver did not notice $1 within 30 s"
echo "ok: driver saw the firmware fail ($1)"
poll 60 rport_state_is "$TGT0_WWPN" Online ||
	fail "target 0 not Online within 60 s of the IOC failure"
wait $pid
[ ! -s failed ] || fail "reads failed or differed: $(cat failed)"
echo "ok: 20 reads of 4 MiB through the recovery all identical"
klog_since | grep -E "IOC|Heart|port" || true
