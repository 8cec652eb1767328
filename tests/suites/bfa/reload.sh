# SPDX-License-Identifier: GPL-2.0
# bfa/mainline/reload: 10 times rmmod and modprobe: each time the IOC comes
# up, the ports and every disk return, nothing is reported.
. /harness/suite/lib.sh

bfa_up
bfa_reloads 10
echo "ok: 10 reloads"
