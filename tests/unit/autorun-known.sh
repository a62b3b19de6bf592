#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# autorun-known.sh: the guest library's side of known failures and
# re-runs, in a host bash with an autorun.sh laid out as ./cut writes it
# (as autorun-verdict.sh): with RAPIDO_RERUN_FAILURES a failed rapido_test
# runs again at once until it passes, each run a record, each re-run
# said ("R1 rerun NAME N"); an autorun whose every failure was a failed
# test leaves the state the guest init reads for its status record
# (tools/init: rapido.status holds the exit status, no rapido.status-other),
# one with any other failure (rapido_fail, a failing command that ends a
# part, a test in a pipeline whose part then fails) never does, and no
# record says it (a test could write that one too); a TAP stream says it
# cannot re-run one test.
. "$(dirname "$0")/../tap.sh"
TAP_ON_FAIL=show_run
export RAPIDO_RUN_DIR=$T/run PATH=$TOP/build/guest:$PATH RAPIDO_RESULTS_PORT=$T/port
mkdir -p "$RAPIDO_RUN_DIR" "$T/autorun"

. "$(dirname "$0")/autorun.inc"
# batch PART...: autorun PART... run as the init does in batch mode, its
# records in $RAPIDO_RESULTS_PORT, its output in $T/out
batch() {
	rm -f "$T"/flag*
	: > "$RAPIDO_RESULTS_PORT"
	autorun "$@"
	run bash -c 'exec 2>&1; exec bash "$1"' _ "$T/autorun.sh" < /dev/null
}
says() { contains "$T/out" "$1"; }
records() { grep -c "^R1 $1 $2\( \|$\)" "$RAPIDO_RESULTS_PORT"; }
# as tools/init/results.c's init_tests_only reads it, once the autorun is gone
tests_only() {
	local code
	! grep -q "^R1 failures" "$RAPIDO_RESULTS_PORT" || return 1
	[ ! -e "$RAPIDO_RUN_DIR/rapido.status-other" ] && [ -s "$RAPIDO_RUN_DIR/rapido.status" ] &&
		read -r code _ < "$RAPIDO_RUN_DIR/rapido.status" && [ "$code" = "$rc" ]
}
not_tests_only() { ! tests_only; }

# fails on its first run only: a flag file in $T
FLAKY="rapido_test t/flaky sh -c '[ -e $T/flag ] && exit 0; : > $T/flag; echo first; exit 1'"

RAPIDO_RERUN_FAILURES=2 batch "$FLAKY"
check "a test that fails once, re-runs 2: the autorun keeps the failure" exits 1
check "  two runs recorded: a fail, then a pass" test "$(records fail t/flaky)/$(records pass t/flaky)" = 1/1
check "  the re-run said so between them" test "$(grep -x -A1 'R1 rerun t/flaky 1' "$RAPIDO_RESULTS_PORT")" = \
	"R1 rerun t/flaky 1
R1 start t/flaky"
check "  the console says it" says "rapido: test t/flaky: passed on re-run 1 of 2: flaky"
check "  its failures were all tests'" tests_only

RAPIDO_RERUN_FAILURES=2 batch "rapido_test t/bad false"
check "a test failing every run: 3 runs" test "$(records fail t/bad)" = 3
check "  tests' failures only, as the part ends with the test" tests_only

batch "$FLAKY"
check "without re-runs: one run, failed" test "$(records fail t/flaky)/$(records pass t/flaky)" = 1/0
check "  the failure is the test's" tests_only

batch "rapido_test t/bad false" "rapido_tests_done"
check "a part ending with rapido_tests_done: the tests'" tests_only

batch "rapido_test t/bad false; false; echo x; (exit 3)"
check "a part that fails by a command of its own: not the tests'" exits 1
check "  no 'failures tests'" not_tests_only

# a command after the test that fails with the test's own status: the
# part's status alone cannot tell them apart, so the guest must see that
# a command ran after the test (at the part's top, or in a profile function)
batch "rapido_test t/bad false; false"
check "a failing command after a failed test, the same status: not the tests'" not_tests_only
batch 'run_all() { rapido_test t/bad false; false; }
run_all'
check "  the same in a profile function" not_tests_only
batch 'run_all() { rapido_test t/bad false; echo done; false; }
run_all'
check "  the same after an echo, in a profile function" not_tests_only
batch 'rapido_test t/bad false; rc=$?; exit $rc'
check "  exit \$? after the test: a command of the part's own" not_tests_only
batch '_rapido_eval_user "rapido_test t/bad false; false"'
check "  the same in a user's command the library evaluates (FSTESTS_AUTORUN_CMD)" exits 1
check "    not the tests'" not_tests_only
batch '_rapido_eval_user "rapido_test t/bad false"'
check "a user's command the library evaluates, ending with the failed test: the tests'" tests_only
batch 'run_all() { rapido_test t/a true; rapido_test t/bad false; }
run_all'
check "a profile function ending with the failed test: the tests'" tests_only
batch 'my_cmd() { echo in; false; }
rapido_test t/bad my_cmd'
check "a test whose command is a profile function: the tests'" tests_only
batch 'cleanup() { echo cleanup; }
trap cleanup EXIT
rapido_test t/bad false'
check "a profile EXIT trap that passes: the tests'" tests_only
batch 'trap "echo profile-debug" DEBUG
rapido_test t/bad false'
check "a profile's own DEBUG trap runs" says "profile-debug"
check "  and the failure is still the tests'" tests_only

batch "rapido_test t/bad false" "rapido_fail boom"
check "rapido_fail after a failed test: not the tests'" not_tests_only

batch "rapido_test t/bad false | cat"
check "a test in a pipeline, the part passing: the test's failure only" tests_only
batch "rapido_test t/bad false | false"
check "a test in a pipeline whose part fails: not known to be the tests'" not_tests_only

batch "rapido_test t/ok true" "exit 2"
check "exit 2 after a passing test: not the tests'" exits 2
check "  no 'failures tests'" not_tests_only

batch "rapido_test t/ok true"
check "a passing autorun: no failures record" not_tests_only
check "  exits 0" exits 0

RAPIDO_RERUN_FAILURES=3 batch 'rapido_test_tap tap <<EOF
TAP version 13
1..1
not ok 1 - one
EOF'
check "a TAP stream with re-runs asked: says it cannot re-run one test" \
	says "rapido: tap: a TAP/KTAP suite cannot re-run one test: --rerun-failures 3 does not apply"
check "  ran once" test "$(records fail tap/one)" = 1
check "  its failure is a test's" tests_only

RAPIDO_RERUN_FAILURES=junk batch "rapido_test t/bad false"
check "a RAPIDO_RERUN_FAILURES that is no number: no re-run" test "$(records fail t/bad)" = 1

done_testing
