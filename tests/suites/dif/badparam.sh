# SPDX-License-Identifier: GPL-2.0
#
# dif/badparam/<name>: scsi_debug loaded with an invalid dif or guard value is
# refused (EINVAL) with a message naming the parameter, and leaves nothing
# behind: no module, no SCSI host.  A valid load works afterwards.
. /harness/lib.sh
. ./lib.sh
param=$1 message=$2

sdebug_unload
hosts=$(ls /sys/class/scsi_host | wc -l)
klog_mark
if out=$(modprobe scsi_debug "$param" 2>&1); then
	fail "modprobe scsi_debug $param succeeded; expected it to be refused"
fi
expect_match "modprobe's error" "Invalid argument" "$out"
expect_klog "the kernel's message" "$message"
[ -d /sys/module/scsi_debug ] && fail "scsi_debug is loaded after the refused $param"
expect_eq "SCSI hosts after the refusal" "$hosts" "$(ls /sys/class/scsi_host | wc -l)"

sdebug_load dif=1 dev_size_mb=16
expect_eq "sd protection_type after a valid load" 1 \
	"$(cat /sys/block/"$DEV"/device/scsi_disk/*/protection_type)"
sdebug_unload
