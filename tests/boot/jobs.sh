#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# jobs.sh: ./vm --jobs 2 against the same two shards run one after the
# other and merged: the same testcases with the same verdicts and totals;
# the shards ran at once (two VM numbers held at the same time); the test
# named in --serial-tests ran alone in the serial VM after them; the shard
# that panics fails the run, named, with its status (123). SIGTERM stops
# every VM and exits 143. rapido_test tests in the simple profile, one
# failing, one skipped.
. "$(dirname "$0")/lib.sh"
XSD=$TOP/tests/fixtures/junit.xsd

# diag_file FILE: after a part's checks, FILE if any of them failed
diag_file() {
	[ "$fails" -eq "$seen_fails" ] && return
	seen_fails=$fails
	sed 's/^/# /' "$1"
}

# shard 1/2: pass-2 fail-1; shard 2/2: pass-1 alone skip-1, then with
# --append jobs.panic=2/2 a panic before pass-3 (FNV-1a of the names)
cat > "$T/tests.sh" <<'SH'
cmdline=" $(cat /proc/cmdline) "
rapido_test jobs/pass-1 true
rapido_test jobs/alone echo alone
rapido_test jobs/skip-1 sh -c 'echo "no disk"; exit 77'
rapido_test jobs/pass-2 true
rapido_test jobs/fail-1 sh -c 'echo "expected 1, got 2"; exit 1'
[[ $cmdline != *" jobs.panic=${RAPIDO_SHARD:-none} "* ]] || echo c > /proc/sysrq-trigger
if [[ $cmdline == *" jobs.sleep=1 "* ]]; then
	echo "jobs: sleeping in shard $RAPIDO_SHARD"
	sleep 600
fi
rapido_test jobs/pass-3 true
rapido_tests_done
SH
"$CUT" simple -f "$T/tests.sh" > "$T/cut.out" 2>&1
expect_rc "cut simple with the tests" 0 $?

# the reference: the two shards one after the other, merged; 2/2 panics
for i in 1 2; do
	"$VM" --batch --timeout 600 --shard "$i/2" --append jobs.panic=2/2 --results "$T/ref$i" \
		> /dev/null 2> "$T/ref$i.err"
	echo "# serial shard $i/2: exit $?"
done
"$VM" --merge-results "$T/ref" "$T/ref1" "$T/ref2" > "$T/ref.sum" 2> "$T/ref.err"
expect_rc "the serial shards merged: a test failed, a shard panicked" 1 $?

echo 'jobs/al*  # runs alone' > "$T/serial.list"
"$VM" --batch --timeout 600 --jobs 2 --serial-tests "$T/serial.list" --append jobs.panic=2/2 \
	--results "$T/jobs" > "$T/jobs.out" 2> "$T/jobs.err"
expect_rc "--jobs 2: shard 2/2 panicked, its 123 is the run's" 123 $?
check "the same testcases with the same verdicts" \
	test "$(testcases "$T/ref/junit.xml" | sort)" = "$(testcases "$T/jobs/junit.xml" | sort)"
check "  the tests before the panic, the panic, and the serial test" \
	test "$(testcases "$T/jobs/junit.xml" | grep -c '^jobs/\|^kernel: Kernel panic')" = 6
check "the same totals" test "$(grep '^total:' "$T/ref.sum")" = "$(grep '^total:' "$T/jobs.out")"
check "  in DIR/summary.txt" grep -q "^total: " "$T/jobs/summary.txt"
check "merged junit.xml is valid" xmllint --noout --schema "$XSD" "$T/jobs/junit.xml"
check "results.tap is there" test -s "$T/jobs/results.tap"
check "the two shards held VM numbers 1 and 2 at once" \
	test "$(grep -o '^vm[0-9]*: results:' "$T/jobs.err" | sort -u | tr '\n' ' ')" = "vm1: results: vm2: results: "
check "the serial test ran in the serial VM, nowhere else" \
	test "$(testcases "$T/jobs/serial/junit.xml")" = "jobs/alone pass"
check "  shard 2/2 left it there" test "$(cat "$T/jobs/shard-2/files/rapido-deferred.txt")" = jobs/alone
got=$(testcases "$T/jobs/shard-2/junit.xml" | grep '^jobs/' | tr '\n' ' ')
check "  and ran the others of its part before the panic ($got)" \
	test "$got" = "jobs/pass-1 pass jobs/skip-1 skipped "
check "  shard 1/2 left nothing" test ! -s "$T/jobs/shard-1/files/rapido-deferred.txt"
check "  said on stderr" grep -q "1 test left to one VM after the others" "$T/jobs.err"
check "the panicked shard is named with its status" grep -q "shard 2/2 failed: exit status 123" "$T/jobs.err"
check "  and the failing one" grep -q "shard 1/2 failed: exit status 1 " "$T/jobs.err"
diag_file "$T/jobs.err"

# SIGTERM while both shards run: every VM stopped, 128+15
"$VM" --batch --timeout 600 --jobs 2 --append jobs.sleep=1 --results "$T/term" \
	> "$T/term.out" 2> "$T/term.err" &
pid=$!
for _ in $(seq 300); do
	[ "$(cat "$T"/term/shard-*/console.log 2> /dev/null | grep -c 'jobs: sleeping in shard')" = 2 ] && break
	sleep 1
done
check "both shards got to their sleep" \
	test "$(cat "$T"/term/shard-*/console.log | grep -c 'jobs: sleeping in shard')" = 2
kill -TERM "$pid"
wait "$pid"
expect_rc "SIGTERM: 143" 143 $?
check "no qemu left running" no_test_qemu
check "both shards stopped with 143 in their results" \
	test "$(grep -h '^R1 meta exit ' "$T"/term/shard-*/results.txt | sort -u)" = "R1 meta exit 143"
check "no serial VM after a stop" test ! -e "$T/term/serial"
check "stopping named on stderr" grep -q -- "--jobs: Terminated: stopping 2 VMs" "$T/term.err"
diag_file "$T/term.err"
done_testing
