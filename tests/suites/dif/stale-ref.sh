# SPDX-License-Identifier: GPL-2.0
#
# dif/stale-ref/<config>: a block whose stored reference tag belongs to
# another LBA must not read back.  scsi_debug's virtual_gb maps LBA L and
# L + store size onto the same store, so the same data written at the alias
# leaves a good guard but a reference tag 32768 blocks off.  Type 1: sense
# ABORTED COMMAND 0x10/0x03 from scsi_debug; type 2 (READ(32) not verified by
# scsi_debug): the block layer's reference tag check.  The alias itself,
# whose tag is right, reads back.
. /harness/lib.sh
. ./lib.sh
dif=$1 dix=$2 guard=$3 ss=$4
lba=200

sdebug_load dif="$dif" dix="$dix" guard="$guard" sector_size="$ss" dev_size_mb=16 virtual_gb=1
store=$((16 * 1048576 / SS))
alias=$((lba + store))
make_pattern 1
put_direct "$PATTERN" 0 $lba $((8 * SS)) || fail "O_DIRECT write at LBA $lba failed"
put_direct "$PATTERN" 0 $alias $((8 * SS)) || fail "O_DIRECT write at LBA $alias failed"

klog_mark
read_must_fail "O_DIRECT read of LBA $lba" $lba 8 0
if [ "$dif" = 2 ]; then
	# the location in 512-byte sectors, the tag received as stored (an LBA)
	expect_klog "block layer reference tag check" \
		"$DEV: ref tag error at location $((lba * SS / 512)) (rcvd $alias)"
else
	expect_klog "sense key" "Sense Key : Aborted Command"
	expect_klog "additional sense" "Add. Sense: Logical block reference tag check failed"
	expect_klog "failed request" "protection error, dev $DEV, sector $((lba * SS / 512)) "
fi

get_direct $alias $((8 * SS)) /tmp/readback || fail "read of LBA $alias failed"
same_bytes "LBA $alias" /tmp/readback 0 "$PATTERN" 0 $((8 * SS))
echo "ok: LBA $alias, whose reference tags match, reads back"
sdebug_unload
