# SPDX-License-Identifier: GPL-2.0
# bfa/<driver>/hostile: while a checksummed load runs, the firmware puts a
# hostile element ahead of each of its next 2000 answers (the model's
# fuzz-responses): I/O answers, good or with status, sense length and
# residual, for tags no driver can have issued, and messages of classes
# the firmware does not have.  The driver must drop them: the remote
# ports stay Online, the IOC is not reset, no I/O fails, every block reads
# back as written and is on the medium, and no oops, WARN or KASAN report.
. /harness/suite/lib.sh

HOSTILE=2000

bfa_up
mkdir -p /tmp/hostile && cd /tmp/hostile && rm -f ./* || fail "no scratch space"
d0=$(disk_of 0 0)
# answers: the commands the disk has completed, reads and writes
answers() { awk '{ print $1 + $5 }' /sys/block/"$d0"/stat; }

klog_mark
ck_start t0 "$d0" 2048 4096 32
start=$(answers)
qom_set "$HBA" fuzz-seed 825
qom_set "$HBA" fuzz-responses "$HOSTILE"
# every answer carries one hostile element ahead of it while any are left
spent() { [ $(($(answers) - start)) -gt $((HOSTILE + 64)) ]; }
poll 240 spent || fail "only $(($(answers) - start)) commands completed in 240 s" \
	"after the hostile elements began"
ck_stop t0
ck_no_failures t0 "hostile answers"
rport_state_is "$TGT0_WWPN" Online || fail "target 0 left Online"
rport_state_is "$TGT1_WWPN" Online || fail "target 1 left Online"
if klog_since | grep -Eq "$LOG_IOC_FAILED|$LOG_PORT_OFFLINE"; then
	fail "a hostile element brought the IOC or the link down:" \
		"$(klog_since | grep -E "$LOG_IOC_FAILED|$LOG_PORT_OFFLINE" | head -n 3)"
fi
if [ "$BFA_DRIVER" = ours ]; then
	klog_since | grep -Eq 'bfa .*(not in flight|unexpected firmware message)' ||
		fail "the driver logged no dropped element"
fi
ck_settle t0 "$d0" lun-0-0.img
echo "figure: hostile elements survived: $HOSTILE among $(($(answers) - start)) answers"
