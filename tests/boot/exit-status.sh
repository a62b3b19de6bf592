#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# exit-status.sh: ./vm exits with the guest scripts' status; -x and -f
# extras run after the profile, in the order given, in one shell.
. "$(dirname "$0")/lib.sh"

printf 'echo extra-file-ran; FROM_FILE=yes\n' > "$T/extra.sh"
out=$("$CUT" simple -x 'echo extra-one' -f "$T/extra.sh" -x 'echo "file var: $FROM_FILE"; exit 7' 2>&1)
expect_rc "cut with -x -f -x" 0 $?
# the release the profile prints: the kernel ./cut says it packed
rel=$(echo "$out" | sed -n 's/.*kernel \(.*\)$/\1/p')
check "cut named its kernel (${rel:-none})" test -n "$rel"
"$VM" --batch --timeout 300 > "$T/console" 2>&1
expect_rc "vm exits with the guest's status" 7 $?
order=$(guest_text "$T/console" | grep -E '^(rapido: .* up on|extra-one|extra-file-ran|file var: yes)' | tr '\n' '|')
check "profile, then extras in command-line order, same shell ($order)" \
	test "$order" = "rapido: $rel up on rapido1|extra-one|extra-file-ran|file var: yes|"

"$CUT" simple -x 'false' > /dev/null
"$VM" --batch --timeout 300 > "$T/console" 2>&1
expect_rc "a failing last command gives its status" 1 $?

"$CUT" simple -x 'kill -9 $$' > /dev/null
"$VM" --batch --timeout 300 > "$T/console" 2>&1
expect_rc "a shell killed by SIGKILL reports 128+9" 137 $?

# issue 43 #8: the kernel's OOM killer takes the autorun's shell (a string
# doubled until it outgrows the guest's memory): 137, and
# --results' junit.xml names the OOM kill, not just "signal 9"
"$CUT" simple -x 'x=a; while :; do x=$x$x; done' > /dev/null
"$VM" --batch --timeout 300 --results "$T/res" > "$T/console" 2>&1
expect_rc "a shell the OOM killer took reports 128+9" 137 $?
check "  the console has the kernel's line" grep -aq "Out of memory: Killed process" "$T/console"
check "  junit.xml says killed by the OOM killer" \
	grep -q 'killed by the OOM killer (Out of memory: Killed process [0-9]* (bash)' "$T/res/junit.xml"
done_testing
