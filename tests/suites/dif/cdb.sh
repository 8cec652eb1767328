# SPDX-License-Identifier: GPL-2.0
#
# dif/cdb/<config>: the CDBs sd sends for a read and a write, as the kernel's
# scsi_dispatch_cmd_start tracepoint records them.  Type 2 takes READ(32) /
# WRITE(32) (variable-length opcode 0x7f, additional length 0x18, service
# actions 0x0009 / 0x000b) with RDPROTECT/WRPROTECT 1 and the expected initial
# reference tag set to the LBA; the other types take READ(10) / WRITE(10),
# with protection 1 when the disk has DIF, and never a 32-byte CDB.
. /harness/lib.sh
. ./lib.sh
dif=$1 dix=$2 guard=$3 ss=$4
lba=64 n=8

sdebug_load dif="$dif" dix="$dix" guard="$guard" sector_size="$ss" dev_size_mb=16
make_pattern 1
trace_on
put_direct "$PATTERN" 0 $lba $((n * SS)) || fail "O_DIRECT write failed"
get_direct $lba $((n * SS)) /tmp/readback || fail "O_DIRECT read failed"
trace_off
same_bytes "read-back" /tmp/readback 0 "$PATTERN" 0 $((n * SS))
trace_cdbs >/tmp/cdbs
cat /tmp/cdbs

media=$(grep -cE '^(28|2a|88|8a|7f)' /tmp/cdbs)
var=$(grep -c '^7f' /tmp/cdbs)
protect=0
[ "$dif" != 0 ] && protect=1

# Where the fields are: CDB length in hex digits, then offset of the
# protect byte, offset and size of the LBA, offset and size of the length.
if [ "$dif" = 2 ]; then
	layout="64 10 12 8 28 4"
else
	layout="20 1 2 4 7 2"
fi

check_cdb() {	# name, leading hex digits (opcode, or up to the service action)
	local cdb
	cdb=$(grep -E "^$2" /tmp/cdbs)
	[ "$(echo "$cdb" | grep -c .)" = 1 ] ||
		fail "$1: expected one CDB starting $2, saw: $(cat /tmp/cdbs)"
	set -- "$1" $layout
	expect_eq "$1 length" "$2" "${#cdb}"
	expect_eq "$1 protect" $((protect << 5)) "$(cdb_field "$cdb" "$3" 1)"
	expect_eq "$1 LBA" $lba "$(cdb_field "$cdb" "$4" "$5")"
	expect_eq "$1 transfer length" $n "$(cdb_field "$cdb" "$6" "$7")"
	if [ "$dif" = 2 ]; then
		expect_eq "$1 expected initial reference tag" $lba "$(cdb_field "$cdb" 20 4)"
	fi
}

if [ "$dif" = 2 ]; then
	check_cdb WRITE_32 7f00000000000018000b
	check_cdb READ_32 7f000000000000180009
	expect_eq "media commands that are not 32-byte" 0 $((media - var))
else
	check_cdb WRITE_10 2a
	check_cdb READ_10 28
	expect_eq "32-byte CDBs" 0 "$var"
fi
sdebug_unload
