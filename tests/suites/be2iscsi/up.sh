# SPDX-License-Identifier: GPL-2.0
# be2iscsi/<driver>/up: the driver binds the emulated BladeEngine 2, the
# card comes up with its link, the iscsi_host shows the model's MAC, and
# the IPv4 address and netmask set through open-iscsi's iface reach the
# card and read back through the transport; nothing at error level in the
# log.
#
# Not exercised: the gateway and DHCP.  iscsiadm 2.1.8 hands them to the
# driver (the card takes them) and then crashes in its own clean-up
# (SIGSEGV or SIGABRT, whatever the card answered), which the harness
# rightly counts as a failure.
. /harness/suite/lib.sh

klog_mark
be2_up
h=$(be2_host)
expect_eq "hwaddress" "$MAC" "$(cat "$h/hwaddress")"
expect_eq "port_state" "LINK UP" "$(cat "$h/port_state")"
expect_eq "port_speed" "10 Gbps" "$(cat "$h/port_speed")"
expect_eq "initiatorname" "$CARD_INAME" "$(cat "$h/initiatorname")"
expect_match "interrupt type" "PCI-MSI" "$(grep -E 'beiscsi' /proc/interrupts)"

iscsiadm -m iface
iface_set bootproto static ipaddress 192.0.2.77 subnet_mask 255.255.0.0
expect_eq "iface ipaddress" "192.0.2.77" "$(iface_attr ipaddress)"
expect_eq "iface subnet" "255.255.0.0" "$(iface_attr subnet)"
expect_eq "iface bootproto" "static" "$(iface_attr bootproto)"

# and changed again: the card holds one address, the latest
iface_set ipaddress "$IFACE_IP" subnet_mask "$IFACE_MASK"
expect_eq "iface ipaddress" "$IFACE_IP" "$(iface_attr ipaddress)"
expect_eq "iface subnet" "$IFACE_MASK" "$(iface_attr subnet)"

log=$(klog_since)
echo "$log"
be2_log_clean
