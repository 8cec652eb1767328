# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/second-port: the 825's second port (PCI function 1) comes up
# beside the first on the same switch with its own names and N_Port ID,
# sees both targets, and its disks are a second path to the same LUNs:
# what one port writes, the other reads.
. /harness/suite/lib.sh

bfa_up
poll 60 fc_host_online "$HBA1_WWPN" || fail "port 1 ($HBA1_WWPN) not Online within 60 s"
h1=$(fc_host "$HBA1_WWPN")
echo "ok: port 1 is $(basename "$h1")"
expect_eq "port 1 port_id" 0x010200 "$(cat "$h1/port_id")"
expect_eq "port 1 node_name" "$HBA_WWNN" "$(cat "$h1/node_name")"
expect_eq "port 1 fabric_name" "$FABRIC_NAME" "$(cat "$h1/fabric_name")"
for t in "$TGT0_WWPN" "$TGT1_WWPN"; do
	poll 60 rport_state_is "$t" Online "$HBA1_WWPN" ||
		fail "target $t not Online through port 1 within 60 s"
done
echo "ok: both targets Online through port 1"
p1_disk() { disk_of 1 0 "$HBA1_WWPN" >/dev/null; }
poll 60 p1_disk || fail "no disk for target 1 LUN 0 through port 1"
d1=$(disk_of 1 0 "$HBA1_WWPN")
d0=$(disk_of 1 0)
[ "$d0" != "$d1" ] || fail "port 0 and port 1 show the same disk node"
mkdir -p /tmp/sp && cd /tmp/sp || fail "no scratch space"
random_file data 2097152
dd if=data of=/dev/"$d1" bs=1048576 seek=30 oflag=direct 2>/dev/null ||
	fail "write through port 1 ($d1) failed"
dd if=/dev/"$d0" of=back bs=1048576 skip=30 count=2 iflag=direct 2>/dev/null ||
	fail "read through port 0 ($d0) failed"
cmp data back || fail "what port 1 wrote reads back different through port 0"
echo "ok: 2 MiB written through port 1 ($d1) read back identical through port 0 ($d0)"
host_check image-sha256 lun-1-0.img $((30 * 1048576)) 2097152 "$(sha_of data)"
