#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# parallel.sh: VMs started at once get distinct numbers (hostnames) and all
# exit 0. PARALLEL_VMS sets how many (default 4).
. "$(dirname "$0")/lib.sh"
N=${PARALLEL_VMS:-4}

"$CUT" simple -x 'echo "I am $(cat /proc/sys/kernel/hostname) vm=$RAPIDO_VM"' > /dev/null
expect_rc "cut" 0 $?
pids=()
for i in $(seq "$N"); do
	"$VM" --batch --timeout 600 > "$T/console.$i" 2>&1 &
	pids+=($!)
done
allok=1
for i in $(seq "$N"); do
	wait "${pids[$((i - 1))]}" || { allok=0; echo "# VM $i failed: $?"; tail -5 "$T/console.$i"; }
done
check "all $N VMs exit 0" test $allok = 1
names=$(for c in "$T"/console.*; do guest_text "$c"; done | sed -n 's/^I am \(rapido[0-9]*\) vm=.*/\1/p' | sort -u)
count=$(echo "$names" | grep -c rapido)
check "$N distinct VM numbers ($(echo $names))" test "$count" = "$N"
want=$(seq "$N" | sed 's/^/rapido/' | sort)
check "numbers are 1..$N" test "$names" = "$want"
done_testing
