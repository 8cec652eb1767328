# SPDX-License-Identifier: GPL-2.0
#
# dif/refwrap/<config>: on a disk of more than 2^32 blocks (virtual_gb over a
# 16 MiB store) the 32-bit reference tag wraps at LBA 2^32.  Blocks written
# across the wrap read back, together and one by one; the trace shows the
# write really was addressed at 2^32 - 4 (and for type 2 carried the
# truncated expected initial reference tag).
. /harness/lib.sh
. ./lib.sh
dif=$1 dix=$2 guard=$3 ss=$4
wrap=4294967296
lba=$((wrap - 4))

# just over 2^32 blocks, in GiB
gib=$((wrap / (1073741824 / ss) + 1))
sdebug_load dif="$dif" dix="$dix" guard="$guard" sector_size="$ss" dev_size_mb=16 virtual_gb=$gib
blocks=$(($(blockdev --getsize64 "$DISK") / SS))
[ "$blocks" -gt $wrap ] || fail "expected more than 2^32 blocks, the disk has $blocks"
echo "$blocks blocks"

make_pattern 1
trace_on
put_direct "$PATTERN" 0 $lba $((8 * SS)) || fail "O_DIRECT write across the wrap failed"
trace_off
cdb=$(trace_cdbs | grep -E '^(8a|7f0{12}18000b)')
echo "write CDB: $cdb"
if [ "$dif" = 2 ]; then
	expect_eq "WRITE(32) LBA" $lba "$(cdb_field "$cdb" 12 8)"
	expect_eq "WRITE(32) expected initial reference tag" $((lba & 0xffffffff)) \
		"$(cdb_field "$cdb" 20 4)"
else
	expect_eq "WRITE(16) LBA" $lba "$(cdb_field "$cdb" 2 8)"
fi

get_direct $lba $((8 * SS)) /tmp/readback || fail "O_DIRECT read across the wrap failed"
same_bytes "8 blocks across the wrap" /tmp/readback 0 "$PATTERN" 0 $((8 * SS))
for i in 0 1 2 3 4 5 6 7; do
	get_direct $((lba + i)) "$SS" /tmp/one || fail "read of LBA $((lba + i)) failed"
	same_bytes "LBA $((lba + i))" /tmp/one 0 "$PATTERN" $((i * SS)) "$SS"
done
echo 3 >/proc/sys/vm/drop_caches
dd if="$DISK" of=/tmp/readback bs="$SS" skip=$lba count=8 status=none ||
	fail "buffered read across the wrap failed"
same_bytes "buffered read across the wrap" /tmp/readback 0 "$PATTERN" 0 $((8 * SS))
echo "ok: blocks 2^32-4 .. 2^32+3 read back, together, one by one and buffered"
sdebug_unload
