#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# jobs.sh: ./vm --jobs 2 against the same two shards run one after the
# other and merged: the same testcases with the same verdicts and totals;
# the shards ran at once (two VM numbers held at the same time); the test
# named in --serial-tests ran alone in the serial VM after them; the shard
# that panics fails the run, named, with its status (123). SIGTERM stops
# every VM and exits 143. rapido_test tests in the simple profile, one
# failing, one skipped. A --jobs DIR is a fresh results dir of its own
# (run.json, results.txt that --compare-results reads, nothing of an
# earlier run). A guest planting a setuid file, a device, a FIFO and links
# (one as the list of deferred tests) leaves only plain files on the host,
# in DIR/files and in --share, and ./vm reads nothing through them.
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
# jobs.plant=1: a hostile guest plants files through 9p in DIR/files and
# --share (a setuid file, a device, a FIFO, a link to the host's
# /etc/passwd, also as the list ./vm reads), then says what it sees there
if [[ $cmdline == *" jobs.plant=1 "* ]]; then
	for d in /results /host; do
		echo planted > $d/suid && chmod 4755 $d/suid
		mknod $d/null c 1 3
		mkfifo $d/fifo
		ln -s /etc/passwd $d/link
		echo "jobs: $d sees: $(stat -c '%a %F' $d/suid $d/null $d/fifo $d/link | tr '\n' ,)"
	done
	echo "guest data" > /host/data
	ln -s /etc/passwd /results/rapido-deferred.txt
fi
rapido_test jobs/pass-3 true
rapido_tests_done
SH
# simple, with the programs the planting guest uses
sed -e 's/^#@ bins: .*/#@ bins: uname cat ls mkdir rm sleep chmod mknod mkfifo ln stat tr/' \
	"$TOP/autorun/simple.sh" > "$RAPIDO_DIR/autorun/jobs-plant.sh"
"$CUT" jobs-plant -f "$T/tests.sh" > "$T/cut.out" 2>&1
expect_rc "cut simple (and what plants files) with the tests" 0 $?

# the reference: the two shards one after the other, merged; 2/2 panics
for i in 1 2; do
	"$VM" --batch --timeout 600 --shard "$i/2" --append jobs.panic=2/2 --results "$T/ref$i" \
		> /dev/null 2> "$T/ref$i.err"
	echo "# serial shard $i/2: exit $?"
done
"$VM" --merge-results "$T/ref" "$T/ref1" "$T/ref2" > "$T/ref.sum" 2> "$T/ref.err"
expect_rc "the serial shards merged: a test failed, a shard panicked" 1 $?

echo 'jobs/al*  # runs alone' > "$T/serial.list"
# an earlier run's files in DIR must not pass for this one's
mkdir -p "$T/jobs"
for f in run.json console.log results.txt; do echo stale-run > "$T/jobs/$f"; done
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
# a --jobs DIR is a results dir of its own, like one VM's
check "DIR/run.json is this run's (jobs 2)" grep -q '"jobs": "2"' "$T/jobs/run.json"
check "  no file of the earlier run left in DIR" \
	eval "! grep -qs stale-run '$T/jobs/run.json' '$T/jobs/console.log' '$T/jobs/results.txt'"
check "  DIR/results.txt ends with the run's exit status" \
	test "$(tail -n 1 "$T/jobs/results.txt")" = "R1 meta exit 123"
check "  with every testcase junit.xml has" test "$(grep -c '^R1 \(pass\|fail\|skip\|error\|kernel\) ' \
	"$T/jobs/results.txt")" = "$(testcases "$T/jobs/junit.xml" | wc -l)"
"$VM" --compare-results "$T/jobs" "$T/jobs" > "$T/cmp.out" 2>&1
expect_rc "--compare-results reads a --jobs DIR: the same run, no change" 0 $?
diag_file "$T/cmp.out"
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

# the guest's files are plain files of ./vm's user on the host, whatever
# the guest made: no setuid file, device, FIFO or link in DIR/files nor in
# --share (9p's mapped security model), and the planted list is never read
# through a link (the host's /etc/passwd is not echoed); the guest still
# sees what it made, and a second user reads the guest's file in --share
mkdir -m 0755 "$T/share"
"$VM" --batch --timeout 600 --jobs 1 --share "$T/share" --append jobs.plant=1 \
	--results "$T/plant" > "$T/plant.out" 2> "$T/plant.err"
echo "# --jobs 1 with planted files: exit $?"
for d in "$T/plant/shard-1/files" "$T/share"; do
	got=$(find "$d" \( -perm /6000 -o ! -type f ! -type d \) -printf '%p %M ')
	check "$d: no setuid file, device, FIFO or link${got:+ (found: $got)}" test -z "$got"
done
check "  the guest sees what it made (4755, a device, a FIFO, a link)" grep -qF \
	"jobs: /results sees: 4755 regular file,644 character special file,644 fifo,777 symbolic link," \
	"$T/plant/shard-1/console.log"
check "  the host's /etc/passwd is not read" eval "! grep -qF '$(head -n 1 /etc/passwd)' '$T/plant.err'"
if id nobody > /dev/null 2>&1 && command -v setpriv > /dev/null && [ "$(id -u)" = 0 ]; then
	chmod 0755 "$T"	# the second user may walk to the share, as to a user's own dir
	check "  a second user reads the guest's file in --share" test "$(setpriv --reuid=nobody \
		--regid="$(id -g nobody)" --clear-groups cat "$T/share/data")" = "guest data"
fi
diag_file "$T/plant.err"

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
