# SPDX-License-Identifier: GPL-2.0
#
# Shared by scripts/series and scripts/series-check (sourced, not run): where
# the kernel tree the series applies to lives and what its parts are called.
#
#   top       the checkout the series is generated from
#   srcver    the version of the installed linux-source-6.1 package
#   tarball   its source tarball
#   scache    the per-version cache: the repository and the build trees
#   repo      the bare repository holding the pristine tree and the series
#   basetag   the tag of the pristine tree's commit
#   branch    the series' branch (SERIES_BRANCH overrides)
#   outdir    where the patches and the pull request are written
#             (SERIES_OUT overrides)
#   name, email  the identity the commits are made and signed off with:
#             the checkout's user.name and user.email, else
#             GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL (empty if neither)

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cache=${CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/linux-scsi-hba}
branch=${SERIES_BRANCH:-bfa-be2iscsi}
outdir=${SERIES_OUT:-$top/results/series}

srcver=$(dpkg-query -W -f='${db:Status-Abbrev} ${Version}' linux-source-6.1 2>/dev/null |
	sed -n 's/^ii  *//p')
if [ -z "$srcver" ]; then
	echo "series: linux-source-6.1 is not installed (run scripts/deps)" >&2
	exit 2
fi
tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)
if [ -z "$tarball" ]; then
	echo "series: no /usr/src/linux-source-6.1.tar.* although the package is installed" >&2
	exit 2
fi
scache=$cache/series/$srcver
repo=$scache/linux.git
# A ref name cannot hold Debian's ':' (epoch) or '~': DEP-14's '%' and '_'.
basetag=debian/$(printf '%s' "$srcver" | tr ':~' '%_')

name=$(git -C "$top" config user.name || echo "${GIT_AUTHOR_NAME:-}")
email=$(git -C "$top" config user.email || echo "${GIT_AUTHOR_EMAIL:-}")

# git on the series repository
G() { git --git-dir="$repo" "$@"; }

# remove_builds [-n] DIR/...: remove prepared build trees of
# scripts/series-check, each under its lock (DIR.lock), so that none goes
# while a check builds in it; -n passes over a tree in use instead of
# waiting for it
remove_builds() {
	local wait=1 d
	[ "${1:-}" != -n ] || { wait=; shift; }
	for d in "$@"; do
		d=${d%/}
		[ -d "$d" ] || continue
		(
			if [ -n "$wait" ]; then
				flock 7
			else
				flock -n 7 || exit 0
			fi
			rm -rf "$d"
		) 7>"$d.lock"
	done
}
