# SPDX-License-Identifier: GPL-2.0
#
# dif/integrity/<config>: the block integrity profile sd registers in sysfs
# (format, tag_size, read_verify, write_generate, device capability,
# protection interval) and announces in the kernel log is the one that
# follows from the host's DIF/DIX capabilities and guard type.
. /harness/lib.sh
. ./lib.sh
dif=$1 dix=$2 guard=$3 ss=$4

sdebug_load dif="$dif" dix="$dix" guard="$guard" sector_size="$ss" dev_size_mb=16
expected_integrity "$dif" "$dix" "$guard"
interval=0
[ "$dix" = 1 ] && interval=$ss

i=/sys/block/$DEV/integrity
expect_eq format "$PROFILE" "$(cat $i/format)"
expect_eq tag_size "$TAG_SIZE" "$(cat $i/tag_size)"
expect_eq read_verify "$VERIFY" "$(cat $i/read_verify)"
expect_eq write_generate "$VERIFY" "$(cat $i/write_generate)"
expect_eq device_is_integrity_capable "$CAPABLE" "$(cat $i/device_is_integrity_capable)"
expect_eq protection_interval_bytes "$interval" "$(cat $i/protection_interval_bytes)"

if [ "$dix" = 1 ]; then
	expect_klog "DIX announced" \
		"[$DEV] Enabling DIX $PROFILE, application tag size $TAG_SIZE bytes"
elif klog_since | grep -q "Enabling DIX"; then
	fail "no DIX expected without dix=1, but: $(klog_since | grep 'Enabling DIX')"
fi
if [ "$dif" != 0 ]; then
	expect_klog "DIF announced" "[$DEV] Enabling DIF Type $dif protection"
elif klog_since | grep -q "Enabling DIF"; then
	fail "no DIF expected with dif=0, but: $(klog_since | grep 'Enabling DIF')"
fi
sdebug_unload
