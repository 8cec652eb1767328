# SPDX-License-Identifier: GPL-2.0
# bench-iscsi/fio: fio 4k random reads at queue depth 32 and 128k
# sequential reads on LUN 1 of the suite's tgtd, through our be2iscsi.ko,
# Debian's be2iscsi.ko and iscsi_tcp, in one boot.  The three peers take
# turns for BENCH_ROUNDS rounds (the order rotates each round, so that a
# slow spell of the host falls on all of them); the case prints each
# round and then the medians of IOPS, KiB/s, guest CPU microseconds per
# I/O (all CPUs' busy time over the job, from /proc/stat, with its system,
# hard and soft interrupt parts), device interrupts per I/O and the
# medians of our per-round ratios to each peer.  The case fails only when
# a job does not run.
. /harness/suite/be2-lib.sh

NIC_MAC=${1:?mac}
TCP_PORTAL=${2:?portal}
SECONDS_PER_JOB=${BENCH_SECONDS:-15}
ROUNDS=${BENCH_ROUNDS:-3}

# busy: jiffies all CPUs spent outside idle and iowait, then the system,
# hard interrupt and soft interrupt parts of it
busy() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $4, $7, $8 }' /proc/stat
}

# intr: device interrupts the guest has taken (numbered lines of
# /proc/interrupts: the card's or the NIC's vectors, not timers or IPIs)
intr() {
	awk -v ncpu="$(grep -c '^processor' /proc/cpuinfo)" '
		$1 ~ /^[0-9]+:$/ { for (i = 2; i <= ncpu + 1; i++) n += $i }
		END { print n + 0 }' /proc/interrupts
}

# run NAME DISK RW BS: "IOPS KIBS USEC_PER_IO INTR_PER_IO SYS IRQ SOFTIRQ"
# of the job (the last three in microseconds per I/O)
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
	printf '%s\n' "$out" | awk -F';' -v b0="$b0" -v b1="$b1" -v hz=$hz \
		-v bs="$4" -v irq=$((i1 - i0)) '{
		n = $6 / (bs == "4k" ? 4 : 128)
		split(b0, x, " "); split(b1, y, " ")
		for (i = 1; i <= 4; i++)
			us[i] = n > 0 ? (y[i] - x[i]) * 1e6 / hz / n : 0
		ipio = n > 0 ? irq / n : 0
		printf "%d %d %.1f %.2f %.1f %.1f %.1f\n", $8, $7, us[1], ipio,
			us[2], us[3], us[4] }'
}

lun1() { be2_disks | awk '$1 == 1 { print $2 }'; }

# R: every figure of every job, one line each: "PEER JOB ROUND IOPS KIBS
# CPU IRQ SYS HARDIRQ SOFTIRQ"
R=/tmp/bench-results
: > "$R"

# job PEER ROUND DISK: both jobs on the disk, their figures added to R
job() {
	echo "$1 4k $2 $(run rand-"$1" "$3" randread 4k)" >> "$R"
	echo "$1 128k $2 $(run seq-"$1" "$3" read 128k)" >> "$R"
}

# be2 DRIVER ROUND: LUN 1 through that be2iscsi
be2() {
	BE2_DRIVER=$1
	[ ! -d /sys/module/be2iscsi ] || rmmod be2iscsi ||
		fail "rmmod be2iscsi failed"
	be2_node
	be2_login
	be2_two_disks
	job "$1" "$2" "$(lun1)"
	be2_logout
}

tcp_ready=
# tcp ROUND: LUN 1 through iscsi_tcp over the suite's virtio NIC
tcp() {
	local nic
	if [ -z "$tcp_ready" ]; then
		modprobe -a virtio_pci virtio_net crc32c_generic iscsi_tcp ||
			fail "modprobe of the iscsi_tcp peer failed"
		poll 30 nic_dir >/dev/null || fail "no network interface with $NIC_MAC"
		nic=$(basename "$(nic_dir)")
		ip link set "$nic" up && ip addr add 10.0.2.15/24 dev "$nic" ||
			fail "could not give $nic an address"
		iscsiadm -m node -T "$TARGET" -p "$TCP_PORTAL" -o delete >/dev/null 2>&1
		iscsiadm -m node -T "$TARGET" -p "$TCP_PORTAL" -I default -o new >/dev/null ||
			fail "could not make the iscsi_tcp node"
		tcp_ready=1
	fi
	iscsiadm -m node -T "$TARGET" -p "$TCP_PORTAL" --login >/dev/null ||
		fail "login through iscsi_tcp failed"
	be2_two_disks
	job tcp "$1" "$(lun1)"
	iscsiadm -m node -T "$TARGET" -p "$TCP_PORTAL" --logout >/dev/null ||
		fail "logout from iscsi_tcp failed"
	poll 30 no_session || fail "the iscsi_tcp session stayed after logout"
}
nic_dir() { sysfs_find '/sys/class/net/*' address "$NIC_MAC"; }

peer() {
	case $1 in
	ours | mainline) be2 "$1" "$2" ;;
	tcp) tcp "$2" ;;
	esac
}

round=1
while [ "$round" -le "$ROUNDS" ]; do
	case $((round % 3)) in
	1) order="ours mainline tcp" ;;
	2) order="mainline tcp ours" ;;
	0) order="tcp ours mainline" ;;
	esac
	for p in $order; do
		peer "$p" "$round"
	done
	round=$((round + 1))
done
[ ! -d /sys/module/be2iscsi ] || rmmod be2iscsi || fail "rmmod be2iscsi failed"

# med PEER JOB FIELD: the median over the rounds of a field (4 = IOPS ...)
med() {
	awk -v p="$1" -v j="$2" -v f="$3" '$1 == p && $2 == j { v[n++] = $f }
		END {
			for (i = 1; i < n; i++)
				for (k = i; k > 0 && v[k - 1] > v[k]; k--) {
					t = v[k]; v[k] = v[k - 1]; v[k - 1] = t
				}
			if (n == 0) print "n/a"
			else if (n % 2) print v[int(n / 2)]
			else print (v[n / 2 - 1] + v[n / 2]) / 2
		}' "$R"
}

# rmed PEER JOB FIELD: the median over the rounds of ours' field over the
# peer's in the same round
rmed() {
	awk -v p="$1" -v j="$2" -v f="$3" '
		$2 == j && $1 == "ours" { o[$3] = $f }
		$2 == j && $1 == p { q[$3] = $f }
		END {
			for (r in o)
				if ((r in q) && q[r] > 0)
					v[n++] = o[r] / q[r]
			for (i = 1; i < n; i++)
				for (k = i; k > 0 && v[k - 1] > v[k]; k--) {
					t = v[k]; v[k] = v[k - 1]; v[k - 1] = t
				}
			if (n == 0) print "n/a"
			else if (n % 2) printf "%.2f\n", v[int(n / 2)]
			else printf "%.2f\n", (v[n / 2 - 1] + v[n / 2]) / 2
		}' "$R"
}

echo "bench: per round: peer job round IOPS KiB/s CPU-us/IO IRQ/IO sys-us hardirq-us softirq-us"
sed 's/^/bench:   /' "$R"
for j in 4k 128k; do
	echo "bench: $j median of $ROUNDS rounds: ours / mainline / iscsi_tcp:" \
		"IOPS $(med ours $j 4) / $(med mainline $j 4) / $(med tcp $j 4)," \
		"KiB/s $(med ours $j 5) / $(med mainline $j 5) / $(med tcp $j 5)," \
		"CPU us/IO $(med ours $j 6) / $(med mainline $j 6) / $(med tcp $j 6)," \
		"IRQ/IO $(med ours $j 7) / $(med mainline $j 7) / $(med tcp $j 7)," \
		"sys us/IO $(med ours $j 8) / $(med mainline $j 8) / $(med tcp $j 8)," \
		"softirq us/IO $(med ours $j 10) / $(med mainline $j 10) / $(med tcp $j 10)"
done
echo "bench: ours/mainline (median of per-round ratios): 4k IOPS $(rmed mainline 4k 4)," \
	"128k KiB/s $(rmed mainline 128k 5), CPU/IO 4k $(rmed mainline 4k 6), 128k $(rmed mainline 128k 6)"
echo "bench: ours/iscsi_tcp (median of per-round ratios): 4k IOPS $(rmed tcp 4k 4)," \
	"128k KiB/s $(rmed tcp 128k 5), CPU/IO 4k $(rmed tcp 4k 6), 128k $(rmed tcp 128k 6)"
