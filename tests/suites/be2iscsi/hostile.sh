# SPDX-License-Identifier: GPL-2.0
# be2iscsi/<driver>/hostile: while writes run, the card puts a hostile
# entry ahead of each of its next 2000 completions (the model's
# fuzz-completions): CIDs of no connection, WRB indices past the ring,
# default ring entries past its end, codes the card never sends, MCC tags
# of no command and events it does not have.  The driver must drop them:
# the session stays logged in without a connection error, every write
# reads back and is on the medium, and no oops, WARN or KASAN report.
. /harness/suite/lib.sh

HOSTILE=2000

klog_mark
be2_logged_in /tmp/hostile
keep_writing() {
	write_verify "$@"
	while [ ! -e stop ] && [ ! -e "$1-$2.bad" ]; do
		write_verify "$@"
	done
}
# done_ios: requests the card's disks have completed, reads and writes
done_ios() {
	local lun d n=0
	while read -r lun d; do
		n=$((n + $(awk '{ print $1 + $5 }' /sys/block/"$d"/stat)))
	done <disks
	echo "$n"
}
while read -r lun d; do
	for slot in 0 1 2 3; do
		keep_writing "$d" $(((slot * 4) << 20)) 4194304 &
	done
done <disks
be2_wait_busy

start=$(done_ios)
qom_set "$CARD" fuzz-seed 825
qom_set "$CARD" fuzz-completions "$HOSTILE"
# each real completion carries one hostile entry ahead of it: after this
# many the card has written them all
spent() { [ $(($(done_ios) - start)) -gt $((HOSTILE + 64)) ]; }
poll 240 spent || fail "only $(($(done_ios) - start)) commands completed in 240 s" \
	"after the hostile entries began (session $(session_state))"
touch stop
wait
no_bad
session_is LOGGED_IN || fail "the session is $(session_state) after the hostile entries"
if klog_since | grep -q 'detected conn error'; then
	fail "a hostile entry ended the connection:" \
		"$(klog_since | grep 'detected conn error' | head -n 3)"
fi
if [ "$BE2_DRIVER" = ours ]; then
	klog_since | grep -Eq 'be2iscsi.*(dropped|unknown code)' ||
		fail "the driver logged no dropped entry"
fi
echo "ok: $HOSTILE hostile entries among $(($(done_ios) - start)) completions, every write intact"
host_verify
be2_logout
