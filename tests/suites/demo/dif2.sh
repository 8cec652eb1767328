# SPDX-License-Identifier: GPL-2.0
#
# demo/scsi-debug-dif2: a DIF type 2 disk with DIX, looked at from the
# guest: the SCSI devices, READ CAPACITY(16), the integrity profile sd
# registered, and a READ(32) round trip.
. /harness/lib.sh

show() {
	echo
	echo "# $*"
	"$@"
}

modprobe sd_mod && modprobe sg || fail "could not load sd_mod and sg"
modprobe scsi_debug dif=2 dix=1 dev_size_mb=16 || fail "could not load scsi_debug"
disk() {
	set -- /sys/bus/pseudo/drivers/scsi_debug/adapter0/host*/target*/*/block/*
	[ -e "$1" ] && DEV=${1##*/}
}
poll 30 disk || fail "no scsi_debug disk appeared"
sg=$(ls /sys/block/"$DEV"/device/scsi_generic)

show lsscsi -g
show lsscsi -p
show sg_readcap --long /dev/"$DEV"
echo
echo "# grep . /sys/block/$DEV/integrity/*"
grep . /sys/block/"$DEV"/integrity/*
echo
echo "# kernel log"
dmesg | grep -E "\[$DEV\] Enabling (DIF|DIX)"

echo
echo "# WRITE(32) then READ(32) of 1 block at LBA 64, RDPROTECT=WRPROTECT=0"
printf 'made by make demo: WRITE(32) then READ(32) on a type 2 disk\n' >/tmp/msg
dd if=/tmp/msg of=/tmp/block bs=512 count=1 conv=sync status=none
cdb="00 00 00 00 00 00 00 00 00 40 00 00 00 40 00 00 00 00 00 00 00 01"
sg_raw -C 1 -s 512 -i /tmp/block /dev/"$sg" 7f 00 00 00 00 00 00 18 00 0b $cdb ||
	fail "WRITE(32) failed"
sg_raw -C 1 -r 512 -o /tmp/back /dev/"$sg" 7f 00 00 00 00 00 00 18 00 09 $cdb ||
	fail "READ(32) failed"
od -A d -c /tmp/back | head -n 4
cmp /tmp/block /tmp/back || fail "READ(32) returned other data than WRITE(32) wrote"
echo "READ(32) returned what WRITE(32) wrote"
