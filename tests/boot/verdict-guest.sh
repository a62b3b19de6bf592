#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# verdict-guest.sh: in a real guest, no part of the autorun turns a failure
# into exit 0 (issue 25, the guest side):
#  - a profile's failure survives the -x extras after it, which still run;
#  - the first failure wins: a later part's "exit 0" does not undo it, and a
#    profile's own EXIT trap still runs;
#  - rapido_fail inside rapido_test fails and stops the autorun (later
#    tests and parts do not run);
#  - tests counted in a pipeline (CMD | rapido_test_tap) reach
#    rapido_tests_done, and a failed test fails the run though the profile
#    exits 0;
#  - interactive (./vm without --batch, bash --rcfile): after a failed
#    part the shell is usable, and exiting it with 0 gives the failure;
#  - the TAP/KTAP reader: "not ok 1 - regression #123", a failing parent
#    whose subtests passed, a plan stopping at 2 of 5, "Bail out!", and a
#    crashing producer (rapido_test_tap P -- CMD) are each a failed testcase.
. "$(dirname "$0")/lib.sh"

# a real profile whose tests fail (exit 1), then an extra
"$CUT" results-suite -x 'echo extra-ran' > "$T/cut.out" 2>&1
expect_rc "cut results-suite -x" 0 $?
"$VM" --batch --timeout 600 > "$T/console" 2> "$T/err"
expect_rc "a failing profile followed by an extra: the profile's 1" 1 $?
check "  the extra still ran" guest_says "$T/console" extra-ran
diag

# the first failure wins, a later exit 0 does not undo it, the parts between
# still run and a profile's EXIT trap too
"$CUT" simple -x '(exit 3)' -x 'trap "echo cleaned-up" EXIT; echo second-ran' -x 'exit 0' > "$T/cut.out" 2>&1
expect_rc "cut simple -x '(exit 3)' ... -x 'exit 0'" 0 $?
"$VM" --batch --timeout 600 > "$T/console" 2> "$T/err"
expect_rc "the first failure (3) wins over a later exit 0" 3 $?
check "  the part after the failure ran" guest_says "$T/console" second-ran
check "  the part's own EXIT trap ran" guest_says "$T/console" cleaned-up
check "  the console names the failing part" \
	guest_says "$T/console" "rapido: FAILED: autorun/01-cmd.sh: exit status 3"
diag

# rapido_fail inside rapido_test: the test fails and the autorun stops
"$CUT" simple -x 'rapido_test t1 rapido_fail -s 4 "no disk"; rapido_test t2 echo t2-ran' \
	-x 'echo extra-ran' > "$T/cut.out" 2>&1
expect_rc "cut simple -x 'rapido_test t1 rapido_fail ...'" 0 $?
"$VM" --batch --timeout 600 > "$T/console" 2> "$T/err"
expect_rc "rapido_fail in a test: its status 4" 4 $?
check "  the test is failed with the message" \
	guest_says "$T/console" "rapido: test t1: FAILED: rapido_fail: no disk"
check "  no later test ran" sh -c "! grep -q t2-ran '$T/console'"
check "  no later part ran" sh -c "! grep -q extra-ran '$T/console'"
diag

# the reader and the counts, with --results
cat > "$T/tap-cases.sh" <<'SH'
printf '1..2\nnot ok 1 - a\nok 2 - b\n' | rapido_test_tap pipe
rapido_test_tap hash <<'E'
TAP version 13
1..1
not ok 1 - regression #123
E
rapido_test_tap parent <<'E'
KTAP version 1
1..1
  KTAP version 1
  1..2
  ok 1 kid_a
  ok 2 kid_b
not ok 1 suite
E
rapido_test_tap short <<'E'
KTAP version 1
1..5
ok 1 one
ok 2 two
E
rapido_test_tap bail <<'E'
TAP version 13
1..3
ok 1 first
Bail out! the disk went away
ok 2 never
E
rapido_test_tap crash -- sh -c 'echo 1..1; echo ok 1 - fine; kill -SEGV $$'
rapido_test late-pass true
rapido_tests_done
echo "tests_done=$?"
exit 0
SH
want="pipe/a failure
pipe/b pass
hash/regression #123 failure
parent/suite/kid_a pass
parent/suite/kid_b pass
parent/suite failure
short/one pass
short/two pass
short/plan failure
bail/first pass
bail/bail-out failure
crash/fine pass
crash failure
late-pass pass"
"$CUT" simple -f "$T/tap-cases.sh" > "$T/cut.out" 2>&1
expect_rc "cut simple -f tap-cases.sh" 0 $?
"$VM" --batch --timeout 600 --results "$T/res" > "$T/console" 2> "$T/err"
expect_rc "failed tests fail the run though the profile exits 0 after a passing test" 1 $?
check "rapido_tests_done counts the pipeline's tests and every failure" \
	guest_says "$T/console" "rapido: results: 8 passed, 6 failed, 0 skipped"
check "  and returns 1" guest_says "$T/console" "tests_done=1"
check "junit.xml: each reader case with its verdict" \
	test "$(testcases "$T/res/junit.xml")" = "$want"
check "  the plan names what never came" \
	grep -q 'plan 1..5: 2 reported, 3..5 never did' "$T/res/junit.xml"
check "  the bail-out its reason" grep -q 'message="the disk went away"' "$T/res/junit.xml"
check "  the crash its signal" grep -q 'sh: killed by signal 11' "$T/res/junit.xml"
check "the streams reached the console" guest_says "$T/console" "not ok 1 - regression #123"
if [ "$fails" != "$seen_fails" ]; then
	testcases "$T/res/junit.xml" | sed 's/^/# got: /'
fi
diag

# interactive, on a pty (as console-tail.sh): a failed part, then the shell
if command -v script > /dev/null; then
	"$CUT" simple -x 'false' -x 'echo extra-ran' > "$T/cut.out" 2>&1
	expect_rc "cut simple -x false (interactive)" 0 $?
	on_pty 8 "$T/keys" "$T/console" "'$VM' --timeout 600"
	vm=$pty_pid
	# the guest's text: a kernel line (the TSC's late calibration) may follow the prompt
	pty_wait $vm "$T/console" ':~# *$'
	printf '%s\r' 'echo "typed-$((6 * 7))"; exit 0' >&8
	wait $vm
	expect_rc "interactive: the shell's exit 0 after a failed part gives the part's 1" 1 $?
	exec 8>&-
	check "  the shell ran the typed line" guest_says "$T/console" "typed-42"
	check "  the extra ran before the prompt" guest_says "$T/console" "extra-ran"
	check "  the failure was said before the prompt" \
		guest_says "$T/console" "rapido: the autorun FAILED with status 1"
	diag
else
	skip "interactive: the shell's exit 0 after a failed part" "script(1) is not installed"
fi
done_testing
