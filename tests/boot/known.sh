#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# known.sh: known failures and flaky tests end to end, on one image of
# rapido_test tests whose failures the fixture sets (known-suite), booted
# twice; the classification is the host's, so the first boot's records
# are classified again by ./vm --merge-results with other files:
#  A. --rerun-failures 2 --known-failures K1: known/flaky fails once, then
#     passes (flaky, 1 failure in 2 runs), known/fails is a known failure,
#     known/fixed is fixed, known/expired is known until 2099: exit 0;
#     junit.xml (valid) and results.tap say each.
#  B. no re-runs, --known-failures K2 whose known/expired entry expired in
#     2020 and --write-known-failures W: known/expired is a new failure
#     named K2:LINE, exit 1; W refreshed (its comment kept, known/fixed
#     marked fixed, the failures added).
#  A's records again: without the known/fails entry exit 1, its test a
#  failure; --strict exits 1 (the fixed test); --flaky=fail exits 1; K1
#  alone exits 0. A malformed file stops ./vm before it boots.
#  C. rapido_test c/known false; false, c/known known: exit 1.
#  D. the record sequence (issue 40: verdicts that lie), one image whose
#     case is chosen on the kernel command line (rt.case=):
#     dup: rapido_test dup false; rapido_test dup true, no --rerun-failures:
#       exit 1 with and without --results, dup failed and dup#2 passed;
#       merged exit 1, compared: a new failure, not "newly flaky".
#     pass: rapido_test t false, then "R1 pass t" written by hand: exit 1.
#     nul: "R1 pass t 0 -" and a NUL by hand in t, which fails: 125, the
#       NUL named (it would cut off the library's "R1 fail t" after it).
#     trap: t failed, then the profile's EXIT trap ran "exit 0": exit 1
#       without --results too (the init reports the kept failure), and
#       a known failure under --results (exit-tests): 0.
#     s256: rapido_fail -s 256 (bash exits 256 as 0): exit 1.
#     forge: t failed, then a status record "exit 0" written by hand to
#       ttyS1 and /dev/ttyS1 removed: exit 1 (the init holds the port
#       from boot, so its record comes last).
#     failures: "R1 failures tests" written by hand, then a failed known
#       test and rapido_fail: the forged line refused by name, exit 125.
. "$(dirname "$0")/lib.sh"

XSD=$TOP/tests/fixtures/junit.xsd
printf '# known failures of the fixture\nknown/fails # https://bugs.example/42\n' > "$T/k1"
printf 'known/fixed # https://bugs.example/7\nknown/expired until=2099-12-31 # https://bugs.example/9\n' >> "$T/k1"
printf 'known/fails # https://bugs.example/42\nknown/fixed\nknown/flaky # flaky\n' > "$T/k2"
printf 'known/expired until=2020-06-30 # https://bugs.example/9\n' >> "$T/k2"

"$CUT" known-suite > "$T/cut.out" 2>&1
expect_rc "cut known-suite" 0 $?
printf 'known/ok\nknown/bad until=2024-13-01 # not a date\n' > "$T/bad"
run_err "a malformed known-failure line: FILE:LINE, before anything boots" \
	"$T/bad:2: 'until=2024-13-01': expected until=YYYY-MM-DD" \
	"$VM" --batch --results "$T/never" --known-failures "$T/bad"
check "  no results dir was made: nothing booted" test ! -e "$T/never"
run_err "a range that ends before it starts" "$T/range:1: '6.1..5.10': the range ends" \
	sh -c 'printf "x 6.1..5.10\n" > "$1"; exec "$2" --batch --results "$3" --known-failures "$1"' \
	_ "$T/range" "$VM" "$T/never"
run_err "--known-failures without --results" "give --results" "$VM" --batch --known-failures "$T/k1"


start=$(date +%s)
"$VM" --batch --timeout 600 --results "$T/a" --rerun-failures 2 --known-failures "$T/k1" \
	> "$T/console" 2> "$T/err"
rc=$?
expect_rc "A: every failure known or flaky: exit 0 ($(( $(date +%s) - start ))s)" 0 $rc
check "A: junit.xml is valid" xmllint --noout --schema "$XSD" "$T/a/junit.xml"
check "A: the verdicts" test "$(testcases "$T/a/junit.xml")" = "known/pass pass
known/flaky pass
known/fails skipped
known/fixed pass
known/expired skipped"
check "A: the guest re-ran known/flaky" guest_says "$T/console" "rapido: test known/flaky: passed on re-run 1 of 2: flaky"
check "A: and known/fails twice more" guest_says "$T/console" "rapido: test known/fails: re-run 2 of 2"
check "A: the init's status record said its failures were all tests'" \
	grep -q "every failed test is a known failure or flaky" "$T/err"
check "A: and no record did (a test could write one)" eval '! grep -q "^R1 failures" "$T/a/results.txt"'
check "A: each re-run was said" grep -qx "R1 rerun known/flaky 1" "$T/a/results.txt"
check "A: JUnit: the known failure skipped with its reason" \
	grep -q '<skipped message="known failure: https://bugs.example/42"/>' "$T/a/junit.xml"
check "A: JUnit: and a property naming its entry" \
	grep -q "<property name=\"known-failure-entry\" value=\"$T/k1:2\"/>" "$T/a/junit.xml"
check "A: JUnit: the flaky rate as a property" grep -q '<property name="flaky" value="1/2"/>' "$T/a/junit.xml"
check "A: JUnit: and in system-out" grep -q '<system-out>flaky: 1 failure in 2 runs' "$T/a/junit.xml"
check "A: JUnit: fixed" grep -q '<property name="fixed" value="https://bugs.example/7"/>' "$T/a/junit.xml"
check "A: JUnit totals: no failure" \
	grep -q '<testsuites name="rapido" tests="5" failures="0" errors="0" skipped="2"' "$T/a/junit.xml"
check "A: KTAP: not ok # TODO known failure" \
	grep -qx '    not ok 3 known/fails # TODO known failure: https://bugs.example/42' "$T/a/results.tap"
check "A: KTAP: the flaky rate" grep -qx '    # flaky: 1 failure in 2 runs' "$T/a/results.tap"
check "A: KTAP: the suite passes" grep -qx 'ok 1 known-suite' "$T/a/results.tap"
check "A: the summary" grep -q "results: 5 tests, 3 passed, 0 failed, 2 skipped (2 known failures, 1 flaky, 1 fixed)" "$T/err"
check "A: meta exit 0" grep -qx "R1 meta exit 0" "$T/a/results.txt"
check "A: run.json names K1 and its sha256" grep -qF \
	"\"known_failures_sha256\": \"$(sha256sum < "$T/k1" | cut -c1-64)\"" "$T/a/run.json"
diag

printf '# the team list\nknown/fixed # https://bugs.example/7\n' > "$T/w"
start=$(date +%s)
"$VM" --batch --timeout 600 --results "$T/b" --known-failures "$T/k2" --write-known-failures "$T/w" \
	> "$T/console" 2> "$T/err"
rc=$?
expect_rc "B: an expired entry's failure is new: exit 1 ($(( $(date +%s) - start ))s)" 1 $rc
check "B: stderr names the entry's FILE:LINE" grep -q "$T/k2:4: the known failure of known/expired expired on 2020-06-30" "$T/err"
check "B: JUnit: the failure names it too" \
	grep -q "<failure message=\"the known failure $T/k2:4 expired on 2020-06-30" "$T/b/junit.xml"
check "B: no re-run: known/flaky failed once, a known failure in K2" \
	test "$(testcases "$T/b/junit.xml" | grep flaky)" = "known/flaky skipped"
check "B: meta tests-only (the status is the tests')" grep -qx "R1 meta tests-only 1" "$T/b/results.txt"
check "B: W keeps its comment" grep -qx "# the team list" "$T/w"
check "B: W marks known/fixed fixed" grep -q "^# fixed: passed on .*: known/fixed # https://bugs.example/7$" "$T/w"
check "B: W gets the failures" test "$(grep -c '^known/\(fails\|flaky\|expired\) # failed on ' "$T/w")" = 3
check "B: W parses as a known-failure file" "$VM" --merge-results --known-failures "$T/w" "$T/mw" "$T/b"
diag

# A's records classified again
printf 'known/fixed\nknown/expired\n' > "$T/k3"
"$VM" --merge-results --known-failures "$T/k3" "$T/m1" "$T/a" > "$T/out" 2> "$T/merr"
expect_rc "A again, without the known/fails entry: exit 1" 1 $?
check "  known/fails is a failure" grep -q "^known/fails failure$" <(testcases "$T/m1/junit.xml")
"$VM" --merge-results "$T/m0" "$T/a" > "$T/out" 2> "$T/merr"
expect_rc "A again, no file at all: exit 1" 1 $?
"$VM" --merge-results --known-failures "$T/k1" "$T/m2" "$T/a" > "$T/out" 2> "$T/merr"
expect_rc "A again with K1: exit 0" 0 $?
check "  the flaky rate summed in summary.txt" grep -qx "flaky: known/flaky: 1 failure in 2 runs" "$T/m2/summary.txt"
"$VM" --merge-results --known-failures "$T/k1" "$T/m3" "$T/a" "$T/a" > "$T/out" 2> "$T/merr"
check "  two runs merged: the rates add up" grep -qx "flaky: known/flaky: 2 failures in 4 runs" "$T/m3/summary.txt"
"$VM" --merge-results --strict --known-failures "$T/k1" "$T/m4" "$T/a" > "$T/out" 2> "$T/merr"
expect_rc "A again, --strict: the fixed test fails: exit 1" 1 $?
"$VM" --merge-results --flaky=fail --known-failures "$T/k1" "$T/m5" "$T/a" > "$T/out" 2> "$T/merr"
expect_rc "A again, --flaky=fail: exit 1" 1 $?
printf 'known/fails\nknown/fixed\nknown/flaky\nknown/expired until=2020-01-01\n' > "$T/k4"
"$VM" --merge-results --known-failures "$T/k4" "$T/m6" "$T/a" > "$T/out" 2> "$T/merr"
expect_rc "A again, the known/expired entry expired: exit 1" 1 $?
check "  named FILE:LINE" grep -q "$T/k4:4: the known failure of known/expired expired" "$T/merr"
diag

# C. a command that fails after a known failure, in the same part, with
# the test's own status: the part's status alone looks like the test's;
# the run must still fail (no "failures tests")
"$CUT" simple -x 'rapido_test c/known false; false' > "$T/cut.out" 2>&1
expect_rc "cut simple -x 'rapido_test c/known false; false'" 0 $?
printf 'c/known # https://bugs.example/1\n' > "$T/k5"
start=$(date +%s)
"$VM" --batch --timeout 600 --results "$T/c" --known-failures "$T/k5" > "$T/console" 2> "$T/err"
rc=$?
expect_rc "C: the failing command after the known failure fails the run ($(( $(date +%s) - start ))s)" 1 $rc
check "C: c/known is the known failure" grep -qx "c/known skipped" <(testcases "$T/c/junit.xml")
check "C: and the run itself failed: a failure testcase" grep -q " failure$" <(testcases "$T/c/junit.xml")
testcases "$T/c/junit.xml" | sed "s/^/# C: /"
check "C: the guest did not say its failures were all tests'" \
	eval '! grep -q "every failed test is a known failure or flaky" "$T/err"'
diag

# D. the record sequence
"$CUT" simple -x 'case $(< /proc/cmdline) in
*rt.case=dup*) rapido_test dup false; rapido_test dup true ;;
*rt.case=pass*) rapido_test t false; printf "R1 pass t 0 -\n" >> "$RAPIDO_RESULTS_PORT" ;;
*rt.case=nul*) rapido_test t sh -c "printf \"R1 pass t 0 -\\0\" >> \$RAPIDO_RESULTS_PORT; exit 1" ;;
*rt.case=trap*) trap "echo clean-up; exit 0" EXIT; rapido_test t false ;;
*rt.case=s256*) rapido_fail -s 256 boom ;;
*rt.case=forge*)
	# a status record of its own (the nonce is on /proc/cmdline), then no /dev/ttyS1
	crc32() {
		local s=$1 c=0xffffffff i k b
		for ((i = 0; i < ${#s}; i++)); do
			printf -v b %d "'"'"'${s:i:1}"
			c=$((c ^ b))
			for ((k = 0; k < 8; k++)); do c=$(((c >> 1) ^ (0xedb88320 & -(c & 1)))); done
		done
		printf %08x $((~c & 0xffffffff))
	}
	rapido_test t false
	n=$(< /proc/cmdline); n=${n#*rapido.nonce=}; n=${n%% *}
	r="rapido-status v1 $n exit 0 - "
	printf "\n%scrc=%s\n" "$r" "$(crc32 "$r")" > /dev/ttyS1
	rm -f /dev/ttyS1 ;;
*rt.case=failures*)
	printf "R1 failures tests\n" >> "$RAPIDO_RESULTS_PORT"
	rapido_test c/known false
	rapido_fail boom ;;
esac' > "$T/cut.out" 2>&1
expect_rc "cut simple -x 'case \$(< /proc/cmdline) ...'" 0 $?
"$VM" --batch --timeout 600 --append rt.case=dup > "$T/console" 2> "$T/err"
expect_rc "D: dup failed, then passed: exit 1 without --results" 1 $?
"$VM" --batch --timeout 600 --append rt.case=dup --results "$T/d1" > "$T/console" 2> "$T/err"
expect_rc "D: and with --results, no --rerun-failures: exit 1, not flaky" 1 $?
check "D: dup failed, dup#2 passed" test "$(testcases "$T/d1/junit.xml")" = "dup failure
dup#2 pass"
check "D: junit.xml says why it is dup#2" grep -q "an earlier test of this run is named dup too" "$T/d1/junit.xml"
"$VM" --merge-results "$T/md" "$T/d1" > "$T/out" 2> "$T/merr"
expect_rc "D: merged: exit 1" 1 $?
mkdir -p "$T/d0"
printf 'R1 meta suite simple\nR1 start dup\nR1 pass dup 0 -\nR1 meta exit 0\n' > "$T/d0/results.txt"
"$VM" --compare-results "$T/d0" "$T/d1" > "$T/out" 2> "$T/cerr"
expect_rc "D: compared with a run where dup passed: regressed" 1 $?
check "D: a new failure, not newly flaky" grep -qx "new failure: dup: pass -> fail: exit status 1" "$T/out"
"$VM" --batch --timeout 600 --append rt.case=pass --results "$T/d2" > "$T/console" 2> "$T/err"
expect_rc "D: 'R1 pass t' by hand after t failed: exit 1" 1 $?
check "D: t failed, the hand-written pass is t#2" test "$(testcases "$T/d2/junit.xml")" = "t failure
t#2 pass"
printf 't\n' > "$T/k5"
# a NUL ends the forged pass: the library's "R1 fail t" glued after it was cut off
"$VM" --batch --timeout 600 --append rt.case=nul --results "$T/d4" > "$T/console" 2> "$T/err"
expect_rc "D: 'R1 pass t 0 -' and a NUL by hand, then t failed: exit 125, not 0" 125 $?
check "D: the record with the NUL named" grep -q "the guest's record 3 ('R1 pass t 0 -.*'): a NUL byte" "$T/err"
"$VM" --merge-results "$T/md4" "$T/d4" > "$T/out" 2> "$T/merr"
expect_rc "D: merged: exit 1" 1 $?
# the first failure sticks, whatever ends bash (the plain status is the init's record alone)
"$VM" --batch --timeout 600 --append rt.case=trap > "$T/console" 2> "$T/err"
expect_rc "D: t failed, then the profile's EXIT trap ran 'exit 0': exit 1 without --results" 1 $?
check "D: the init said why" grep -q "the autorun exited 0 after the guest library kept a failure" "$T/console"
"$VM" --batch --timeout 600 --append rt.case=trap --results "$T/d5" --known-failures "$T/k5" \
	> "$T/console" 2> "$T/err"
expect_rc "D: and with --results, t a known failure: exit 0 (the failure was a test's)" 0 $?
"$VM" --batch --timeout 600 --append rt.case=s256 > "$T/console" 2> "$T/err"
expect_rc "D: rapido_fail -s 256 (bash would exit 0): exit 1" 1 $?
"$VM" --batch --timeout 600 --append rt.case=forge > "$T/console" 2> "$T/err"
expect_rc "D: t failed, a forged status record, /dev/ttyS1 removed: exit 1, the init's record" 1 $?
printf 'c/known # https://bugs.example/1\n' > "$T/k6"
"$VM" --batch --timeout 600 --append rt.case=failures --results "$T/d3" --known-failures "$T/k6" \
	> "$T/console" 2> "$T/err"
expect_rc "D: 'R1 failures tests' by hand, then a known failure and rapido_fail: exit 125" 125 $?
check "D: the forged record named" grep -q "the guest's record 2 ('R1 failures tests'): 'failures' is the guest init's to say" "$T/err"
check "D: a failed testcase names it" grep -q "name=\"rapido: results port\"" "$T/d3/junit.xml"
diag
done_testing
