#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# net-bridge.sh: ./netsetup builds a bridge and TAPs inside a network
# namespace this test makes (never the host's interfaces); two VMs on it
# ping each other by address, and the host end of the bridge pings both.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { echo "# SKIP needs root for network namespaces"; exit 77; }
netns_or_skip
NS=rapido-test-$$
NETSETUP=$TOP/netsetup
cleanup() {
	"$NETSETUP" --netns "$NS" down > /dev/null 2>&1
	ip netns del "$NS" 2> /dev/null
	rm -rf "$T"
}
trap cleanup EXIT

"$NETSETUP" --netns "$NS" up > "$T/out" 2>&1
expect_rc "netsetup up in a fresh namespace" 0 $?
"$NETSETUP" --netns "$NS" up > "$T/out" 2>&1
expect_rc "netsetup up again changes nothing" 0 $?
check "bridge has its address" ip -n "$NS" -br addr show dev rapido-br0 | grep -q 192.168.155.1/24
check "two TAPs on the bridge" test "$(ip -n "$NS" -br link show master rapido-br0 | grep -c rapido-tap)" = 2

# the VMs boot at their own pace: wait for the peer, then linger for it
"$CUT" net -x 'peer=192.168.155.$((100 + 3 - RAPIDO_VM)); ping -c 2 -W 10 192.168.155.1 && for ((i = 0; i < 120; i++)); do ping -c 1 -W 1 $peer > /dev/null && break; done; ping -c 3 -W 5 $peer && echo "PING-OK from $RAPIDO_VM" && sleep 15' > /dev/null
expect_rc "cut net" 0 $?
ip netns exec "$NS" "$VM" --batch --net tap --timeout 240 > "$T/c1" 2>&1 &
p1=$!
ip netns exec "$NS" "$VM" --batch --net tap --timeout 240 > "$T/c2" 2>&1 &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
expect_rc "VM 1 pinged the host end and VM 2" 0 $r1
expect_rc "VM 2 pinged the host end and VM 1" 0 $r2
check "both report success" test "$(cat "$T/c1" "$T/c2" | grep -ac 'PING-OK from')" = 2
check "MACs are stable and locally administered" grep -aq '02:72:70:00:0[12]:00' <(ip netns exec "$NS" cat /proc/net/arp 2>/dev/null; cat "$T/c1" "$T/c2")

"$NETSETUP" --netns "$NS" down > "$T/out" 2>&1
expect_rc "netsetup down" 0 $?
check "bridge and TAPs gone" test -z "$(ip -n "$NS" -br link | grep rapido-)"
"$NETSETUP" --netns "$NS" down > "$T/out" 2>&1
expect_rc "netsetup down again is fine" 0 $?
done_testing
