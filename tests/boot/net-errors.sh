#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# net-errors.sh: network configuration errors are caught before qemu starts.
. "$(dirname "$0")/lib.sh"

"$CUT" simple > /dev/null
expect_rc "cut" 0 $?
err() {
	local d=$1 pat=$2
	shift 2
	"$@" > "$T/out" 2>&1
	local rc=$?
	if [ $rc -ne 0 ] && grep -q -- "$pat" "$T/out"; then ok "$d"; else not_ok "$d (exit $rc)"; sed 's/^/# /' "$T/out"; fi
}
err "a TAP that does not exist" "TAP device rapido-nosuch0 does not exist" "$VM" --batch --tap rapido-nosuch0
err "default TAP for the VM number is looked for" "TAP device rapido-tap1 does not exist" "$VM" --batch --net tap
echo 'BR_ADDR=192.168.155.300/24' > "$RAPIDO_CONF"
err "bad BR_ADDR in netsetup" "BR_ADDR.*expected an IPv4 address" "$TOP/netsetup" --dry-run up
echo 'VM1_IP=10.1.2/24' > "$RAPIDO_CONF"
err "bad per-VM address" "$RAPIDO_CONF:1: VM1_IP: expected an IPv4 address" "$VM" --dry-run --link-listen 127.0.0.1:5000
: > "$RAPIDO_CONF"
err "bad --net mode" "expected tap, user or none" "$VM" --batch --net bridge
err "bad link address" "expected HOST:PORT" "$VM" --batch --link-connect nowhere
err "bad port forward" "port forward 'tcp:2222'" "$VM" --batch --hostfwd tcp:2222
err "unknown TAP_USER" "TAP_USER: no such user 'rapido-no-such-user'" env TAP_USER=rapido-no-such-user "$TOP/netsetup" --dry-run up
check "no qemu was started" test ! -s "$VM_STATE_DIR/vm1.log"
done_testing
