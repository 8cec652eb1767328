# SPDX-License-Identifier: GPL-2.0
#
# dif/malformed32/<config>: malformed 32-byte CDBs to a type 2 disk are
# rejected with ILLEGAL REQUEST / INVALID FIELD IN CDB (0x24/0x00), the sense
# pointing at the bad field, and change nothing on the medium.  scsi_debug
# checks CDB fields against its masks with strict=1.
. /harness/lib.sh
. ./lib.sh
dif=$1 dix=$2 guard=$3 ss=$4

sdebug_load dif="$dif" dix="$dix" guard="$guard" sector_size="$ss" dev_size_mb=16 strict=1
make_pattern 1
put_direct "$PATTERN" 0 80 $((8 * SS)) || fail "O_DIRECT write at LBA 80 failed"
sg_cmd -r $((24 * SS)) -o /tmp/before "$SG" $(cdb32 9 72 24)
[ "$SG_RC" = 0 ] || fail "READ(32) of LBA 72+24 failed: $SG_OUT"

# rejected WHAT FIELD SG_RAW_ARGS...: the command fails with sense
# ILLEGAL REQUEST 0x24/0x00 whose field pointer is FIELD
rejected() {
	local what=$1 field=$2
	shift 2
	sg_cmd "$@"
	[ "$SG_RC" != 0 ] || fail "$what: accepted; expected ILLEGAL REQUEST"
	expect_eq "$what: sense key, ASC, ASCQ, field pointer" \
		"0x5 0x24 0x00 $(printf '0x%04x' "$field")" "$(sense_fields)"
}

# READ(32) claiming 8 bytes more, and one byte less, than a 32-byte CDB
rejected "READ(32), additional length 0x20" 7 -r $((8 * SS)) -o /tmp/r32 "$SG" $(cdb32 9 80 8 0 32)
rejected "READ(32), additional length 0x17" 7 -r $((8 * SS)) -o /tmp/r32 "$SG" $(cdb32 9 80 8 0 23)
rejected "READ(32)-like, service action 0x00ff" 8 -r $((8 * SS)) -o /tmp/r32 "$SG" $(cdb32 255 80 8)
# writes of new data over LBA 80 that must not happen
rejected "WRITE(32), additional length 0x20" 7 -s $((8 * SS)) -i "$PATTERN" -k 65536 "$SG" $(cdb32 11 80 8 0 32)
rejected "WRITE(32), additional length 0x17" 7 -s $((8 * SS)) -i "$PATTERN" -k 65536 "$SG" $(cdb32 11 80 8 0 23)
rejected "WRITE(32)-like, service action 0x00fe" 8 -s $((8 * SS)) -i "$PATTERN" -k 65536 "$SG" $(cdb32 254 80 8)

sg_cmd -r $((24 * SS)) -o /tmp/after "$SG" $(cdb32 9 72 24)
[ "$SG_RC" = 0 ] || fail "READ(32) of LBA 72+24 failed: $SG_OUT"
same_bytes "LBA 72+24 after the rejected commands" /tmp/after 0 /tmp/before 0 $((24 * SS))
get_direct 80 $((8 * SS)) /tmp/readback || fail "block device read of LBA 80 failed"
same_bytes "block device read of LBA 80" /tmp/readback 0 "$PATTERN" 0 $((8 * SS))
echo "ok: the medium is unchanged"
sdebug_unload
