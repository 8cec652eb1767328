# SPDX-License-Identifier: GPL-2.0
#
# dif/inject-dif-err/<config>, dif/inject-dix-err/<config>: scsi_debug's own
# PI error injection (opts DIF_ERR or DIX_ERR, every_nth=1) fails every read:
# the block device read fails to the application with the kernel's report,
# and a direct READ(16) gets the exact sense, ABORTED COMMAND (DIF_ERR) or
# ILLEGAL REQUEST (DIX_ERR) with 0x10/0x01.  With injection off the data is
# intact.
. /harness/lib.sh
. ./lib.sh
kind=$1 dif=$2 dix=$3 guard=$4 ss=$5

case $kind in
dif) opts=32 key=0xb text="Aborted Command" ;;
dix) opts=64 key=0x5 text="Illegal Request" ;;
*) fail "unknown injection $kind" ;;
esac

sdebug_load dif="$dif" dix="$dix" guard="$guard" sector_size="$ss" dev_size_mb=16
make_pattern 1
put_direct "$PATTERN" 0 300 $((8 * SS)) || fail "O_DIRECT write at LBA 300 failed"

echo $opts >"$SDEBUG/opts" || fail "could not set opts=$opts"
echo 1 >"$SDEBUG/every_nth" || fail "could not set every_nth=1"
klog_mark
read_must_fail "O_DIRECT read with ${kind}_ERR injected" 300 8 0
expect_klog "sense key" "Sense Key : $text [current]"
expect_klog "additional sense" "Add. Sense: Logical block guard check failed"
expect_klog "failed request" "protection error, dev $DEV, sector $((300 * SS / 512)) "

sg_cmd -r $((8 * SS)) -o /tmp/r16 "$SG" 88 00 $(be_hex 300 8) 00 00 00 08 00 00
[ "$SG_RC" != 0 ] || fail "READ(16) succeeded with ${kind}_ERR injected"
expect_eq "READ(16) sense key, ASC, ASCQ" "$key 0x10 0x01" "$(sense_fields | cut -d' ' -f1-3)"

echo 0 >"$SDEBUG/every_nth"
echo 0 >"$SDEBUG/opts"
get_direct 300 $((8 * SS)) /tmp/readback || fail "read with injection off failed"
same_bytes "LBA 300+8 with injection off" /tmp/readback 0 "$PATTERN" 0 $((8 * SS))
echo "ok: with injection off the data reads back intact"
sdebug_unload
