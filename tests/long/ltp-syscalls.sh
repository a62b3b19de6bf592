#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ltp-syscalls.sh (long): LTP's whole syscalls runtest in the ltp profile
# (tests/suite-tree ltp-syscalls: every test of testcases/kernel/syscalls,
# built once and cached: 29 minutes on 2 busy cores, 409 MiB installed;
# the run, some 1500 tests at 3 to 6 s each under TCG, two hours and more:
# too long for CI, whose boot tier runs tests/boot/ltp-real.sh's subset). What Debian's kernel fails, or TCG
# makes too slow, fails here as it would for a user: the proof is that
# every line of the runtest file is a testcase of junit.xml with the
# verdict the guest printed for it, none lost and none "did not finish",
# and that ./vm's exit status is the verdict's (0 or 1, no timeout or
# crash).
# tests/run timeout: 16000s
. "$(dirname "$0")/../boot/lib.sh"

installed_kernel_or_skip
suite_tree ltp-syscalls
printf 'LTP_SRC=%s\nLTP_RUNTEST=syscalls\nLTP_TIMEOUT_MUL=4\n' "$SUITE" > "$RAPIDO_CONF"
start=$(date +%s)
"$CUT" ltp > "$T/cut.out" 2>&1
rc=$?	# (the $(...) below sets $? too)
expect_rc "cut ltp, every syscalls test ($(( $(date +%s) - start ))s)" 0 $rc || sed 's/^/# /' "$T/cut.out"
start=$(date +%s)
"$VM" --batch --memory 4G --timeout 14400 --results "$T/res" > "$T/console" 2> "$T/err"
rc=$?
check "./vm's exit status is a verdict, 0 or 1 ($rc, $(( $(date +%s) - start ))s)" \
	test "$rc" = 0 -o "$rc" = 1
testcases "$T/res/junit.xml" | LC_ALL=C sort > "$T/got"
awk '!/^#/ && NF { print "syscalls/" $1 }' "$SUITE/runtest/syscalls" | LC_ALL=C sort > "$T/lines"
check "each runtest line is a testcase ($(wc -l < "$T/lines") lines)" \
	same_file "$T/lines" <(cut -d' ' -f1 "$T/got")
check "junit.xml holds the verdict the guest printed for each" \
	same_file <(console_verdicts "$T/console") "$T/got"
check "no test was cut short" sh -c '! grep -q "did not finish" "$0"' "$T/res/junit.xml"
echo "# $(grep -c ' pass$' "$T/got") passed, $(grep -c ' failure$' "$T/got") failed," \
	"$(grep -c ' error$' "$T/got") errors (TBROK), $(grep -c ' skipped$' "$T/got") skipped"
done_testing
