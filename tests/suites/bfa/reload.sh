# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/reload: 10 times rmmod and modprobe: each time the IOC comes
# up, the ports and every disk return, nothing is reported.
. /harness/suite/lib.sh

bfa_up
i=1
while [ $i -le 10 ]; do
	klog_mark
	rmmod bfa || fail "rmmod bfa failed (round $i)"
	[ -z "$(ls /sys/class/fc_host)" ] || fail "fc_host left behind after rmmod (round $i)"
	bfa_up
	bfa_log_clean
	i=$((i + 1))
done
echo "ok: 10 reloads"
