# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/link-bounce: the cable is pulled while writes run: the
# remote ports go Blocked, come back Online when it is plugged in (well
# within dev_loss_tmo), the writes complete and every byte is on the disk.
. /harness/suite/lib.sh

bfa_up
d=$(disk_of 0 0)
mkdir -p /tmp/lb && cd /tmp/lb || fail "no scratch space"
random_file data 8388608

# a writer that keeps going through the outage: 8 MiB in 512 KiB pieces
writer() {
	local i=0
	while [ $i -lt 16 ]; do
		dd if=data of=/dev/"$d" bs=524288 skip=$i seek=$((i + 64)) count=1 \
			oflag=direct conv=notrunc 2>/dev/null || echo "piece $i" >>failed
		i=$((i + 1))
	done
}
writer &
pid=$!

klog_mark
qom_set "$HBA" link-down true
poll 30 rport_state_is "$TGT0_WWPN" Blocked ||
	fail "target 0 not Blocked within 30 s of the link going down"
echo "ok: target 0 Blocked"
expect_match "driver log" "$LOG_PORT_OFFLINE" "$(klog_since)"
qom_set "$HBA" link-down false
poll 30 rport_state_is "$TGT0_WWPN" Online ||
	fail "target 0 not Online within 30 s of the link coming back"
poll 30 rport_state_is "$TGT1_WWPN" Online || fail "target 1 not back Online"
echo "ok: both targets Online again"
wait $pid
[ ! -s failed ] || fail "writes failed through the bounce: $(cat failed)"
dd if=/dev/"$d" of=back bs=524288 skip=64 count=16 iflag=direct 2>/dev/null ||
	fail "read back failed"
cmp data back || fail "data written through the bounce reads back different"
echo "ok: 8 MiB written through the bounce read back identical"
host_check image-sha256 lun-0-0.img $((64 * 524288)) 8388608 "$(sha_of data)"
