# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/cmd-delay: one LUN answers late.  A delay within the command
# timeout only slows its I/O (the other LUN keeps its speed); a delay beyond
# it is aborted and retried by the error handler; both end with the right
# data.
. /harness/suite/lib.sh

bfa_up
d=$(disk_of 0 1)
other=$(disk_of 1 0)
echo 5 >/sys/block/"$d"/device/timeout || fail "cannot set the timeout"
mkdir -p /tmp/dl && cd /tmp/dl || fail "no scratch space"
random_file data 65536
dd if=data of=/dev/"$d" bs=65536 seek=200 oflag=direct 2>/dev/null || fail "write failed"

qom_set "$HBA" fault-lun $((0 << 16 | 1))
qom_set "$HBA" io-delay-ms 2000
t0=$(date +%s)
dd if=/dev/"$d" of=back bs=65536 skip=200 count=1 iflag=direct 2>/dev/null ||
	fail "a read delayed by 2 s failed"
t1=$(date +%s)
cmp data back || fail "the delayed read returned other data"
[ $((t1 - t0)) -ge 1 ] || fail "the read was not delayed ($((t1 - t0)) s)"
dd if=/dev/"$other" of=/dev/null bs=65536 count=16 iflag=direct 2>/dev/null ||
	fail "the other LUN failed while $d was slow"
echo "ok: a 2 s delay only slowed $d ($((t1 - t0)) s)"

klog_mark
qom_set "$HBA" io-delay-ms 8000
qom_set "$HBA" io-drop 0
dd if=/dev/"$d" of=back2 bs=65536 skip=200 count=1 iflag=direct 2>/dev/null &
pid=$!
aborted() { klog_since | grep -q "abort"; }
poll 30 aborted || fail "no abort of the 8 s command within 30 s"
qom_set "$HBA" io-delay-ms 0
wait $pid || fail "the read was not recovered after the abort"
cmp data back2 || fail "the recovered read returned other data"
echo "ok: a delay beyond the 5 s timeout was aborted and the retry succeeded"
qom_set "$HBA" fault-lun -1
echo 30 >/sys/block/"$d"/device/timeout
