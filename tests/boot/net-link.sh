#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# net-link.sh: two VMs joined by a qemu socket link, no root and no host
# interface: one listens on a loopback port, the other connects; they ping.
. "$(dirname "$0")/lib.sh"

# the peers boot at their own pace: wait for each other, then linger so the
# slower one can still reach this one
"$CUT" net -x 'peer=192.168.156.$((3 - RAPIDO_VM)); for ((i = 0; i < 120; i++)); do ping -c 1 -W 1 $peer > /dev/null && break; done; ping -c 3 -W 5 $peer && echo "LINK-OK from $RAPIDO_VM" && sleep 15' > /dev/null
expect_rc "cut net" 0 $?
# the second VM connects once the first one's qemu listens (link_boot),
# not after a fixed time: a connect to nothing ends that qemu at once
link_boot "$T/c1" "$T/c2" --batch --timeout 240 -- --batch --timeout 240
expect_rc "listening VM pinged its peer" 0 $r1
expect_rc "connecting VM pinged its peer" 0 $r2
check "both report success" test "$(cat "$T/c1" "$T/c2" | grep -ac 'LINK-OK from')" = 2
done_testing
