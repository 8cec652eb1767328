# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the series/ cases: a checkout without a git identity (a fresh
# CI clone, say) still exports the series, made and signed off by a name
# that says it is a test.
if ! git config user.email >/dev/null || ! git config user.name >/dev/null; then
	export GIT_AUTHOR_NAME="series test" GIT_AUTHOR_EMAIL=series-test@localhost
	export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
fi
