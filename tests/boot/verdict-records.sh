#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# verdict-records.sh: ./vm --results: the records and the exit status agree
# both ways, on a real guest. A failed record, or a test that started and
# never ended, fails a run whose scripts exited 0 (exit 1); a run that
# failed with no failing test (a rapido_fail during set-up, a profile with
# no records) has a testcase "rapido: exit status N: CAUSE" in junit.xml
# and a `not ok` in results.tap; results.txt's last record is the final
# exit status; a guest without the results port (no virtio_console) is
# an error (125), not a pass; printk.time=0 from the user cannot hide a
# kernel report from the splat scanner.
. "$(dirname "$0")/lib.sh"

XSD=$TOP/tests/fixtures/junit.xsd
# last_meta_exit DIR: the value of results.txt's last record, if it is meta exit
last_meta_exit() {
	tail -n 1 "$1/results.txt" | sed -n 's/^R1 meta exit //p'
}

# 1. the scripts exit 0, a record failed and one never ended. The guest
# library would fail such a run itself (its first failure sticks), so the
# records are written to the port as another producer (an older image, a
# tool of the profile's own) would: ./vm's own rule is what is tested
"$CUT" simple -x 'printf "%s\n" "R1 start t/fails" "R1 fail t/fails 0.100 exit%20status%201 -" \
	"R1 start t/unfinished" >> "$RAPIDO_RESULTS_PORT"
rapido_test t/passes true
exit 0' > "$T/cut.out" 2>&1
expect_rc "cut: a failing, an unfinished and a passing test, exit 0" 0 $?
"$VM" --batch --timeout 600 --results "$T/r1" > "$T/console" 2> "$T/err"
expect_rc "failed records fail a run the scripts called 0" 1 $?
check "  stderr says why" grep -q "the guest exited 0 but 2 tests failed or did not finish" "$T/err"
check "  junit.xml: the failed test" \
	grep -q '<testcase classname="simple" name="t/fails"' "$T/r1/junit.xml"
check "  junit.xml: the unfinished test failed" \
	grep -q '<failure message="did not finish: ' "$T/r1/junit.xml"
check "  junit.xml is valid" xmllint --noout --schema "$XSD" "$T/r1/junit.xml"
check "  results.tap: not ok" grep -qx 'not ok 1 simple' "$T/r1/results.tap"
check "  results.txt ends with the final status" test "$(last_meta_exit "$T/r1")" = 1
diag

# 2. a failure during set-up, before any test: no record, exit 3
"$CUT" simple -x 'rapido_fail -s 3 "set-up failed"' > "$T/cut.out" 2>&1
expect_rc "cut: rapido_fail -s 3 before any test" 0 $?
"$VM" --batch --timeout 600 --results "$T/r2" > "$T/console" 2> "$T/err"
expect_rc "rapido_fail during set-up" 3 $?
check "  junit.xml: a failed testcase for the exit status" \
	grep -q '<testcase classname="simple" name="rapido: exit status 3: ' "$T/r2/junit.xml"
check "  junit.xml counts one failure" grep -q '<testsuite name="simple" tests="1" failures="1"' "$T/r2/junit.xml"
check "  junit.xml is valid" xmllint --noout --schema "$XSD" "$T/r2/junit.xml"
check "  results.tap: not ok, with the exit status as its test" \
	sh -c "grep -qx 'not ok 1 simple' '$T/r2/results.tap' && grep -q '^    not ok 1 rapido: exit status 3: ' '$T/r2/results.tap'"
check "  results.txt ends with the final status" test "$(last_meta_exit "$T/r2")" = 3
"$VM" --merge-results "$T/m2" "$T/r2" > "$T/summary" 2> "$T/merge.err"
expect_rc "  and the merge fails" 1 $?
diag

# 3. no results port: virtio_console may not load in the guest (a module
# on Debian 12's kernel, built in on 13's: its initcall is left out then)
"$CUT" simple -x 'echo no-port-here; exit 0' > "$T/cut.out" 2>&1
expect_rc "cut: no tests, exit 0" 0 $?
"$VM" --batch --timeout 600 --results "$T/r3" \
	--append "module_blacklist=virtio_console initcall_blacklist=virtio_console_init" \
	> "$T/console" 2> "$T/err"
expect_rc "--results without a results port in the guest" 125 $?
check "  the guest ran" guest_says "$T/console" no-port-here
check "  stderr names the port and the likely cause" \
	grep -q "no record came over the results port (rapido.results).*virtio_console" "$T/err"
check "  junit.xml: the cause as a failed testcase" \
	grep -q 'name="rapido: exit status 125: --results: the results port never worked' "$T/r3/junit.xml"
check "  results.txt ends with the final status" test "$(last_meta_exit "$T/r3")" = 125
"$VM" --batch --timeout 600 --results "$T/r3b" > "$T/console" 2> "$T/err"
expect_rc "  with the port, the same guest passes" 0 $?
check "  and says hello on it" grep -qx "R1 hello rapido-init" "$T/r3b/results.txt"
diag

# 4. printk.time=0 from the user: the kernel's report is still found
echo "RESULTS_FIXTURE=hung" > "$RAPIDO_CONF"
"$CUT" results-suite > "$T/cut.out" 2>&1
expect_rc "cut (hung)" 0 $?
"$VM" --batch --timeout 600 --append printk.time=0 > "$T/console" 2> "$T/err"
expect_rc "printk.time=0: a hung task is still 121" 121 $?
check "  stderr names it" grep -q "kernel hung-task: INFO: task dd:[0-9]* blocked for more than" "$T/err"
check "  the console has timestamps" grep -qE '^\[ *[0-9]+\.[0-9]+\] ' "$T/console"
diag
done_testing
