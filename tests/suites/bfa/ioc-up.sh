# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/ioc-up: Debian's bfa.ko binds the emulated 825, downloads the
# project's firmware image and brings the IOC and the port up; the fc_host
# shows the card's names and what the fabric assigned, and the driver
# logged no error.
. /harness/suite/lib.sh

klog_mark
bfa_up
log=$(klog_since)
echo "$log"
expect_match "driver log" "$LOG_IOC_UP" "$log"
expect_match "driver log" "$LOG_PORT_ONLINE" "$log"
bfa_log_clean
h=$(fc_host)
expect_eq "port_name" "$HBA_WWPN" "$(cat "$h/port_name")"
expect_eq "node_name" "$HBA_WWNN" "$(cat "$h/node_name")"
expect_eq "port_state" "Online" "$(cat "$h/port_state")"
expect_eq "port_id" "$HBA_PORT_ID" "$(cat "$h/port_id")"
expect_eq "fabric_name" "$FABRIC_NAME" "$(cat "$h/fabric_name")"
expect_eq "speed" "8 Gbit" "$(cat "$h/speed")"
expect_match "port_type" "NPort" "$(cat "$h/port_type")"
expect_match "firmware" "3.2.5.1" "$(cat /sys/class/scsi_host/host"$(host_no)"/firmware_version 2>/dev/null || echo none)"
expect_match "interrupt type" "PCI-MSI" "$(irq_kinds)"
