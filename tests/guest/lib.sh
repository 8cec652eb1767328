# SPDX-License-Identifier: GPL-2.0
#
# Helpers for case scripts in the guest.  A case passes by exiting 0; fail and
# skip record the reason the runner reports.

# fail MESSAGE: the case fails, saying what was expected
fail() {
	echo "FAIL: $*"
	[ -n "$HARNESS_STATUS" ] && echo "$*" >>"$HARNESS_STATUS"
	exit 1
}

# skip MESSAGE: the case cannot run here, and says why
skip() {
	echo "SKIP: $*"
	[ -n "$HARNESS_STATUS" ] && echo "$*" >>"$HARNESS_STATUS"
	exit 77
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
	echo "ok: $1 = '$3'"
}

# expect_match WHAT REGEX TEXT (extended regular expression)
expect_match() {
	printf '%s\n' "$3" | grep -Eq -- "$2" ||
		fail "$1: expected a match for /$2/, got '$3'"
	echo "ok: $1 matches /$2/"
}

# poll SECONDS COMMAND...: run COMMAND every 0.1 s until it succeeds;
# false if it never did within SECONDS
poll() {
	local tries=$(($1 * 10))
	shift
	while [ "$tries" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		tries=$((tries - 1))
	done
	return 1
}

# klog_mark: note the start of a window of the kernel log; klog_since
# prints what the kernel logged after the last mark
klog_mark() {
	klog_seq=$((${klog_seq:-0} + 1))
	echo "<6>harness: mark $HARNESS_CASE $klog_seq;" >/dev/kmsg
}

klog_since() {
	dmesg | awk -v m="harness: mark $HARNESS_CASE $klog_seq;" 'on; index($0, m) { on = 1 }'
}
