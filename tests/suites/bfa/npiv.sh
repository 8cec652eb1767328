# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/npiv: a virtual port created through fc_host's vport_create
# logs in with FDISC, gets its own N_Port ID and SCSI host, sees both
# targets; vport_delete takes it away again.
. /harness/suite/lib.sh

bfa_up
h=$(fc_host)
VWWPN=0x100000053300aa01
vhost() {
	local x
	for x in /sys/class/fc_host/host*; do
		[ "$(cat "$x/port_name")" = "$VWWPN" ] && echo "$x" && return 0
	done
	return 1
}
vport_online() { local v; v=$(vhost) && [ "$(cat "$v/port_state")" = Online ]; }
echo 100000053300aa01:200000053300aa01 >"$h/vport_create" ||
	fail "vport_create refused"
poll 60 vport_online || fail "the vport did not come Online within 60 s"
v=$(vhost)
echo "ok: vport $(basename "$v") Online"
expect_eq "vport port_id" 0x010101 "$(cat "$v/port_id")"
vno=$(basename "$v" | sed 's/^host//')
# the FCP targets among its remote ports (the name server may be one more)
vrports() { cat /sys/class/fc_remote_ports/rport-"$vno":*/roles 2>/dev/null | grep -c "FCP Target"; }
two() { [ "$(vrports)" -eq 2 ]; }
poll 60 two || fail "the vport sees $(vrports) FCP targets, expected 2"
echo "ok: the vport sees both targets"
echo 100000053300aa01:200000053300aa01 >"$h/vport_delete" ||
	fail "vport_delete refused"
gone() { ! vhost >/dev/null; }
poll 60 gone || fail "the vport is still there 60 s after vport_delete"
echo "ok: vport deleted"
