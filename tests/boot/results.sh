#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# results.sh: ./vm --results DIR: a profile's passing, failing and skipped
# tests are exactly the testcases of junit.xml (valid against
# tests/fixtures/junit.xsd) and of results.tap, with the guest's files and
# the console beside them; a guest that panics after 2 of 4 tests still
# yields those 2; a kernel that reports a hung task while the scripts pass
# exits 121 (or 0 when VM_SPLATS leaves hung tasks out); 2 shards run every
# test exactly once and merge to the totals of the unsharded run; the
# summary line is coloured on a terminal only, never with NO_COLOR. A guest
# that floods the results port (80 MiB of 1 KiB records, then 128 MiB of
# small ones) fails the run naming the 64 MiB cap (RESULTS_VOLUME_MAX),
# ./vm's memory bounded (it grew to 1.2 GB); a record past 1 MiB
# (RESULTS_RECORD_MAX) fails it too. Issue 42: on a pty a status line
# counts the tests as their records come (not when stdout is a file), and a
# profile with #@ results: yes keeps its results without --results; -q
# --batch shows no console but a kernel report.
. "$(dirname "$0")/lib.sh"

XSD=$TOP/tests/fixtures/junit.xsd

# ktap_cases FILE: "NAME STATE" lines of the tests inside the suites of a results.tap
ktap_cases() {
	perl -ne 'if (/^    (not )?ok \d+ (.*?)( # SKIP.*)?$/) {
		print "$2 ", ($3 ? "skipped" : $1 ? "failure" : "pass"), "\n" }' "$1"
}

want="fixture/pass-one pass
fixture/fail-one failure
fixture/skip-one skipped
fixture/pass-two pass
tap/tap-a pass
tap/tap-b failure
tap/tap-c skipped"

"$CUT" results-suite > "$T/cut.out" 2>&1
expect_rc "cut results-suite" 0 $?
"$VM" --batch --timeout 600 --results "$T/all" > "$T/console" 2> "$T/err"
expect_rc "the profile's own status (a test failed)" 1 $?
check "junit.xml is valid against the JUnit schema" \
	xmllint --noout --schema "$XSD" "$T/all/junit.xml"
check "junit.xml: exactly the profile's tests with their verdicts" \
	test "$(testcases "$T/all/junit.xml")" = "$want"
check "junit.xml: the failure message and the test's output" \
	grep -q '<failure message="exit status 1" type="failure">expected 2, got 3</failure>' "$T/all/junit.xml"
check "junit.xml: the skip reason from the test" \
	grep -q '<skipped message="needs a disk"/>' "$T/all/junit.xml"
check "junit.xml: totals" \
	grep -q '<testsuites name="rapido" tests="7" failures="2" errors="0" skipped="2"' "$T/all/junit.xml"
check "results.tap: the same tests and verdicts" \
	test "$(ktap_cases "$T/all/results.tap")" = "$want"
check "results.tap: KTAP header and suite result" \
	grep -qx 'not ok 1 results-suite' "$T/all/results.tap"
check "results.tap: TAP diagnostics of a failed test" grep -qx '    # tap-b: wanted 1' "$T/all/results.tap"
check "the guest's file is in files/" grep -qx "a file from the guest" "$T/all/files/fixture.txt"
check "console.log holds the console" grep -q "rapido: test fixture/pass-two: passed" "$T/all/console.log"
check "the summary on stderr" grep -q "results: 7 tests, 3 passed, 2 failed, 2 skipped, 0 kernel splats" "$T/err"
check "stdout a file: no status line" sh -c "! grep -q ' done, [0-9]* passed' '$T/console' '$T/err'"
check "  not coloured: stderr is no terminal" bash -c "! grep -q \$'\\e' '$T/err'"
diag

# two shards: every test once, the same totals once merged; each on a
# terminal (script), the second with NO_COLOR: the summary's colours
for i in 1 2; do
	nc=; [ $i = 2 ] && nc=NO_COLOR=1
	script -qefc "env -u NO_COLOR $nc '$VM' --batch --timeout 600 --shard $i/2 --results '$T/shard$i'" \
		/dev/null < /dev/null > "$T/err$i" 2>&1
	rc=$?
	check "shard $i/2 ran (exit $rc)" test $rc -le 1
done
check "on a terminal: the summary in colour (a shard has a pass or a failure)" \
	bash -c "grep 'results: ' '$T/err1' | grep -q \$'\\e\\\\[3[12]m[0-9]* \\(passed\\|failed\\)\\e\\\\[0m'"
check "on a terminal with NO_COLOR: no colour" grep -q "results: [0-9]* tests, [0-9]* passed, " "$T/err2"
check "  not one escape on its summary line" bash -c "! grep 'results: ' '$T/err2' | grep -q \$'\\e'"
cat <(testcases "$T/shard1/junit.xml") <(testcases "$T/shard2/junit.xml") | sort > "$T/union"
check "the shards together ran every test exactly once" test "$(sort <<< "$want")" = "$(cat "$T/union")"
check "each shard ran some tests" test -s "$T/shard1/junit.xml" -a "$(testcases "$T/shard1/junit.xml" | wc -l)" -gt 0 -a "$(testcases "$T/shard2/junit.xml" | wc -l)" -gt 0
check "the shard is named in its suite" grep -q 'name="results-suite shard 2/2"' "$T/shard2/junit.xml"
"$VM" --merge-results "$T/merged" "$T/shard1" "$T/shard2" > "$T/summary" 2> "$T/merge.err"
expect_rc "merge: failures in the shards" 1 $?
check "merged junit.xml is valid" xmllint --noout --schema "$XSD" "$T/merged/junit.xml"
check "merged totals are the unsharded run's" \
	grep -q '<testsuites name="rapido" tests="7" failures="2" errors="0" skipped="2"' "$T/merged/junit.xml"
check "merge summary" grep -qx "total: 7 tests, 3 passed, 2 failed, 2 skipped, 0 kernel splats" "$T/summary"
check "no overlap reported" test ! -s "$T/merge.err"
"$VM" --merge-results "$T/merged2" "$T/all" "$T/shard1" > /dev/null 2> "$T/merge.err"
check "merging two splits names the overlap" grep -q "test 'fixture/[a-z-]*' is in both" "$T/merge.err"
run_err "merge: not a results dir" "results.txt" "$VM" --merge-results "$T/m3" "$T"
run_err "a bad --shard" "expected I/N" "$VM" --batch --shard 3/2 --results "$T/x"
run_err "a bad --splats kind" "unknown kind 'oopses'" "$VM" --batch --splats all,-oopses
diag

# a panic after 2 of 4 tests: those 2 are there
echo "RESULTS_FIXTURE=panic" > "$RAPIDO_CONF"
"$CUT" results-suite > "$T/cut.out" 2>&1
expect_rc "cut (panic)" 0 $?
# on a pty without --results: the profile's #@ results: yes keeps them in
# VM_STATE_DIR/results/PROFILE-TIME, named on the last line
script -qefc "'$VM' --batch --timeout 600" /dev/null < /dev/null > "$T/console" 2>&1
expect_rc "a panic is still 123 (on a pty)" 123 $?
panic=$(tr -d '\r' < "$T/console" | sed -n 's/^vm[0-9]*: results: .* (\(.*\))$/\1/p' | tail -n 1)
check "on a pty, no --results: the results in VM_STATE_DIR/results, named at the end ($panic)" \
	sh -c "case '$panic' in '$VM_STATE_DIR'/results/results-suite-*) test -f '$panic/junit.xml' ;; *) false ;; esac"
check "  with the guest's files (a suite's own report)" grep -qx "a file from the guest" "$panic/files/fixture.txt"
check "on a pty: a status line, rewritten in place, of the tests so far" \
	grep -qa $'\rvm[0-9]* [0-9]*m[0-9]*s  2 done, 2 passed, 0 failed' "$T/console"
check "  the panic on the screen" grep -q "Kernel panic - not syncing: sysrq triggered crash" "$T/console"
check "  the boot log not" sh -c "! grep -q 'Linux version' '$T/console'"
check "junit.xml after a panic is valid" xmllint --noout --schema "$XSD" "$panic/junit.xml"
check "the 2 tests before the panic, and the panic" \
	test "$(testcases "$panic/junit.xml" | grep -v '^kernel: \|^rapido: tests not run ')" = "fixture/pass-one pass
fixture/pass-two pass"
check "nothing planned the tests after the panic: an error says later tests may not have run" \
	sh -c "grep -q 'name=\"rapido: tests not run\"' '$panic/junit.xml' &&
		grep -qE '<error message=\"not run: the VM stopped before the autorun ended \(.*panic.*\), and the guest planned no test after the last result \(R1 plan\): later tests may not have run\" type=\"error\">' '$panic/junit.xml'"
check "the panic is a failed kernel testcase" \
	grep -q 'name="kernel: Kernel panic - not syncing: sysrq triggered crash"' "$panic/junit.xml"
check "no test after the panic" sh -c "! grep -q never '$panic/junit.xml'"
diag

# a hung task while the scripts pass: 121, named on stderr
echo "RESULTS_FIXTURE=hung" > "$RAPIDO_CONF"
"$CUT" results-suite > "$T/cut.out" 2>&1
expect_rc "cut (hung)" 0 $?
"$VM" --batch --timeout 600 --results "$T/hung" > "$T/console" 2> "$T/err"
expect_rc "scripts passed, kernel reported a hung task" 121 $?
check "stderr names the report" grep -q "kernel hung-task: INFO: task dd:[0-9]* blocked for more than" "$T/err"
check "junit.xml: the hung task is a failed testcase with its report" \
	grep -q '<testcase classname="results-suite" name="kernel: INFO: task dd:' "$T/hung/junit.xml"
check "the report's call trace is its output" grep -q 'Call Trace:' "$T/hung/junit.xml"
check "junit.xml (hung) is valid" xmllint --noout --schema "$XSD" "$T/hung/junit.xml"
"$VM" --batch -q --timeout 600 --splats all,-hung-task > "$T/console" 2> "$T/err"
expect_rc "VM_SPLATS without hung-task: the scripts' 0" 0 $?
check "a tolerated report is still named" grep -q "kernel hung-task (tolerated: VM_SPLATS)" "$T/err"
check "-q: the kernel's report on stdout, with its trace" \
	sh -c "grep -q 'INFO: task dd:[0-9]* blocked for more than' '$T/console' && grep -q 'Call Trace:' '$T/console'"
check "-q: nothing else of the console" sh -c "! grep -q 'Linux version\|rapido: test ' '$T/console'"
run_err "-v and -q together" "opposite consoles" "$VM" --batch -v -q
diag

# issue 40.12: the records' caps, measured
"$CUT" simple -x 'case $(< /proc/cmdline) in
*rt.flood=volume*)
	s=$(printf "%01000d" 0)
	s="R1 pass t 0 $s"
	while [ ${#s} -lt 1000000 ]; do s+=$'"'"'\n'"'"'$s; done
	for i in {1..80}; do printf "%s\n" "$s"; done >> "$RAPIDO_RESULTS_PORT"
	s="R1 pass t 0 -"
	while [ ${#s} -lt 1000000 ]; do s+=$'"'"'\n'"'"'$s; done
	for i in {1..128}; do printf "%s\n" "$s"; done >> "$RAPIDO_RESULTS_PORT" ;;
*rt.flood=long*)
	s=x
	while [ ${#s} -lt 2000000 ]; do s+=$s; done
	printf "R1 pass long 0 %s\n" "$s" >> "$RAPIDO_RESULTS_PORT" ;;
esac' > "$T/cut.out" 2>&1
expect_rc "cut simple -x 'case \$(< /proc/cmdline) ...'" 0 $?
# %M: the most of ./vm and qemu (here qemu's own is about 290 MB). Under
# ASan its quarantine is off for this run: it keeps freed blocks (a gigabyte
# of them here, 1429 MB in all against 378 MB without it); the unbounded
# ./vm took 2719 MB without ASan, which never takes memory away
ASAN_OPTIONS=quarantine_size_mb=0:${ASAN_OPTIONS:-} \
	/usr/bin/time -f %M -o "$T/rss" "$VM" --batch --timeout 600 --append rt.flood=volume \
	--results "$T/flood" > "$T/console" 2> "$T/err"
expect_rc "208 MiB of records: the run fails" 125 $?
check "  naming the cap" grep -q "the guest's records pass the cap of 64 MiB a run (RESULTS_VOLUME_MAX)" "$T/err"
check "  ./vm and qemu under 600 MB (it took $(($(tail -n 1 "$T/rss") / 1024)) MB)" \
	test "$(tail -n 1 "$T/rss")" -lt 614400
check "  results.txt holds the records up to the cap" \
	test "$(stat -c %s "$T/flood/results.txt")" -lt $((66 << 20))
"$VM" --batch --timeout 600 --append rt.flood=long --results "$T/long" > "$T/console" 2> "$T/err"
expect_rc "a record of 2 MB: the run fails" 125 $?
check "  naming the cap" grep -q "longer than the cap of 1 MiB a record (RESULTS_RECORD_MAX)" "$T/err"
diag
done_testing
