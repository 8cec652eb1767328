# SPDX-License-Identifier: GPL-2.0
# bench-fc/fio: fio 4k random reads at queue depth 32 and 128k sequential
# reads on a null-backed LUN, through our bfa.ko, Debian's bfa.ko and
# virtio-scsi, on the same QEMU build in one boot; prints IOPS, KiB/s and
# our ratios to each peer.  The case fails only when a job does not run.
. /harness/suite/bfa-lib.sh

SECONDS_PER_JOB=${BENCH_SECONDS:-15}

# run NAME DISK RW BS: the job's read IOPS and KiB/s, "IOPS KIBS"
run() {
	local out
	out=$(fio --name="$1" --filename=/dev/"$2" --direct=1 --ioengine=libaio \
		--rw="$3" --bs="$4" --iodepth=32 --numjobs=1 --time_based \
		--runtime="$SECONDS_PER_JOB" --ramp_time=2 --output-format=terse \
		--terse-version=3) || fail "fio $1 on $2 failed"
	# terse v3: field 7 read KiB/s, field 8 read IOPS
	printf '%s\n' "$out" | awk -F';' '{ print $8, $7 }'
}

null_disk_fc() { disk_of 0 2; }
null_disk_virtio() {
	local d
	for d in /sys/block/sd*; do
		readlink -f "$d/device" | grep -q virtio && basename "$d" && return 0
	done
	return 1
}

# bench_driver DRIVER: the null LUN through that bfa; sets R_IOPS, R_KIBS
bench_driver() {
	local d r
	BFA_DRIVER=$1
	bfa_up
	poll 60 null_disk_fc >/dev/null || fail "$1: no disk for the null LUN"
	d=$(null_disk_fc)
	r=$(run rand-"$1" "$d" randread 4k)
	R_IOPS=${r%% *}
	r=$(run seq-"$1" "$d" read 128k)
	R_KIBS=${r#* }
	rmmod bfa || fail "rmmod of the $1 bfa failed"
}

modprobe -a sd_mod virtio_pci virtio_scsi || fail "modprobe of sd_mod/virtio_pci/virtio_scsi failed"
poll 30 null_disk_virtio >/dev/null || fail "no virtio-scsi disk"
bench_driver ours
ours_iops=$R_IOPS ours_kibs=$R_KIBS
bench_driver mainline
ml_iops=$R_IOPS ml_kibs=$R_KIBS
vd=$(null_disk_virtio)
r=$(run rand-virtio "$vd" randread 4k)
vs_iops=${r%% *}
r=$(run seq-virtio "$vd" read 128k)
vs_kibs=${r#* }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
echo "bench: 4k randread QD32 IOPS: ours $ours_iops, mainline $ml_iops, virtio-scsi $vs_iops"
echo "bench: 128k seq read QD32 KiB/s: ours $ours_kibs, mainline $ml_kibs, virtio-scsi $vs_kibs"
echo "bench: ours/mainline: IOPS $(ratio "$ours_iops" "$ml_iops"), throughput $(ratio "$ours_kibs" "$ml_kibs")"
echo "bench: ours/virtio-scsi: IOPS $(ratio "$ours_iops" "$vs_iops"), throughput $(ratio "$ours_kibs" "$vs_kibs")"
