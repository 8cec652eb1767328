# SPDX-License-Identifier: GPL-2.0
#
# dif/stale-guard/<config>: a block rewritten behind the integrity layer's
# back, by a plain WRITE(16) that carries no protection information, keeps
# its old guard tag.  The next read through the block device must fail to
# the application, O_DIRECT and buffered, and never return the block; the
# kernel reports the guard check: scsi_debug's sense (ABORTED COMMAND,
# 0x10/0x01) for types 1 and 3, and for type 2, whose READ(32) scsi_debug
# does not verify, the block layer's own check.  Rewriting the block through
# the block device heals it.
. /harness/lib.sh
. ./lib.sh
dif=$1 dix=$2 guard=$3 ss=$4
bad=103

sdebug_load dif="$dif" dix="$dix" guard="$guard" sector_size="$ss" dev_size_mb=16
make_pattern 1
put_direct "$PATTERN" 0 100 $((8 * SS)) || fail "O_DIRECT write at LBA 100 failed"
get_direct 100 $((8 * SS)) /tmp/readback || fail "read of LBA 100+8 failed before the damage"
same_bytes "LBA 100+8 before the damage" /tmp/readback 0 "$PATTERN" 0 $((8 * SS))

dd if=/dev/urandom of=/tmp/junk bs="$SS" count=1 status=none
sg_cmd -s "$SS" -i /tmp/junk "$SG" 8a 00 $(be_hex $bad 8) 00 00 00 01 00 00
[ "$SG_RC" = 0 ] || fail "plain WRITE(16) of LBA $bad failed: $SG_OUT"
echo "LBA $bad rewritten without protection information"

klog_mark
read_must_fail "O_DIRECT read over the damaged block" 100 8 $((bad - 100))
if [ "$dif" = 2 ]; then
	# the block layer counts in 512-byte sectors
	expect_klog "block layer guard check" \
		"$DEV: guard tag error at sector $((bad * SS / 512)) "
else
	expect_klog "sense key" "Sense Key : Aborted Command"
	expect_klog "additional sense" "Add. Sense: Logical block guard check failed"
	expect_klog "failed request" "protection error, dev $DEV, sector $((bad * SS / 512)) "
fi

echo 3 >/proc/sys/vm/drop_caches
if dd if="$DISK" of=/tmp/readback bs="$SS" skip="$bad" count=1 status=none 2>/tmp/err; then
	fail "a buffered read of the damaged block succeeded"
fi
cmp -s /tmp/readback /tmp/junk && fail "the buffered read returned the damaged block"
echo "ok: the buffered read failed: $(cat /tmp/err)"

put_direct "$PATTERN" 0 100 $((8 * SS)) || fail "rewrite of LBA 100+8 failed"
get_direct 100 $((8 * SS)) /tmp/readback || fail "read after the rewrite failed"
same_bytes "LBA 100+8 after the rewrite" /tmp/readback 0 "$PATTERN" 0 $((8 * SS))
echo "ok: rewritten through the block device, the blocks read back"
sdebug_unload
