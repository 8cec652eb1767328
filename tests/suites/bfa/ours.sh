# SPDX-License-Identifier: GPL-2.0
# bfa/ours/*: what our bfa.ko offers beyond the mainline suite.  ours.sh MODE:
#   bsg        FC bsg pass-through from user space: an ELS ECHO to target 0
#              comes back with its data, a CT GID_FT to the name server
#              lists both targets
#   reload-20  20 times rmmod and modprobe with the targets and disks up
#              every time; libfc's exchanges and the frames the driver
#              copies (skbuff caches) do not grow
#   refuse     bad input is refused and changes nothing: a bad module
#              parameter, issue_lip with the link down, a dev_loss_tmo
#              that is no number
. /harness/suite/lib.sh

# slab_active CACHE: its active objects in /proc/slabinfo (0 if absent)
slab_active() {
	awk -v c="$1" '$1 == c { n = $2 } END { print n + 0 }' /proc/slabinfo
}

case $1 in
bsg)
	bfa_up
	dev=/dev/bsg/fc_host$(host_no)
	[ -e "$dev" ] || fail "no bsg node $dev for the fc_host"
	# ECHO (0x10) with 8 bytes of data
	reply=$(timeout 60 /harness/suite/fc-bsg "$dev" els 0x011000 12 \
		0=0x10000000 4=0x600dcafe 8=0x01234567) ||
		fail "ELS ECHO through bsg did not complete within 60 s"
	echo "$reply"
	expect_eq "ECHO result" "result 0" "$(echo "$reply" | sed -n 1p)"
	expect_eq "ECHO answer: LS_ACC" "0 02000000" "$(echo "$reply" | grep '^0 ')"
	expect_eq "ECHO data word 1" "4 600dcafe" "$(echo "$reply" | grep '^4 ')"
	expect_eq "ECHO data word 2" "8 01234567" "$(echo "$reply" | grep '^8 ')"
	# GID_FT for FCP: CT header (revision 1, directory service, name
	# server, command 0x0171, answer up to 64 words), then FC-4 type 8
	reply=$(timeout 60 /harness/suite/fc-bsg "$dev" ct 0xfffffc 272 \
		0=0x01000000 4=0xfc020000 8=0x01710040 16=0x00000008) ||
		fail "CT GID_FT through bsg did not complete within 60 s"
	echo "$reply"
	expect_eq "GID_FT result" "result 0" "$(echo "$reply" | sed -n 1p)"
	expect_eq "GID_FT answer: accept" "8 80020000" "$(echo "$reply" | grep '^8 ' | sed 's/....$/0000/')"
	ids=$(echo "$reply" | awk '$1 >= 16 && $2 != "00000000" { print substr($2, 3) }' | tr '\n' ' ')
	for id in 010100 011000 011100; do
		case " $ids" in
		*" $id "*) echo "ok: the name server lists $id" ;;
		*) fail "GID_FT lists '$ids', expected $id among them" ;;
		esac
	done
	;;
reload-20)
	bfa_up
	exch0=$(slab_active libfc_em)
	fcl0=$(slab_active skbuff_fclone_cache)
	bfa_reloads 20
	echo "ok: 20 reloads, targets and disks up every time"
	rmmod bfa || fail "final rmmod failed"
	bfa_up
	exch=$(slab_active libfc_em)
	fcl=$(slab_active skbuff_fclone_cache)
	echo "libfc_em: $exch0 -> $exch; skbuff_fclone_cache: $fcl0 -> $fcl"
	grep -q '^libfc_em ' /proc/slabinfo || fail "no libfc_em cache in /proc/slabinfo (slab_nomerge?)"
	[ "$exch" -le "$exch0" ] || fail "libfc exchanges grew from $exch0 to $exch over 20 reloads"
	# a few frames may be in flight at either count, not one per reload
	[ "$fcl" -le $((fcl0 + 8)) ] || fail "frame buffers grew from $fcl0 to $fcl over 20 reloads"
	echo "ok: no exchange or frame left behind"
	;;
refuse)
	[ -z "$(bfa_which)" ] || rmmod bfa || fail "rmmod bfa failed"
	if modprobe bfa msix=2 2>/dev/null; then
		fail "modprobe bfa msix=2 was accepted"
	fi
	[ -z "$(bfa_which)" ] || fail "bfa loaded with msix=2"
	echo "ok: msix=2 refused"
	bfa_up
	h=$(fc_host)
	r=$(rport_of "$TGT0_WWPN")
	tmo=$(cat "$r/dev_loss_tmo")
	if sh -c "echo soon >$r/dev_loss_tmo" 2>/dev/null; then
		fail "dev_loss_tmo 'soon' was accepted"
	fi
	expect_eq "dev_loss_tmo after a bad write" "$tmo" "$(cat "$r/dev_loss_tmo")"
	qom_set "$HBA" link-down true
	linkdown() { [ "$(cat "$h/port_state")" = Linkdown ]; }
	poll 30 linkdown || fail "port_state not Linkdown within 30 s of the cable out"
	if timeout 10 sh -c "echo 1 >$h/issue_lip" 2>/dev/null; then
		fail "issue_lip with the link down was accepted"
	fi
	expect_eq "port_state after a refused LIP" Linkdown "$(cat "$h/port_state")"
	echo "ok: issue_lip refused with the link down"
	qom_set "$HBA" link-down false
	poll 60 rport_state_is "$TGT0_WWPN" Online || fail "target 0 not back Online"
	echo "ok: back Online"
	;;
*)
	fail "unknown mode '$1'"
	;;
esac
