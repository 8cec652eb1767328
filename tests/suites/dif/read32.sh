# SPDX-License-Identifier: GPL-2.0
#
# dif/read32/<config>: READ(32) and WRITE(32) sent directly with sg_raw to a
# type 2 disk, with RDPROTECT/WRPROTECT 0, move the right data: READ(32)
# returns what the block device wrote, WRITE(32) lands where it says and
# nowhere else, and the block device reads it back.
. /harness/lib.sh
. ./lib.sh
dif=$1 dix=$2 guard=$3 ss=$4

sdebug_load dif="$dif" dix="$dix" guard="$guard" sector_size="$ss" dev_size_mb=16
make_pattern 1
put_direct "$PATTERN" 0 16 $((8 * SS)) || fail "O_DIRECT write at LBA 16 failed"

sg_cmd -r $((8 * SS)) -o /tmp/r32 "$SG" $(cdb32 9 16 8)
[ "$SG_RC" = 0 ] || fail "READ(32) of LBA 16+8 failed ($SG_RC): $SG_OUT"
same_bytes "READ(32) of what the block device wrote" /tmp/r32 0 "$PATTERN" 0 $((8 * SS))
echo "ok: READ(32) returned the 8 blocks written at LBA 16"

sg_cmd -s $((4 * SS)) -i "$PATTERN" -k 65536 "$SG" $(cdb32 11 40 4)
[ "$SG_RC" = 0 ] || fail "WRITE(32) of LBA 40+4 failed ($SG_RC): $SG_OUT"
sg_cmd -r $((4 * SS)) -o /tmp/r32 "$SG" $(cdb32 9 40 4)
[ "$SG_RC" = 0 ] || fail "READ(32) of LBA 40+4 failed ($SG_RC): $SG_OUT"
same_bytes "READ(32) after WRITE(32)" /tmp/r32 0 "$PATTERN" 65536 $((4 * SS))
get_direct 40 $((4 * SS)) /tmp/readback || fail "block device read of LBA 40 failed"
same_bytes "block device read after WRITE(32)" /tmp/readback 0 "$PATTERN" 65536 $((4 * SS))
echo "ok: WRITE(32) data at LBA 40 reads back through READ(32) and the block device"

# Nothing around the write changed: the blocks before and after are zero,
# and LBA 16 still holds its data.
get_direct 36 $((12 * SS)) /tmp/readback || fail "read of LBA 36+12 failed"
dd if=/dev/zero of=/tmp/zero bs="$SS" count=4 status=none
same_bytes "the 4 blocks before the WRITE(32)" /tmp/readback 0 /tmp/zero 0 $((4 * SS))
same_bytes "the 4 blocks after the WRITE(32)" /tmp/readback $((8 * SS)) /tmp/zero 0 $((4 * SS))
sg_cmd -r $((8 * SS)) -o /tmp/r32 "$SG" $(cdb32 9 16 8)
same_bytes "LBA 16 after the WRITE(32)" /tmp/r32 0 "$PATTERN" 0 $((8 * SS))
echo "ok: no other block changed"
sdebug_unload
