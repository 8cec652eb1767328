# SPDX-License-Identifier: GPL-2.0
# bfa/ours/ioc-*: our bfa.ko brings the IOC of both ports up (firmware
# download, boot, ENABLE, attributes) and keeps it up.  ioc.sh MODE:
#   up         (case ioc-msix) MSI-X, both ports operational with the
#              model's names
#   intx       the same on the INTx line (msix=0)
#   params     a bad module parameter is refused and nothing binds
#   heartbeat-stall, ioc-fail
#              the firmware stops or reports an error: both ports
#              recover within 10 s
#   link       the rings are set up and the port enabled: the link comes
#              up at 8 Gbit/s, goes down with the cable and up again
#   fc-host    each port is an fc_host with the firmware's names, its
#              speeds and frame size; Linkdown while the cable is out
#   fabric     both ports log in to the fabric through the firmware
#              (libfc's FLOGI, name server, discovery, target logins):
#              their port IDs and fabric name, both targets Online
#   reload     10 times rmmod and modprobe, every time both ports up
. /harness/suite/lib.sh

F0=0000:00:04.0
F1=0000:00:04.1

ours_load() {
	if [ -n "$(bfa_which)" ]; then
		rmmod bfa || fail "rmmod of the $(bfa_which) bfa failed"
	fi
	klog_mark
	modprobe bfa "$@" || fail "modprobe bfa $* failed"
}

# ioc_operational FN WWPN: that port logged its IOC up, with that name
ioc_operational() {
	klog_since | grep -q "bfa $1: IOC operational: firmware 3.2.5.1, WWPN ${2#0x}, WWNN ${HBA_WWNN#0x}, 8 Gbit/s"
}

both_operational() {
	poll 30 ioc_operational $F0 $HBA_WWPN ||
		fail "port 0: no 'IOC operational' with WWPN $HBA_WWPN within 30 s"
	poll 30 ioc_operational $F1 $HBA1_WWPN ||
		fail "port 1: no 'IOC operational' with WWPN $HBA1_WWPN within 30 s"
	expect_eq "driver of function 0" bfa "$(basename "$(readlink /sys/bus/pci/devices/$F0/driver)")"
	expect_eq "driver of function 1" bfa "$(basename "$(readlink /sys/bus/pci/devices/$F1/driver)")"
	expect_eq "the bfa loaded" ours "$(bfa_which)"
}

ours_log_clean() {
	local bad
	bad=$(klog_since | grep -E 'bfa .*(fail|error|did not|not free|no )' || true)
	[ -z "$bad" ] || fail "driver reported trouble: $bad"
	echo "ok: nothing reported"
}

# link_is FN up|down: the port's last link report since the mark
link_is() {
	local last
	last=$(klog_since | grep -E "bfa $1: link (up|down)" | tail -n 1)
	case $2 in
	up) printf '%s' "$last" | grep -q "link up at 8 Gbit/s" ;;
	down) printf '%s' "$last" | grep -q "link down" ;;
	esac
}

both_links() {
	poll 30 link_is $F0 "$1" || fail "port 0: link not $1 within 30 s"
	poll 30 link_is $F1 "$1" || fail "port 1: link not $1 within 30 s"
	echo "ok: both links $1"
}

# recovered FN: that port logged a recovery; prints its duration in ms
recovered() {
	klog_since | sed -n "s/.*bfa $1: IOC recovered in \([0-9]*\) ms.*/\1/p" | tail -n 1 | grep .
}

case $1 in
up)
	ours_load
	both_operational
	both_links up
	expect_eq "interrupt mode of function 0" msix "$(cat /sys/bus/pci/devices/$F0/msi_irqs/* | sort -u)"
	expect_eq "interrupt mode of function 1" msix "$(cat /sys/bus/pci/devices/$F1/msi_irqs/* | sort -u)"
	ours_log_clean
	;;
intx)
	ours_load msix=0
	both_operational
	both_links up
	expect_eq "interrupt type" "IO-APIC" "$(irq_kinds | tr '\n' ' ' | sed 's/ $//')"
	ours_log_clean
	;;
params)
	[ -z "$(bfa_which)" ] || rmmod bfa || fail "rmmod bfa failed"
	if modprobe bfa msix=sometimes 2>/dev/null; then
		fail "modprobe bfa msix=sometimes was accepted"
	fi
	[ -z "$(bfa_which)" ] || fail "bfa stayed loaded after a bad parameter"
	echo "ok: msix=sometimes refused, nothing loaded"
	ours_load
	both_operational
	;;
heartbeat-stall | ioc-fail)
	ours_load
	both_operational
	klog_mark
	qom_set "$HBA" "$1" true
	for f in $F0 $F1; do
		poll 20 recovered $f >/dev/null || fail "$f: no IOC recovery within 20 s of $1"
		ms=$(recovered $f)
		[ "$ms" -le 10000 ] || fail "$f: recovery took $ms ms, expected at most 10000"
		echo "ok: $f recovered in $ms ms"
	done
	# and it stays up: no second recovery in the next 3 s
	again() { [ "$(klog_since | grep -c "bfa $1: IOC recovered")" -gt 1 ]; }
	for f in $F0 $F1; do
		if poll 3 again $f; then
			fail "$f recovered more than once: $(klog_since | grep "bfa $f")"
		fi
	done
	echo "ok: one recovery each, IOC stays up"
	both_links up
	qom_set "$HBA" heartbeat-stall false
	case $1 in
	heartbeat-stall) what="firmware heartbeat stopped" ;;
	ioc-fail) what="firmware error interrupt" ;;
	esac
	expect_match "what the driver saw" "$what" "$(klog_since)"
	;;
link)
	ours_load
	both_operational
	both_links up
	klog_mark
	qom_set "$HBA" link-down true
	both_links down
	klog_mark
	qom_set "$HBA" link-down false
	both_links up
	ours_log_clean
	;;
fc-host)
	ours_load
	both_operational
	both_links up
	for w in $HBA_WWPN $HBA1_WWPN; do
		h=$(fc_host $w) || fail "no fc_host with port_name $w"
		echo "ok: $(basename "$h") has port_name $w"
		expect_eq "$w node_name" "$HBA_WWNN" "$(cat "$h/node_name")"
		expect_eq "$w port_type" "NPort (fabric via point-to-point)" "$(cat "$h/port_type")"
		expect_eq "$w supported_speeds" "2 Gbit, 4 Gbit, 8 Gbit" "$(cat "$h/supported_speeds")"
		expect_eq "$w speed" "8 Gbit" "$(cat "$h/speed")"
		expect_eq "$w maxframe_size" "2112 bytes" "$(cat "$h/maxframe_size")"
		expect_eq "$w supported_classes" "Class 3" "$(cat "$h/supported_classes")"
	done
	h=$(fc_host $HBA_WWPN)
	klog_mark
	qom_set "$HBA" link-down true
	both_links down
	state_is() { [ "$(cat "$h/port_state")" = "$1" ]; }
	poll 10 state_is Linkdown || fail "port_state '$(cat "$h/port_state")' with the cable out, expected Linkdown"
	echo "ok: Linkdown with the cable out"
	klog_mark
	qom_set "$HBA" link-down false
	both_links up
	poll 30 state_is Online ||
		fail "port_state '$(cat "$h/port_state")' 30 s after the light came back, expected Online"
	echo "ok: Online again once the light is back"
	ours_log_clean
	;;
fabric)
	ours_load
	both_operational
	for x in "$HBA_WWPN 0x010100" "$HBA1_WWPN 0x010200"; do
		hw=${x% *} hid=${x#* }
		poll 30 fc_host_online "$hw" || fail "$hw not Online within 30 s"
		h=$(fc_host "$hw")
		expect_eq "$hw port_id" "$hid" "$(cat "$h/port_id")"
		expect_eq "$hw fabric_name" "$FABRIC_NAME" "$(cat "$h/fabric_name")"
		for t in "$TGT0_WWPN 0x011000" "$TGT1_WWPN 0x011100"; do
			tw=${t% *} tid=${t#* }
			poll 30 rport_state_is "$tw" Online "$hw" ||
				fail "target $tw not Online behind $hw within 30 s"
			r=$(rport_of "$tw" "$hw")
			expect_eq "$tw port_id behind $hw" "$tid" "$(cat "$r/port_id")"
			expect_match "$tw roles behind $hw" "FCP Target" "$(cat "$r/roles")"
		done
	done
	ours_log_clean
	;;
reload)
	i=1
	while [ $i -le 10 ]; do
		ours_load
		both_operational >/dev/null
		ours_log_clean >/dev/null
		i=$((i + 1))
	done
	rmmod bfa || fail "final rmmod failed"
	echo "ok: 10 loads, both ports up every time, nothing reported"
	;;
*)
	fail "unknown mode '$1'"
	;;
esac
