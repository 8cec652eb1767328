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
	qom_queue "$@"
	host_sync
}

# qom_queue PATH PROPERTY VALUE: the same without waiting for it; the
# host makes the queued changes in order, as fast as it can (host_sync
# waits for them all)
qom_queue() {
	echo "@@qmp {\"execute\": \"qom-set\", \"arguments\": {\"path\": \"$1\", \"property\": \"$2\", \"value\": $3}}"
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

# Checksummed load (the guest's /harness/ckio, see tests/guest/ckio.c).
# ck_start NAME DISK FIRST COUNT [JOBS]: JOBS (32) threads write and read
# blocks FIRST .. FIRST + COUNT - 1 (4 KiB each) of /dev/DISK in the
# background, in the current directory's NAME.* files, until ck_stop;
# returns once I/O moves (30 s at most)
ck_start() {
	rm -f "$1".*
	echo "$3 $4" >"$1.blocks"
	/harness/ckio run /dev/"$2" "$3" "$4" "${5:-32}" "$1.stop" "$1.state" \
		>"$1.run" 2>&1 &
	echo $! >"$1.pid"
	poll 30 ck_moved "$1" 0 ||
		fail "no checksummed I/O completed on $2 within 30 s: $(cat "$1.run")"
}

# ck_ops NAME: the I/Os completed so far (writes + reads, failed or not);
# ck_failed NAME: the failed ones; ck_moved NAME N: more than N completed
ck_ops() { awk '{ print $1 + $2 + $3 + $4 }' "$1.state.progress" 2>/dev/null || echo 0; }
ck_failed() { awk '{ print $2 + $4 }' "$1.state.progress" 2>/dev/null || echo 0; }
ck_moved() { [ "$(ck_ops "$1")" -gt "$2" ]; }

# ck_stop NAME: stop the load; fails if a read found anything but what
# was written (or written in doubt) there.  Leaves the summary in NAME.sum
ck_stop() {
	touch "$1.stop"
	wait "$(cat "$1.pid")" || fail "checksummed load on $1 found bad data: $(cat "$1.run")"
	grep '^ckio: run writes' "$1.run" >"$1.sum"
	echo "ok: $(cat "$1.sum")"
}

# ck_no_failures NAME WHAT: the stopped load NAME saw no I/O fail (WHAT
# says through what)
ck_no_failures() {
	[ "$(awk '{ print $6 + $10 }' "$1.sum")" = 0 ] ||
		fail "I/O failed to the application ($2): $(cat "$1.sum")"
}

# ck_settle NAME DISK IMAGE: with the device healthy, rewrite what is in
# doubt, read everything back exactly, and have the host find the same in
# the backing file IMAGE (a HOST_CHECKS ckio-image of the suite); prints
# "figure:" lines of what was verified
ck_settle() {
	local out run blocks digest bytes
	out=$(/harness/ckio settle /dev/"$2" "$1.state") ||
		fail "settling $1 on $2 failed: $out"
	run=$(echo "$out" | awk '/^ckio: settle [0-9a-f]+ rewrote/ { print $3 }')
	blocks=$(echo "$out" | awk '/blocks written, digest/ { print $(NF - 4) }')
	digest=$(echo "$out" | awk '/blocks written, digest/ { print $NF }')
	[ -n "$run" ] && [ -n "$digest" ] || fail "ckio settle said: $out"
	# shellcheck disable=SC2046
	host_check ckio-image "$3" $(cat "$1.blocks") "$run" "$blocks" "$digest"
	host_sync
	bytes=$(awk '{ print $12 }' "$1.sum")
	echo "ok: $blocks blocks of $1 on the medium as written (digest $digest)"
	echo "figure: $1 bytes verified by reads under load: $bytes"
	echo "figure: $1 bytes verified on the backing store: $((blocks * 4096))"
	echo "figure: $1 I/Os failed to the application: $(awk '{ print $6 + $10 }' "$1.sum")"
}

# A LUN that hangs until a reset reaches it (the models' io-hang).
# hang_setup DISK: short command and error-handling timeouts on /dev/DISK
# (4 s and 2 s, twice that on the debug kernel),
# 64 KiB of known data at 300 * 64 KiB, and the midlayer's error recovery
# logging (level 4), which names each escalation step; hang_end puts the
# logging back
hang_setup() {
	echo $((4 * $(time_scale))) >/sys/block/"$1"/device/timeout &&
		echo $((2 * $(time_scale))) >/sys/block/"$1"/device/eh_timeout ||
		fail "cannot set the timeouts of $1"
	random_file known 65536
	dd if=known of=/dev/"$1" bs=65536 seek=300 oflag=direct 2>/dev/null ||
		fail "write to $1 failed"
	hang_logging=$(cat /proc/sys/dev/scsi/logging_level)
	echo 4 >/proc/sys/dev/scsi/logging_level
}
hang_end() { echo "$hang_logging" >/proc/sys/dev/scsi/logging_level; }

# hang_round OBJECT DISK IMAGE LEVEL STEP MARKER...: OBJECT's io-hang set
# to LEVEL, which STEP of the error handler ends; a read of the known data
# caught in it returns it, the kernel log shows the first LEVEL MARKERs
# (one per step, in order of escalation) and none after, DISK is running
# and 1 MiB written to it afterwards reads back and is in IMAGE on the
# host.  hang_ms: how long the read took
hang_round() {
	local obj=$1 d=$2 img=$3 level=$4 step=$5 t0 log m i=1 state
	local off=$((24 << 20))
	shift 5
	klog_mark
	qom_set "$obj" io-hang "$level"
	t0=$(now_ms)
	timeout $((180 * $(time_scale))) dd if=/dev/"$d" of=back bs=65536 \
		skip=300 count=1 iflag=direct 2>/dev/null ||
		fail "a read to a LUN hung until $step failed"
	hang_ms=$(($(now_ms) - t0))
	cmp -s known back || fail "the read recovered by $step returned other data"
	log=$(klog_since)
	for m in "$@"; do
		if [ $i -le "$level" ]; then
			printf '%s\n' "$log" | grep -qF -- "$m" ||
				fail "hung until $step: the error handler never logged '$m'"
		elif printf '%s\n' "$log" | grep -qF -- "$m"; then
			fail "hung until $step: the error handler went on to '$m'"
		fi
		i=$((i + 1))
	done
	state=$(cat /sys/block/"$d"/device/state)
	[ "$state" = running ] || fail "$d is $state after $step"
	rm -f "$d-$off"*
	write_verify "$d" $off 1048576
	[ ! -e "$d-$off.bad" ] || fail "after $step: $(cat "$d-$off.bad")"
	host_check image-sha256 "$img" $off 1048576 "$(sha_of "$d-$off")"
	host_sync
	echo "ok: the error handler went as far as $step, which recovered $d ($hang_ms ms)"
	echo "figure: command hung until $step: read back right after $hang_ms ms"
}

# now_ms: milliseconds since boot (to 10 ms)
now_ms() { awk '{ sub(/\./, "", $1); print $1 * 10 }' /proc/uptime; }

# ck_resumed NAME LIMIT: I/O of load NAME completes again within LIMIT
# seconds of now; ck_ms says how many milliseconds it took, and
# ck_resumed_figure WHAT prints the mean and worst of all the waits
ck_resumed() {
	local t0 ops
	t0=$(now_ms)
	ops=$(ck_ops "$1")
	poll "$2" ck_moved "$1" "$ops" || return 1
	ck_ms=$(($(now_ms) - t0))
	ck_waits=$((${ck_waits:-0} + 1))
	ck_sum=$((${ck_sum:-0} + ck_ms))
	[ "$ck_ms" -le "${ck_worst:-0}" ] || ck_worst=$ck_ms
}
ck_resumed_figure() {
	echo "figure: I/O resumed $1: mean $((ck_sum / ck_waits)) ms," \
		"worst $ck_worst ms ($ck_waits times)"
}

# rmmod_refused MODULE WHEN: rmmod of MODULE is refused now (WHEN says
# when, for the messages) and leaves it loaded
rmmod_refused() {
	if rmmod "$1" 2>/dev/null; then
		fail "rmmod $1 succeeded $2"
	fi
	[ -d /sys/module/"$1" ] || fail "$1 gone after a refused rmmod $2"
	echo "ok: rmmod $1 refused $2"
}

# time_scale: how much longer than on Debian's kernel the harness lets
# things take on this one (2 on the debug kernel, whose time bounds it
# doubles), for a case's own bounds on how fast something must happen
time_scale() {
	case $(uname -r) in
	*-scsidebug) echo 2 ;;
	*) echo 1 ;;
	esac
}
