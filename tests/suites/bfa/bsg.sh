# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/bsg: the management services a vendor tool reaches through
# the FC transport's bsg node, which the driver passes on to the firmware:
# the SFP's serial ID, diagnostics (temperature, firmware ping, queue test,
# beacon, internal loopback), FC port statistics, and the modules a
# Crossbow card lacks (adapter personalities, CEE, external PHY), each
# answered within a bound with the status a user expects.
. /harness/suite/lib.sh

VID=0x1657
# the driver's command numbers (IOCMD_*) and its status codes
FCPORT_ENABLE=53 FCPORT_DISABLE=54 ADAPTER_CFG_MODE=58 CEE_GET_ATTR=63
SFP_MEDIA=66 SFP_SPEED=67 DIAG_TEMP=72 DIAG_LOOPBACK=74 DIAG_FWPING=75
DIAG_QUEUETEST=76 DIAG_BEACON=79 PHY_GET_ATTR=81 FCPORT_GET_STATS=96
ST_OK=0 ST_UNSUPP_SPEED=23 ST_PORT_NOT_DISABLED=47 ST_BEACON_ON=72
ST_PHY_NOT_PRESENT=183 ST_FEATURE_NOT_SUPPORTED=192

bfa_up
dev=/dev/bsg/fc_host$(host_no)
[ -e "$dev" ] || fail "no bsg node $dev for the fc_host"
klog_mark

# vendor CMD LEN [OFF=VALUE]...: the reply, one "OFFSET HEXWORD" per line
vendor() {
	reply=$(timeout 30 /harness/suite/fc-bsg "$dev" vendor $VID "$@") ||
		fail "bsg command $1 did not complete within 30 s (or failed)"
	expect_eq "driver result of command $1" "result 0" \
		"$(printf '%s\n' "$reply" | head -n 1)"
}
# word OFF: the 32-bit word at byte OFF of the last reply, as a number
word() { printf '%d' "0x$(printf '%s\n' "$reply" | awk -v o="$1" '$1 == o { print $2 }')"; }
status_is() { [ "$(word 0)" -eq "$1" ]; }

vendor $SFP_MEDIA 12
expect_eq "SFP media status" $ST_OK "$(word 0)"
expect_eq "SFP media (3 = shortwave)" 3 "$(word 8)"
vendor $SFP_SPEED 12 8=8
expect_eq "SFP accepts 8 Gbit/s" $ST_OK "$(word 0)"
vendor $SFP_SPEED 12 8=16
expect_eq "SFP refuses 16 Gbit/s" $ST_UNSUPP_SPEED "$(word 0)"

vendor $DIAG_TEMP 24
expect_eq "temperature status" $ST_OK "$(word 0)"
expect_eq "junction temperature (C)" 45 $(($(word 12) & 0xffff))
expect_eq "junction sensor shown" 1 $(($(word 16) & 0xff))

for cnt in 1 4 7; do
	vendor $DIAG_FWPING 32 8=$cnt 12=0x5a5a1234
	expect_eq "firmware ping x$cnt" $ST_OK "$(word 0)"
	expect_eq "firmware ping x$cnt DMA status" $ST_OK "$(word 24)"
done

vendor $DIAG_QUEUETEST 24 8=0 12=4
expect_eq "queue test of every queue" $ST_OK "$(word 0)"
expect_eq "queue test: last queue" 3 $((($(word 20) >> 16) & 0xff))
expect_eq "queue test: round trips on it" 10 $(($(word 20) & 0xffff))

vendor $FCPORT_GET_STATS 368
expect_eq "FC port statistics status" $ST_OK "$(word 0)"
nonzero=$(printf '%s\n' "$reply" | awk 'NR > 2 && $2 != "00000000"' | wc -l)
expect_eq "FC port (QoS) counters that are not zero" 0 "$nonzero"

vendor $DIAG_BEACON 20 8=1 12=0 16=2
expect_eq "beacon on for 2 s" $ST_OK "$(word 0)"
vendor $DIAG_BEACON 20 8=1 12=0 16=2
expect_eq "beacon on again while it shines" $ST_BEACON_ON "$(word 0)"
beacon_free() { vendor $DIAG_BEACON 20 8=1 12=0 16=1 >/dev/null; status_is $ST_OK; }
poll 15 beacon_free || fail "the beacon did not go dark after its 2 s"
echo "ok: beacon went dark after its period"

vendor $ADAPTER_CFG_MODE 16 8=1 12=1
expect_eq "adapter personality change" $ST_FEATURE_NOT_SUPPORTED "$(word 0)"
vendor $CEE_GET_ATTR 856 8=832
echo "ok: CEE attributes answered"
vendor $PHY_GET_ATTR 36
expect_eq "external PHY" $ST_PHY_NOT_PRESENT "$(word 0)"

# internal loopback needs the port down; it comes back up after
vendor $DIAG_LOOPBACK 48 8=1 12=8 16=100 20=0xa5a5a5a5
expect_eq "loopback with the port up" $ST_PORT_NOT_DISABLED "$(word 0)"
vendor $FCPORT_DISABLE 8
expect_eq "FC port disable" $ST_OK "$(word 0)"
loop_ok() {
	vendor $DIAG_LOOPBACK 48 8=1 12=8 16=100 20=0xa5a5a5a5 >/dev/null
	status_is $ST_OK
}
poll 20 loop_ok || fail "loopback: status $(word 0), expected $ST_OK once the port is down"
expect_eq "loopback frames sent" 100 "$(word 24)"
expect_eq "loopback frames received" 100 "$(word 32)"
expect_eq "loopback bad frames" 0 "$(word 40)"
vendor $FCPORT_ENABLE 8
expect_eq "FC port enable" $ST_OK "$(word 0)"
poll 60 rport_state_is "$TGT0_WWPN" Online || fail "target 0 not Online after the loopback"
poll 60 all_disks_up || fail "disks missing after the loopback"
echo "ok: port back, targets Online"
bfa_log_clean
