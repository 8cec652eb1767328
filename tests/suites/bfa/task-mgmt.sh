# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/task-mgmt: a LUN reset and a target reset asked from user
# space (the error handler's escalation steps) go to the firmware as task
# management, succeed, and leave the data and the device usable.
. /harness/suite/lib.sh

bfa_up
d=$(disk_of 0 1)
sg=$(ls /sys/block/"$d"/device/scsi_generic/ 2>/dev/null | head -n 1)
[ -n "$sg" ] || fail "no sg device for $d"
mkdir -p /tmp/tm && cd /tmp/tm || fail "no scratch space"
random_file data 1048576
dd if=data of=/dev/"$d" bs=1048576 seek=3 oflag=direct 2>/dev/null || fail "write failed"

for kind in "-d LUN" "-t target"; do
	set -- $kind
	# reads keep running while the reset goes through
	dd if=/dev/"$d" of=busy bs=65536 count=256 iflag=direct 2>/dev/null &
	pid=$!
	sg_reset "$1" /dev/"$sg" || fail "$2 reset of $d failed"
	echo "ok: $2 reset of $d succeeded"
	wait $pid || fail "reads during the $2 reset failed"
	dd if=/dev/"$d" of=back bs=1048576 skip=3 count=1 iflag=direct 2>/dev/null ||
		fail "read after the $2 reset failed"
	cmp data back || fail "data differs after the $2 reset"
	echo "ok: data intact after the $2 reset"
done
