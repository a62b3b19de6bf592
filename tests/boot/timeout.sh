#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout.sh: a guest that never finishes is killed at --timeout: exit 124,
# no qemu process left, and the VM number is free again.
. "$(dirname "$0")/lib.sh"

"$CUT" simple -x 'echo sleeping-forever; sleep infinity' > /dev/null
expect_rc "cut" 0 $?
start=$(date +%s)
"$VM" --batch --timeout 40 > "$T/console" 2> "$T/err" &
vm=$!
# the check for a qemu left behind must see this one while it runs
for i in $(seq 1 300); do
	[ -n "$(test_qemu)" ] || ! kill -0 $vm 2> /dev/null && break
	sleep 0.1
done
check "the qemu check finds the running VM's qemu" test -n "$(test_qemu)"
wait $vm
expect_rc "timeout code" 124 $?
secs=$(( $(date +%s) - start ))
check "took about the timeout (${secs}s)" test $secs -ge 40 -a $secs -lt 80
check "stderr names the timeout" grep -q "timeout: vm1 killed after 40s" "$T/err"
check "no qemu left running" no_test_qemu
check "slot 1 is free again" flock -n "$VM_LOCK_DIR/vm1.lock" true

# VM_TIMEOUT from rapido.conf works the same
echo 'VM_TIMEOUT=30' > "$RAPIDO_CONF"
"$VM" --batch > "$T/console" 2> "$T/err"
expect_rc "VM_TIMEOUT from rapido.conf" 124 $?
done_testing
