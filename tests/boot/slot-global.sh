#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# slot-global.sh: VM numbers are unique per machine, not per state dir: two
# ./vm with different VM_STATE_DIRs at once get different numbers (and so
# different TAPs, MACs and hostnames), through the default lock directory.
. "$(dirname "$0")/lib.sh"
unset VM_LOCK_DIR

"$CUT" simple -x 'echo "first-up"; for ((i = 0; i < 600; i++)); do [ -e /host/second-done ] && break; sleep 0.2; done; echo first-done' > /dev/null
expect_rc "cut" 0 $?
cp "$DRACUT_OUT" "$T/image1"
"$CUT" simple -x 'echo second-done' > /dev/null
mkdir -p "$T/share"
VM_STATE_DIR=$T/s1 "$VM" "$T/image1" --batch --timeout 300 --share "$T/share" > "$T/c1" 2>&1 &
pid1=$!
for _ in $(seq 300); do
	guest_says "$T/c1" first-up && break
	sleep 1
done
VM_STATE_DIR=$T/s2 "$VM" --batch --timeout 300 > "$T/c2" 2>&1
expect_rc "second VM, other state dir" 0 $?
touch "$T/share/second-done"
wait $pid1
expect_rc "first VM" 0 $?
h1=$(grep -ao 'up on rapido[0-9]*' "$T/c1" | head -n 1)
h2=$(grep -ao 'up on rapido[0-9]*' "$T/c2" | head -n 1)
check "both booted ($h1, $h2)" test -n "$h1" -a -n "$h2"
check "and got different numbers" test "$h1" != "$h2"
done_testing
