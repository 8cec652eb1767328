# SPDX-License-Identifier: GPL-2.0
# be2iscsi/<driver>/reload-10: ten times login, both disks, logout,
# rmmod, load again: every round the card comes back with its host, the
# session and its disks go with logout, nothing of the driver is left
# after rmmod, and the log stays clean.  Ends with the driver loaded.
. /harness/suite/lib.sh

klog_mark
be2_node
for round in 1 2 3 4 5 6 7 8 9 10; do
	be2_login
	be2_two_disks
	be2_logout
	rmmod be2iscsi || fail "round $round: rmmod be2iscsi failed"
	[ ! -d /sys/module/be2iscsi ] ||
		fail "round $round: be2iscsi still loaded after rmmod"
	! be2_host >/dev/null ||
		fail "round $round: the card's iscsi_host stayed after rmmod"
	be2_up
	echo "ok: round $round"
done
be2_log_clean
