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

# host_sync: wait (30 s at most) until the host has acted on every request
# this case made before (qom_set, host_check)
host_sync() {
	sync_seq=$((${sync_seq:-0} + 1))
	local token="$HARNESS_CASE.$sync_seq" try
	# asked again if an answer went missing; the host answers every ask
	for try in 1 2 3; do
		echo "@@sync $token"
		timeout 10 sh -c 'while read -r l; do
			[ "$l" = "synced $1" ] && exit 0; done; exit 1' \
			sync "$token" </dev/ttyS2 2>/dev/null && return 0
	done
	fail "the host did not answer sync $token in 30 s"
}

# qom_set PATH PROPERTY VALUE: change a property of the emulated machine
# (a fault knob of a device model, say) through the harness's QMP socket;
# returns once the change is made
qom_set() {
	echo "@@qmp {\"execute\": \"qom-set\", \"arguments\": {\"path\": \"$1\", \"property\": \"$2\", \"value\": $3}}"
	host_sync
}

# host_check NAME ARGS...: ask the host to check what only it can see (the
# suite's HOST_CHECKS); a failed check fails the case.  Runs after the
# guest's writes that precede it reached the emulator.
host_check() {
	echo "@@host $*"
}

# random_file FILE BYTES: data that differs everywhere
random_file() {
	dd if=/dev/urandom of="$1" bs="$2" count=1 iflag=fullblock 2>/dev/null ||
		fail "cannot make $2 bytes of test data"
}

sha_of() { sha256sum "$1" | cut -d' ' -f1; }

# write_verify DISK OFFSET BYTES: random data written at OFFSET of
# /dev/DISK with O_DIRECT and read back; in the current directory it
# leaves DISK-OFFSET (what was written) and, if anything went wrong,
# DISK-OFFSET.bad saying what.  Meant to run many at once in the background.
write_verify() {
	local d=$1 off=$2 size=$3 f=$1-$2
	random_file "$f" "$size"
	dd if="$f" of=/dev/"$d" bs="$size" seek="$off" oflag=direct,seek_bytes \
		conv=notrunc,fsync 2>/dev/null || { echo "write $f failed" >"$f.bad"; return; }
	dd if=/dev/"$d" of="$f.back" bs="$size" skip="$off" count=1 \
		iflag=direct,skip_bytes 2>/dev/null || { echo "read $f failed" >"$f.bad"; return; }
	cmp -s "$f" "$f.back" || echo "$f: read back differs" >"$f.bad"
}

# sysfs_find GLOB ATTR VALUE: the first directory of GLOB whose ATTR
# reads VALUE
sysfs_find() {
	local d
	for d in $1; do
		[ "$(cat "$d/$2" 2>/dev/null)" = "$3" ] && echo "$d" && return 0
	done
	return 1
}
