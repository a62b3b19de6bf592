#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# autorun-verdict.sh: the autorun's status in a host bash, with the guest
# library and an autorun.sh laid out as ./cut writes it (tests/unit/cut-image.c
# checks that layout; tests/boot/verdict-guest.sh the same in a real guest):
# the first failure of any part wins and later parts still run; an exit 0
# later, a profile's own EXIT trap, a passing test after a failed one do
# not undo it; rapido_fail in a subshell or a test stops the autorun; the
# counts of a pipeline's tests reach rapido_tests_done; an error (exit
# 99, rapido_test_error) fails it too; a test started and
# never ended fails; an interactive shell (bash --rcfile) stays usable and
# exits with the first failure, or with its own status.
. "$(dirname "$0")/../tap.sh"
TAP_ON_FAIL=show_run
export RAPIDO_RUN_DIR=$T/run PATH=$TOP/build/guest:$PATH
mkdir -p "$RAPIDO_RUN_DIR" "$T/autorun"

. "$(dirname "$0")/autorun.inc"
# batch PART...: run it as the init does in batch mode, stdout and stderr in $T/out
batch() {
	autorun "$@"
	run bash -c 'exec 2>&1; exec bash "$1"' _ "$T/autorun.sh" < /dev/null
}
says() { contains "$T/out" "$1"; }
never() { ! grep -qF -- "$1" "$T/out"; }

batch 'false' 'echo after'
check "a failing part: its status; the next part still runs" exits 1
check "  named on the console" says "rapido: FAILED: autorun/01-cmd.sh: exit status 1"
check "  the part after it ran" says after

batch '(exit 3)' 'echo second' 'exit 0'
check "the first failure wins over a later exit 0" exits 3
check "  the parts between ran" says second

batch 'trap "echo cleanup" EXIT; false' 'exit 0'
check "a profile's EXIT trap runs, and the failure is kept" exits 1
check "  the profile's trap ran" says cleanup

batch 'trap "echo int" INT; trap -p INT' 'true'
check "other traps are the builtin's" exits 0
check "  and trap -p shows them" says "trap -- 'echo int' SIGINT"

batch 'rapido_test t1 rapido_fail -s 4 "no disk"; rapido_test t2 echo t2-ran' 'echo extra-ran'
check "rapido_fail in a test: its status" exits 4
check "  the test failed with the message" says "rapido: test t1: FAILED: rapido_fail: no disk"
check "  no later test" never t2-ran
check "  no later part" never extra-ran

batch 'x=$(rapido_fail -s 6 in a subshell); echo same-part' 'echo next-part'
check "rapido_fail in a subshell: its status" exits 6
check "  the part goes on to its end" says same-part
check "  and the autorun stops there" never next-part

batch 'rapido_test a false; rapido_test b true'
check "a failed test, then a passing one: 1" exits 1

batch 'rapido_test a false; rapido_fail -s 5 later'
check "a failed test, then rapido_fail -s 5: the first failure (1) wins" exits 1

batch 'printf "1..3\nnot ok 1 - a\nok 2 - b\nok 3 - c # SKIP no\n" | rapido_test_tap p; rapido_tests_done; echo "done=$?"'
check "tests read in a pipeline are counted" says "rapido: results: 1 passed, 1 failed, 1 skipped"
check "  rapido_tests_done returns 1" says "done=1"

batch 'rapido_test e sh -c "echo no verdict; exit 99"; echo "test=$?"; rapido_test_error h "by hand"; rapido_test p true; rapido_tests_done; echo "done=$?"'
check "a test that exits 99: an error, the run's status 1" exits 1
check "  said on the console with its last line" says "rapido: test e: ERROR: no verdict"
check "  rapido_test returns its 99" says "test=99"
check "  the totals count errors among the failures" says "rapido: results: 1 passed, 2 failed (2 errors), 0 skipped"
check "  rapido_tests_done returns 1" says "done=1"

batch 'rapido_test_tap k -- sh -c "echo 1..1; echo ok 1 - fine; exit 2"; echo "tap=$?"'
check "rapido_test_tap -- CMD: CMD's failure is a failed test" exits 1
check "  named with its status" says "test k failed: sh: exit status 2"
check "  and rapido_test_tap returns 1" says "tap=1"

batch 'rapido_test_tap f "$RAPIDO_RUN_DIR/../no-such-file"'
check "rapido_test_tap FILE that is missing: a failure" exits 1

batch 'rapido_test_start hung; echo profile-end'
check "a test started and never ended fails" exits 1
check "  as did not finish" says "rapido: test hung: FAILED: did not finish"

batch 'rapido_test_start a; rapido_test_pass a; rapido_tests_done'
check "a test started by hand and ended: 0" exits 0

batch 'declare -A m=([k]=v); x=1' 'echo "m=${m[k]} x=$x"'
check "parts share one shell: a part's declares reach the next" says "m=v x=1"

# interactive: bash --rcfile autorun.sh -i, as the init runs it without --batch
autorun 'false' 'echo extra'
run bash --rcfile "$T/autorun.sh" -i <<< $'echo typed-$((6 * 7))\nexit 0'
check "interactive: the shell stays usable after a failed part" contains "$T/out" typed-42
check "  exit 0 from the shell: the first failure" exits 1
check "  it said so before the prompt" contains "$T/err" "the autorun FAILED with status 1"
autorun 'true'
run bash --rcfile "$T/autorun.sh" -i <<< 'exit 7'
# issue 42: leaving the shell is no verdict
check "interactive: a passing autorun, the shell's exit 7: 0" exits 0
run bash --rcfile "$T/autorun.sh" -i <<< $'no-such-command\nexit'
check "interactive: a passing autorun, exit after a failed command: 0" exits 0
check "  blaming nothing on the shell" eval '! grep -q FAILED "$T/err"'
rm -f "$RAPIDO_RUN_DIR"/*
run bash --rcfile "$T/autorun.sh" -i <<< 'echo hi'
check "interactive: a passing autorun, the shell at EOF: 0" exits 0
done_testing
