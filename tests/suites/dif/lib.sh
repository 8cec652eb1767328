# SPDX-License-Identifier: GPL-2.0
#
# Shared by the dif/ cases: scsi_debug set-up, the expectations that follow
# from a dif/dix/guard configuration, and data helpers.

SDEBUG=/sys/bus/pseudo/drivers/scsi_debug
PATTERN=/tmp/pattern

# sdebug_load PARAM=VALUE...: load scsi_debug afresh and wait for its disk.
# Sets DEV (sdX), DISK (/dev/sdX), SG (/dev/sgN), HOST (SCSI host number)
# and SS (logical block size).
sdebug_load() {
	sdebug_unload
	klog_mark
	modprobe sd_mod || fail "modprobe sd_mod failed"
	modprobe sg || fail "modprobe sg failed"
	modprobe scsi_debug "$@" || fail "modprobe scsi_debug $*: refused"
	poll 30 sdebug_found || fail "scsi_debug $*: no disk appeared within 30 s"
	echo "scsi_debug $*: $DISK $SG host$HOST, ${SS}-byte blocks"
}

sdebug_found() {
	local d
	for d in "$SDEBUG"/adapter0/host*/target*/*:*:*:*/block/*; do
		[ -e "$d" ] || return 1
		DEV=${d##*/}
		DISK=/dev/$DEV
		d=${d%/block/*}
		set -- "$d"/scsi_generic/*
		[ -e "$1" ] || return 1
		SG=/dev/${1##*/}
		HOST=${d##*/}
		HOST=${HOST%%:*}
		[ -b "$DISK" ] && [ -c "$SG" ] || return 1
		SS=$(cat "/sys/block/$DEV/queue/logical_block_size")
		return 0
	done
	return 1
}

sdebug_unload() {
	[ -d /sys/module/scsi_debug ] || return 0
	rmmod scsi_debug || fail "rmmod scsi_debug failed"
	poll 30 sh -c '! [ -d /sys/module/scsi_debug ]' ||
		fail "scsi_debug still loaded 30 s after rmmod"
}

# config_name DIF DIX GUARD SECTOR_SIZE: the case-name suffix
config_name() {
	local g=crc
	[ "$3" = 1 ] && g=ip
	echo "dif$1-dix$2-$g-$4"
}

# What sd should register for DIF type $1, DIX $2, guard $3 (0 CRC, 1 IP),
# with scsi_debug's default ATO=1: sets PROFILE, TAG_SIZE, VERIFY, CAPABLE.
expected_integrity() {
	if [ "$2" = 0 ]; then
		PROFILE=none TAG_SIZE=0 VERIFY=0 CAPABLE=0
		return
	fi
	local type=1 csum=CRC
	[ "$1" = 3 ] && type=3
	[ "$3" = 1 ] && csum=IP
	PROFILE=T10-DIF-TYPE$type-$csum
	VERIFY=1
	if [ "$1" = 0 ]; then
		TAG_SIZE=0 CAPABLE=0
	elif [ "$1" = 3 ]; then
		TAG_SIZE=6 CAPABLE=1
	else
		TAG_SIZE=2 CAPABLE=1
	fi
}

# make_pattern MIB: random data to write, in $PATTERN
make_pattern() {
	dd if=/dev/urandom of="$PATTERN" bs=1M count="$1" status=none ||
		fail "could not make a $1 MiB pattern"
}

# put_direct FILE FILE_OFFSET LBA BYTES: one O_DIRECT write to the disk.
# (One block of exactly BYTES: dd turns O_DIRECT off for a short last block.)
put_direct() {
	dd if="$1" of="$DISK" bs="$4" count=1 iflag=skip_bytes,fullblock \
		oflag=direct,seek_bytes skip="$2" seek=$(($3 * SS)) status=none
}

# get_direct LBA BYTES OUT: one O_DIRECT read from the disk into OUT
get_direct() {
	dd if="$DISK" of="$3" bs="$2" count=1 iflag=direct,skip_bytes \
		skip=$(($1 * SS)) status=none
}

# same_bytes WHAT FILE_A OFFSET_A FILE_B OFFSET_B BYTES: compare by content
same_bytes() {
	local diff
	diff=$(cmp -n "$6" -i "$3:$5" "$2" "$4" 2>&1) ||
		fail "$1: read-back differs from what was written: $diff"
}

# be_hex VALUE BYTES: VALUE as BYTES big-endian hex bytes, space separated
be_hex() {
	local v=$1 n=$2 out=""
	while [ "$n" -gt 0 ]; do
		out="$(printf '%02x' $((v & 255))) $out"
		v=$((v >> 8))
		n=$((n - 1))
	done
	echo "${out% }"
}

# cdb32 SERVICE_ACTION LBA BLOCKS [PROTECT [ADDITIONAL_LENGTH]]: a READ(32)
# (SA 0x0009) or WRITE(32) (SA 0x000b) CDB as hex bytes; PROTECT is the
# RDPROTECT/WRPROTECT field, ADDITIONAL_LENGTH defaults to the right 0x18.
# The expected initial reference tag is the LBA's low 32 bits, as sd sets it.
cdb32() {
	echo "7f 00 00 00 00 00 00 $(be_hex "${5:-24}" 1) $(be_hex "$1" 2)" \
	     "$(be_hex $((${4:-0} << 5)) 1) 00 $(be_hex "$2" 8)" \
	     "$(be_hex $(($2 & 0xffffffff)) 4) 00 00 00 00 $(be_hex "$3" 4)"
}

# sg_cmd ARGS...: sg_raw on $SG, always as SCSI (sg_raw guesses NVMe for a
# 32-byte CDB whose additional length is not 0x18); output in SG_OUT,
# exit status in SG_RC
sg_cmd() {
	SG_OUT=$(sg_raw -C 1 -v "$@" 2>&1)
	SG_RC=$?
}

# sense_fields: "KEY ASC ASCQ FIELD" in hex from the raw fixed-format sense
# sg_raw printed in SG_OUT (FIELD: the sense-key specific field pointer)
sense_fields() {
	printf '%s\n' "$SG_OUT" |
		awk '/Raw sense data/ { on = 1; next }
		     on && !/^[ \t]*([0-9a-f][0-9a-f] *)+$/ { on = 0 }
		     on { for (i = 1; i <= NF; i++) b[n++] = $i }
		     END {
			if (n < 18) { print "none"; exit }
			printf "0x%s 0x%s 0x%s 0x%s%s\n", substr(b[2], 2, 1),
				b[12], b[13], b[16], b[17]
		     }'
}

# expect_klog WHAT TEXT: the kernel logged TEXT since the last klog_mark
expect_klog() {
	klog_since | grep -qF -- "$2" ||
		fail "$1: expected the kernel to log '$2'; it logged: $(klog_since | tail -n 8)"
	echo "ok: $1: kernel logged '$2'"
}

# trace_on / trace_off: record the SCSI commands dispatched to our host;
# trace_cdbs prints each dispatched CDB as one hex string, e.g. 2a20...
# The event stays enabled once it is: switching it patches kernel text, which
# is slow and fragile under emulation; tracing_on only gates the buffer.
TRACE=/sys/kernel/tracing
EVENT=$TRACE/events/scsi/scsi_dispatch_cmd_start
trace_on() {
	echo 0 >"$TRACE/tracing_on"
	echo >"$TRACE/trace"
	echo "host_no == $HOST" >"$EVENT/filter"
	if [ "$(cat "$EVENT/enable")" != 1 ]; then
		echo 0 >"$TRACE/options/record-cmd"
		echo 1 >"$EVENT/enable"
	fi
	echo 1 >"$TRACE/tracing_on"
}

trace_off() {
	echo 0 >"$TRACE/tracing_on"
}

trace_cdbs() {
	grep -o 'raw=[0-9a-f ]*' "$TRACE/trace" | sed 's/^raw=//; s/ //g'
}

# cdb_field CDB_HEX OFFSET BYTES: a field of a CDB as a number
cdb_field() {
	echo $((0x$(echo "$1" | cut -c$(($2 * 2 + 1))-$((($2 + $3) * 2)))))
}

# read_must_fail WHAT LBA BLOCKS GOOD_BLOCKS: an O_DIRECT read of BLOCKS from
# LBA, one block per read, fails with the block layer's protection error
# (EILSEQ) after returning exactly GOOD_BLOCKS blocks, equal to the pattern
# written there ($PATTERN from offset 0)
read_must_fail() {
	local out rc got
	rm -f /tmp/readback
	out=$(dd if="$DISK" of=/tmp/readback bs="$SS" skip="$2" count="$3" \
		iflag=direct 2>&1)
	rc=$?
	[ "$rc" -ne 0 ] || fail "$1: the read of LBA $2+$3 succeeded; expected it to fail"
	printf '%s\n' "$out" | grep -q 'Invalid or incomplete multibyte' ||
		fail "$1: expected EILSEQ (protection error) from the read, got: $out"
	got=$(stat -c %s /tmp/readback)
	[ "$got" -eq $(($4 * SS)) ] ||
		fail "$1: expected $4 good blocks before the error, got $got bytes"
	[ "$4" -eq 0 ] || same_bytes "$1: blocks before the error" \
		/tmp/readback 0 "$PATTERN" 0 $(($4 * SS))
	echo "ok: $1: the read failed with EILSEQ after $4 good blocks"
}
