# SPDX-License-Identifier: GPL-2.0
#
# dif/readcap/<config>: READ CAPACITY(16) reports PROT_EN and P_TYPE for the
# DIF type scsi_debug was given, the logical block size and the capacity;
# sd takes the same protection type.
. /harness/lib.sh
. ./lib.sh
dif=$1 dix=$2 guard=$3 ss=$4

sdebug_load dif="$dif" dix="$dix" guard="$guard" sector_size="$ss" dev_size_mb=16
out=$(sg_readcap --long "$DISK") || fail "sg_readcap --long $DISK failed: $out"
echo "$out"

want_en=0 want_type=0
[ "$dif" != 0 ] && want_en=1 want_type=$((dif - 1))
prot=$(echo "$out" | sed -n 's/.*prot_en=\([0-9]*\), p_type=\([0-9]*\).*/\1 \2/p')
expect_eq "prot_en p_type" "$want_en $want_type" "$prot"
if [ "$dif" != 0 ]; then
	expect_match "protection type" "\\[type $dif protection\\]" "$out"
fi
expect_eq "logical block length" "$ss" \
	"$(echo "$out" | sed -n 's/.*Logical block length=\([0-9]*\) bytes.*/\1/p')"
expect_eq "last LBA" "$((16 * 1024 * 1024 / ss - 1))" \
	"$(echo "$out" | sed -n 's/.*Last LBA=\([0-9]*\) .*/\1/p')"
expect_eq "sd protection_type" "$dif" \
	"$(cat /sys/block/"$DEV"/device/scsi_disk/*/protection_type)"
sdebug_unload
