# SPDX-License-Identifier: GPL-2.0
#
# dif/data/<config>: data written through the block device reads back
# identical, and nothing else on the disk changes.  O_DIRECT writes from one
# block to 5 MiB at odd LBAs, buffered writes at byte offsets that split
# blocks and pages, and four concurrent writers (two O_DIRECT, two buffered)
# are replayed onto an image of the expected disk; the whole disk is then
# read back, O_DIRECT and through the page cache, and compared with it.
. /harness/lib.sh
. ./lib.sh
dif=$1 dix=$2 guard=$3 ss=$4
MiB=1048576
size=$((16 * MiB))

sdebug_load dif="$dif" dix="$dix" guard="$guard" sector_size="$ss" dev_size_mb=16
blocks=$((size / SS))
make_pattern 8
dd if=/dev/zero of=/tmp/expect bs=1M count=16 status=none

# A fresh scsi_debug disk reads as zeros.
get_direct 0 "$size" /tmp/actual || fail "O_DIRECT read of the fresh disk failed"
same_bytes "fresh disk" /tmp/actual 0 /tmp/expect 0 "$size"

# direct PATTERN_OFFSET LBA BYTES / buffered PATTERN_OFFSET BYTE_OFFSET BYTES
direct() {
	put_direct "$PATTERN" "$1" "$2" "$3" ||
		fail "O_DIRECT write of $3 bytes at LBA $2 failed"
	expect_at "$1" $(($2 * SS)) "$3"
}
buffered() {
	dd if="$PATTERN" of="$DISK" bs=64k iflag=skip_bytes,count_bytes,fullblock \
		oflag=seek_bytes conv=fsync skip="$1" seek="$2" count="$3" status=none ||
		fail "buffered write of $3 bytes at byte $2 failed"
	expect_at "$1" "$2" "$3"
}
expect_at() {
	dd if="$PATTERN" of=/tmp/expect bs=64k iflag=skip_bytes,count_bytes \
		oflag=seek_bytes conv=notrunc skip="$1" seek="$2" count="$3" status=none
}

direct 0 0 "$SS"                                   # first block
direct 4096 $((blocks - 1)) "$SS"                  # last block
direct 8192 7 $((3 * SS))                          # odd start
direct 12288 129 $((65536 + SS))                   # across 64 KiB
direct $((1 * MiB)) $((blocks / 4 + 3)) "$MiB"     # 1 MiB at an odd LBA
direct $((3 * MiB)) $((blocks / 2 + 5)) $((5 * MiB))   # several MiB
buffered 333 1000 1                                # one byte inside a block
buffered 777 $((6 * MiB + 333)) 5000               # across blocks and pages
buffered $((2 * MiB + 5)) $((14 * MiB + 77)) $((MiB + 3))

# Four writers at once, each in its own 512 KiB of [2 MiB, 4 MiB).
pids=""
for w in 0 1 2 3; do
	src=$((w * 512 * 1024 + 12345 * (w + 1)))
	dst=$((2 * MiB + w * 512 * 1024))
	if [ $w -lt 2 ]; then
		flags="oflag=direct,seek_bytes"
	else
		flags="oflag=seek_bytes conv=fsync"
	fi
	dd if="$PATTERN" of="$DISK" bs=4k iflag=skip_bytes,count_bytes,fullblock \
		$flags skip=$src seek=$dst count=524288 status=none &
	pids="$pids $!"
	expect_at $src $dst 524288
done
for p in $pids; do
	wait "$p" || fail "a concurrent writer failed"
done

sync
blockdev --flushbufs "$DISK" || fail "blockdev --flushbufs failed"
echo 3 >/proc/sys/vm/drop_caches
get_direct 0 "$size" /tmp/actual || fail "O_DIRECT read-back failed"
same_bytes "O_DIRECT read-back of the whole disk" /tmp/actual 0 /tmp/expect 0 "$size"
echo "ok: O_DIRECT read-back of all $size bytes equals what was written"
echo 3 >/proc/sys/vm/drop_caches
dd if="$DISK" of=/tmp/actual bs=1M status=none || fail "buffered read-back failed"
same_bytes "buffered read-back of the whole disk" /tmp/actual 0 /tmp/expect 0 "$size"
echo "ok: buffered read-back of all $size bytes equals what was written"
rm -f /tmp/actual /tmp/expect
sdebug_unload
