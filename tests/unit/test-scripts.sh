#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test-scripts.sh: the shell tests themselves hand their checks the exit
# status they meant. In `expect_rc "cut ($(( $(date +%s) - start ))s)" 0 $?`
# bash runs the command substitution before it expands $?, so $? is
# date's 0 and a failed command passes: the status must be saved first
# (rc=$?). Any check whose arguments hold both a $(...) (not \$(...),
# text for a guest) and a bare $? is that mistake.
. "$(dirname "$0")/../tap.sh"
shopt -s nullglob
re='^[[:space:]]*(expect_rc|check|ok|not_ok)[[:space:]].*(^|[^\\])\$\(.*[[:space:]]\$\?([[:space:]]|$)'

for f in "$TOP"/tests/*.sh "$TOP"/tests/*/*.sh "$TOP"/tests/*/*.inc; do
	grep -nE "$re" "$f" | sed "s|^|${f#"$TOP"/}:|"
done > "$T/bad"
check "no check is handed a \$? that a \$(...) on its line has reset" test ! -s "$T/bad"
sed 's/^/#   /' "$T/bad"

# bash does reset $? so; the pattern finds the mistake and spares the fix
run bash -c 'false; set -- "$(true)" $?; echo "$2"'
check "bash: \$? after a \$(...) in one command is the substitution's" out_is 0
printf 'false\nexpect_rc "x ($(date +%%s))" 0 $?\n' > "$T/mistake.sh"
printf 'false\nrc=$?\nexpect_rc "x ($(date +%%s))" 0 $rc\n' > "$T/fixed.sh"
check "the mistake is found" grep -qE "$re" "$T/mistake.sh"
check "the fix is not" sh -c '! grep -qE "$1" "$2"' _ "$re" "$T/fixed.sh"
done_testing
