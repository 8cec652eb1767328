# SPDX-License-Identifier: GPL-2.0
#
# Sourced by scripts/debug-kernel: the module list the kernel is trimmed to
# and the recipe that builds it.  Both are part of the cache key (this file
# is hashed), so that a change here builds a new kernel and a change of the
# rest of scripts/debug-kernel does not.
#
# In: top, d (debug-kernel.d), kver, config, srcver, tarball; say, die and
# kmake.  Out: wanted (the names asked for), modlist (those and their
# dependencies in Debian's kernel); build_kernel builds into kdir.

# Every module a suite names, ours' list, and their dependencies in
# Debian's kernel, in the form of lsmod's output (what localmodconfig
# reads).
suite_modules() {
	python3 - "$top" <<-'EOF'
	import os
	import sys
	top = sys.argv[1]
	sys.path.insert(0, os.path.join(top, "tests", "harness"))
	from cases import load_suites
	for d in ("suites", "selftest"):
	    for suite in load_suites(os.path.join(top, "tests", d)):
	        print("\n".join(suite.modules))
	EOF
}
suites=$(suite_modules) || die "cannot list the suites' modules"
wanted=$(printf '%s\n' "$suites" | cat - "$d/modules" | grep -v '^#' | grep . | sort -u)
modlist=
for m in $wanted; do
	out=$(modprobe -S "$kver" --show-depends "$m" 2>&1) ||
		die "module $m is not in Debian's kernel $kver: $out"
	modlist+=$(printf '%s\n' "$out" | sed -n 's|^insmod \([^ ]*\).*|\1|p' |
		sed 's|.*/||; s|\.ko.*||; s|-|_|g')$'\n'
	modlist+=$(printf '%s\n' "$out" | sed -n 's|^builtin \([^ ]*\).*|\1|p')$'\n'
done
modlist=$(printf '%s' "$modlist" | grep . | sort -u)

build_kernel() {
	local t=$SECONDS rel want sym val got m
	say "building the debug kernel ($srcver, $kver's configuration trimmed; once per key, long)"
	rm -rf "$kdir"
	mkdir -p "$build"
	nice -n 19 tar -xf "$tarball" -C "$build" --strip-components=1
	printf '%s\n' "Module Size Used by" >"$build/lsmod.txt"
	printf '%s 0 0\n' $modlist >>"$build/lsmod.txt"
	cp "$config" "$build/.config"
	# localmodconfig asks about nothing new on Debian's own configuration
	# of the same source; its defaults are taken if it does
	yes '' | kmake LSMOD="$build/lsmod.txt" localmodconfig \
		>"$kdir/config.log" 2>&1 ||
		{ tail -n 20 "$kdir/config.log" >&2; die "make localmodconfig failed"; }
	(cd "$build" && scripts/kconfig/merge_config.sh -m .config "$d/debug.config") \
		>>"$kdir/config.log" 2>&1 ||
		{ tail -n 20 "$kdir/config.log" >&2; die "merging debug.config failed"; }
	kmake olddefconfig >>"$kdir/config.log" 2>&1 ||
		{ tail -n 20 "$kdir/config.log" >&2; die "make olddefconfig failed"; }
	# what the fragment asks is what Kconfig gave
	while IFS= read -r want; do
		case $want in
		CONFIG_*=*) sym=${want%%=*}; val=$want ;;
		"# CONFIG_"*" is not set") sym=${want#\# }; sym=${sym%% *}; val= ;;
		*) continue ;;
		esac
		got=$(grep -E "^$sym=|^# $sym is not set" "$build/.config" || true)
		if [ -n "$val" ] && [ "$got" != "$val" ]; then
			die "debug.config asks $val, the configuration has '${got:-nothing}'"
		elif [ -z "$val" ] && [ -n "$got" ] && [ "${got#\#}" = "$got" ]; then
			die "debug.config asks $sym off, the configuration has $got"
		fi
	done <"$d/debug.config"
	for sym in SCSI_BFA_FC BE2ISCSI; do
		grep -qx "CONFIG_$sym=m" "$build/.config" ||
			die "the trimmed configuration lost CONFIG_$sym=m"
	done
	say "configured ($(grep -c '=m$' "$build/.config") modules); compiling, log in $kdir/build.log"
	kmake bzImage modules >"$kdir/build.log" 2>&1 ||
		{ tail -n 30 "$kdir/build.log" >&2; die "the build failed; the log is $kdir/build.log"; }
	kmake INSTALL_MOD_PATH="$kdir" INSTALL_MOD_STRIP=1 modules_install \
		>"$kdir/install.log" 2>&1 ||
		{ tail -n 20 "$kdir/install.log" >&2; die "modules_install failed"; }
	rel=$(make -s -C "$build" kernelrelease)
	cp "$build/arch/x86/boot/bzImage" "$kdir/bzImage"
	cp "$build/.config" "$kdir/config"
	echo "$rel" >"$kdir/release"
	# every module the guests want is there, built in or as a file
	for m in $modlist; do
		modprobe -d "$kdir" -S "$rel" --show-depends "$m" >/dev/null 2>&1 ||
			die "module $m is missing from the debug kernel"
	done
	echo "$((SECONDS - t))" >"$kdir/build-seconds"
	touch "$kdir/.done"
	say "built $rel in $((SECONDS - t)) s: $kdir"
}

