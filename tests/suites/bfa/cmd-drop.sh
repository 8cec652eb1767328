# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/cmd-drop: a command the target never answers is aborted by
# the SCSI error handler through the firmware, retried, and completes.
. /harness/suite/lib.sh

bfa_up
d=$(disk_of 0 1)
echo 5 >/sys/block/"$d"/device/timeout || fail "cannot set the timeout"
mkdir -p /tmp/cd && cd /tmp/cd || fail "no scratch space"
random_file data 65536
dd if=data of=/dev/"$d" bs=65536 seek=100 oflag=direct 2>/dev/null || fail "write failed"

klog_mark
qom_set "$HBA" io-drop 1
dd if=/dev/"$d" of=back bs=65536 skip=100 count=1 iflag=direct 2>/dev/null ||
	fail "the read failed instead of being recovered"
cmp data back || fail "the recovered read returned other data"
log=$(klog_since)
echo "$log"
expect_match "driver log" "abort" "$log"
echo "ok: read recovered by abort and retry"
echo 30 >/sys/block/"$d"/device/timeout
