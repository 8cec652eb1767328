# SPDX-License-Identifier: GPL-2.0
#
# planted/<name>: load planted.ko with a defect (none: after checking that
# this is the debug kernel).  The case itself passes; it is the harness
# that must fail it on what the kernel reports.
. /harness/lib.sh

case $1 in
none)
	expect_match "release" '-scsidebug$' "$(uname -r)"
	[ -w /sys/kernel/debug/kmemleak ] || fail "no /sys/kernel/debug/kmemleak: kmemleak is off"
	[ -e /proc/lockdep ] || fail "no /proc/lockdep: lockdep is off"
	dmesg | grep -q 'KernelAddressSanitizer initialized' ||
		fail "KASAN did not announce itself at boot"
	echo "ok: KASAN, lockdep and kmemleak are on"
	insmod ./planted.ko defect=none || fail "insmod planted.ko defect=none failed"
	rmmod planted || fail "rmmod planted failed"
	;;
uaf)
	insmod ./planted.ko defect=uaf || fail "insmod planted.ko defect=uaf failed"
	rmmod planted || fail "rmmod planted failed"
	;;
leak)
	insmod ./planted.ko defect=leak || fail "insmod planted.ko defect=leak failed"
	# kmemleak reports only objects older than 5 s: the leak is to be
	# old enough for the runner's scan at the end of this case
	sleep 6
	;;
*)
	fail "unknown defect $1"
	;;
esac
