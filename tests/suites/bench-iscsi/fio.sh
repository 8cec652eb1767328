# SPDX-License-Identifier: GPL-2.0
# bench-iscsi/fio: fio 4k random reads at queue depth 32 and 128k
# sequential reads on LUN 1 of the suite's tgtd, through our be2iscsi.ko,
# Debian's be2iscsi.ko and iscsi_tcp, in one boot; prints IOPS, KiB/s,
# guest CPU microseconds per I/O (all CPUs' busy time over the job, from
# /proc/stat) and our ratios to each peer.  The case fails only when a job
# does not run.
. /harness/suite/be2-lib.sh

NIC_MAC=${1:?mac}
TCP_PORTAL=${2:?portal}
SECONDS_PER_JOB=${BENCH_SECONDS:-15}

# busy: jiffies all CPUs spent outside idle and iowait
busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }

# intr: device interrupts the guest has taken (numbered lines of
# /proc/interrupts: the card's or the NIC's vectors, not timers or IPIs)
intr() {
	awk -v ncpu="$(grep -c '^processor' /proc/cpuinfo)" '
		$1 ~ /^[0-9]+:$/ { for (i = 2; i <= ncpu + 1; i++) n += $i }
		END { print n + 0 }' /proc/interrupts
}

# run NAME DISK RW BS: "IOPS KIBS USEC_PER_IO INTR_PER_IO" of the job
run() {
	local out b0 b1 i0 i1 hz=100
	i0=$(intr)
	b0=$(busy)
	out=$(fio --name="$1" --filename=/dev/"$2" --direct=1 --ioengine=libaio \
		--rw="$3" --bs="$4" --iodepth=32 --numjobs=1 --time_based \
		--runtime="$SECONDS_PER_JOB" --output-format=terse \
		--terse-version=3) || fail "fio $1 on $2 failed"
	b1=$(busy)
	i1=$(intr)
	# terse v3: field 6 read KiB total, 7 read KiB/s, 8 read IOPS
	printf '%s\n' "$out" | awk -F';' -v b=$((b1 - b0)) -v hz=$hz -v bs="$4" \
		-v irq=$((i1 - i0)) '{
		n = $6 / (bs == "4k" ? 4 : 128)
		us = n > 0 ? b * 1e6 / hz / n : 0
		ipio = n > 0 ? irq / n : 0
		printf "%d %d %.1f %.2f\n", $8, $7, us, ipio }'
}

lun1() { be2_disks | awk '$1 == 1 { print $2 }'; }

# bench DRIVER: LUN 1 through that be2iscsi; sets R_IOPS R_KIBS R_CPU4 R_CPU128
bench() {
	local d r
	BE2_DRIVER=$1
	[ ! -d /sys/module/be2iscsi ] || rmmod be2iscsi || fail "rmmod be2iscsi failed"
	be2_node
	be2_login
	be2_two_disks
	d=$(lun1)
	r=$(run rand-"$1" "$d" randread 4k)
	set -- $r
	R_IOPS=$1 R_CPU4=$3 R_IRQ4=$4
	r=$(run seq-"$BE2_DRIVER" "$d" read 128k)
	set -- $r
	R_KIBS=$2 R_CPU128=$3 R_IRQ128=$4
	be2_logout
}

bench ours
o_iops=$R_IOPS o_kibs=$R_KIBS o_c4=$R_CPU4 o_c128=$R_CPU128 o_i4=$R_IRQ4 o_i128=$R_IRQ128
bench mainline
m_iops=$R_IOPS m_kibs=$R_KIBS m_c4=$R_CPU4 m_c128=$R_CPU128 m_i4=$R_IRQ4 m_i128=$R_IRQ128
rmmod be2iscsi || fail "rmmod be2iscsi failed"

modprobe -a virtio_pci virtio_net crc32c_generic iscsi_tcp ||
	fail "modprobe of the iscsi_tcp peer failed"
nic_dir() { sysfs_find '/sys/class/net/*' address "$NIC_MAC"; }
poll 30 nic_dir >/dev/null || fail "no network interface with $NIC_MAC"
nic=$(basename "$(nic_dir)")
ip link set "$nic" up && ip addr add 10.0.2.15/24 dev "$nic" ||
	fail "could not give $nic an address"
iscsiadm -m node -T "$TARGET" -p "$TCP_PORTAL" -o delete >/dev/null 2>&1
iscsiadm -m node -T "$TARGET" -p "$TCP_PORTAL" -I default -o new >/dev/null &&
	iscsiadm -m node -T "$TARGET" -p "$TCP_PORTAL" --login ||
	fail "login through iscsi_tcp failed"
be2_two_disks
d=$(lun1)
set -- $(run rand-tcp "$d" randread 4k)
t_iops=$1 t_c4=$3 t_i4=$4
set -- $(run seq-tcp "$d" read 128k)
t_kibs=$2 t_c128=$3 t_i128=$4
iscsiadm -m node -T "$TARGET" -p "$TCP_PORTAL" --logout >/dev/null ||
	fail "logout from iscsi_tcp failed"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
echo "bench: 4k randread QD32 IOPS: ours $o_iops, mainline $m_iops, iscsi_tcp $t_iops"
echo "bench: 128k seq read QD32 KiB/s: ours $o_kibs, mainline $m_kibs, iscsi_tcp $t_kibs"
echo "bench: guest CPU us per 4k I/O: ours $o_c4, mainline $m_c4, iscsi_tcp $t_c4"
echo "bench: guest CPU us per 128k I/O: ours $o_c128, mainline $m_c128, iscsi_tcp $t_c128"
echo "bench: device interrupts per 4k I/O: ours $o_i4, mainline $m_i4, iscsi_tcp $t_i4"
echo "bench: device interrupts per 128k I/O: ours $o_i128, mainline $m_i128, iscsi_tcp $t_i128"
echo "bench: ours/mainline: IOPS $(ratio "$o_iops" "$m_iops"), throughput $(ratio "$o_kibs" "$m_kibs"), CPU/IO 4k $(ratio "$o_c4" "$m_c4")"
echo "bench: ours/iscsi_tcp: IOPS $(ratio "$o_iops" "$t_iops"), throughput $(ratio "$o_kibs" "$t_kibs"), CPU/IO 4k $(ratio "$o_c4" "$t_c4"), 128k $(ratio "$o_c128" "$t_c128")"
