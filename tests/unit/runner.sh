#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# runner.sh: tests/run's own verdicts, on a copy of it in a tree of made-up
# tests: a C unit test that was never built fails (it does not vanish from
# the count); a test that outlives its timeout is reported as timed out,
# also when it ignores SIGTERM and is killed (timeout(1) exits 137 then),
# and when its TERM handler exits 0; a test that exits 124 by itself is
# not a timeout. The shared Ceph cluster (tests/ceph-cluster, here a
# stand-in that writes down its calls): up before the boot tier and down
# after it only when a selected test says "# tests/run uses:
# ceph-cluster", its directory in those tests' TEST_CEPH_CLUSTER, its wall
# time as tier lines, and down also when tests/run is stopped (TERM) in
# the middle of the boot tier or of up.
. "$(dirname "$0")/../tap.sh"

top=$T/top
mkdir -p "$top/tests/unit" "$top/build/tests"
cp "$TOP/tests/run" "$top/tests/run"
# a C unit test with a source and no binary
echo 'int main(void) { return 0; }' > "$top/tests/unit/never-built.c"
# one that is built
echo 'int main(void) { return 0; }' > "$top/tests/unit/built.c"
printf '#!/bin/sh\necho "ok 1 - built"\n' > "$top/build/tests/built"
# TERM ignored: only KILL stops it (and its sleep, which inherits SIG_IGN)
printf '#!/bin/bash\ntrap "" TERM\nsleep 100\n' > "$top/tests/unit/ignores-term.sh"
# TERM handled by exiting 0
printf '#!/bin/bash\ntrap "exit 0" TERM\nsleep 100 & wait\n' > "$top/tests/unit/term-exits-0.sh"
printf '#!/bin/sh\nexit 124\n' > "$top/tests/unit/exits-124.sh"
printf '#!/bin/sh\nexit 0\n' > "$top/tests/unit/passes.sh"
# its own timeout in its header: longer than the tier's, and shorter
printf '#!/bin/sh\n# tests/run timeout: 60s\nsleep 4\n' > "$top/tests/unit/own-longer.sh"
printf '#!/bin/sh\n# tests/run timeout: 1s\nsleep 100\n' > "$top/tests/unit/own-shorter.sh"
chmod +x "$top"/tests/unit/*.sh "$top/build/tests/built"

start=$(date +%s)
UNIT_TIMEOUT=2 TEST_LOG_DIR=$T/logs "$top/tests/run" --unit > "$T/out" 2>&1
rc=$?
secs=$(( $(date +%s) - start ))
sed 's/^/# /' "$T/out"
expect_rc "the runner fails" 1 $rc
check "a C unit test never built fails, saying so" \
	bash -c "grep -q '^FAIL unit/never-built: exit 127' '$T/out' && grep -q 'never-built: not built (make tests)' '$T/out'"
check "a built one passes" grep -q '^PASS unit/built ' "$T/out"
check "a test ignoring SIGTERM is a timeout, killed" \
	grep -q '^FAIL unit/ignores-term.sh: timed out after 2s (ignored SIGTERM, killed 10s later)' "$T/out"
check "a test whose TERM handler exits 0 is a timeout" \
	grep -q '^FAIL unit/term-exits-0.sh: timed out after 2s$' "$T/out"
check "a test exiting 124 itself is not a timeout" grep -q '^FAIL unit/exits-124.sh: exit 124 ' "$T/out"
check "a test's own longer timeout (header) holds" grep -q '^PASS unit/own-longer.sh ' "$T/out"
check "a test's own shorter timeout is named" \
	grep -q '^FAIL unit/own-shorter.sh: timed out after 1s$' "$T/out"
check "the count: 3 passed, 5 failed" grep -q '^3 passed, 5 failed, 0 skipped$' "$T/out"
check "the killed test took the timeout and the 10 s grace, no more (${secs}s)" test "$secs" -lt 60

# -- the shared Ceph cluster ----------------------------------------------------
top=$T/ceph-top
mkdir -p "$top/tests/boot" "$top/tests/slow"
cp "$TOP/tests/run" "$top/tests/run"
printf '#!/bin/sh\nexit 0\n' > "$top/tests/suite-tree"
# the stand-in: "VERB DIR" lines in $CALLS; up makes DIR/netns, waits
# UP_SLEEP seconds (as a stop signal would find it), and says how it ended
cat > "$top/tests/ceph-cluster" <<'EOS'
#!/bin/bash
echo "$1 $2" >> "$CALLS"
[ "$1" = up ] || exit 0
echo ns > "$2/netns"
trap 'echo "up stopped by TERM" >> "$CALLS"; exit 1' TERM
sleep "${UP_SLEEP:-0}" & wait
EOS
# a Ceph test records the cluster it was given; another must not be given one
printf '#!/bin/sh\n# tests/run uses: ceph-cluster\necho "got ${TEST_CEPH_CLUSTER:-none}" >> "$CALLS"\nsleep "${TEST_SLEEP:-0}"\n' \
	> "$top/tests/boot/ceph-a.sh"
printf '#!/bin/sh\necho "plain got ${TEST_CEPH_CLUSTER:-none}" >> "$CALLS"\n' > "$top/tests/boot/plain.sh"
printf '#!/bin/sh\necho slow >> "$CALLS"\n' > "$top/tests/slow/slow.sh"
chmod +x "$top/tests/ceph-cluster" "$top/tests/suite-tree" "$top"/tests/boot/*.sh "$top/tests/slow/slow.sh"
export CALLS=$T/calls

: > "$CALLS"
TEST_LOG_DIR=$T/logs2 "$top/tests/run" --boot plain > "$T/out" 2>&1
expect_rc "no Ceph test selected: passes" 0 $?
check "  and no cluster is made" bash -c "! grep -q '^up \|^down ' '$CALLS'"
check "  nor a tier line printed" bash -c "! grep -q '^tier ceph-' '$T/out'"

: > "$CALLS"
TEST_LOG_DIR=$T/logs2 JOBS=1 "$top/tests/run" --boot --slow > "$T/out" 2>&1
expect_rc "a Ceph test selected: passes" 0 $?
sed 's/^/# /' "$T/out" "$CALLS"
dir=$(sed -n 's/^up //p' "$CALLS")
check "  the cluster is brought up once, in a directory of the run's" test -n "$dir" -a "$(grep -c '^up ' "$CALLS")" = 1
check "  the Ceph test is given it, the other test none" \
	bash -c "grep -qxF 'got $dir' '$CALLS' && grep -qx 'plain got none' '$CALLS'"
check "  up before the boot tests, down after them (before the slow tier), once" \
	test "$(sed 's/ .*//' "$CALLS" | tr '\n' ' ')" = "up got plain down slow "
check "  down is given the same directory" grep -qxF "down $dir" "$CALLS"
check "  the directory is gone after the run" test ! -e "$dir"
check "  up and down print their wall times as tier lines" \
	bash -c "grep -q '^tier ceph-up: [0-9]*s wall$' '$T/out' && grep -q '^tier ceph-down: [0-9]*s wall$' '$T/out'"

# stopped by TERM: during the boot tier, and during up
for when in tier up; do
	: > "$CALLS"
	if [ $when = tier ]; then
		export TEST_SLEEP=30 UP_SLEEP=0
	else
		export TEST_SLEEP=0 UP_SLEEP=30
	fi
	TEST_LOG_DIR=$T/logs2 JOBS=1 setsid "$top/tests/run" --boot ceph-a > "$T/out" 2>&1 &
	pid=$!
	for ((i = 0; i < 100; i++)); do
		if [ $when = tier ]; then
			grep -q '^got ' "$CALLS" && break
		else
			grep -q '^up ' "$CALLS" && break
		fi
		sleep 0.1
	done
	sleep 0.5
	kill -TERM $pid
	s=$SECONDS
	wait $pid
	rc=$?
	expect_rc "tests/run stopped by TERM during $when" 143 $rc
	sed 's/^/# /' "$CALLS"
	if [ $when = up ]; then
		check "  up is stopped first" grep -qx "up stopped by TERM" "$CALLS"
		check "  and no test started" bash -c "! grep -q '^got' '$CALLS'"
	fi
	check "  the cluster is taken down all the same, at once ($((SECONDS - s))s)" \
		test "$(grep -c '^down ' "$CALLS")" = 1 -a $((SECONDS - s)) -lt 10
	# what is left of the run's session (a test, a sleep): stopped by PID
	left=$(ps -o pid= -s $pid)
	[ -z "$left" ] || kill -TERM $left 2> /dev/null
done
unset TEST_SLEEP UP_SLEEP

# -- the boot tier's order ------------------------------------------------------
# the tests declaring the longest timeouts start first (a long one started
# last would run on alone); the others keep their (name) order
top=$T/order-top
mkdir -p "$top/tests/boot"
cp "$TOP/tests/run" "$top/tests/run"
printf '#!/bin/sh\nexit 0\n' > "$top/tests/suite-tree"
for t in a-short b-long:1800 c-mid:1000 d-short e-long:1800; do
	n=${t%%:*}
	{
		echo '#!/bin/sh'
		[ "$n" = "$t" ] || echo "# tests/run timeout: ${t#*:}s"
		echo "echo $n >> \"\$CALLS\""
	} > "$top/tests/boot/$n.sh"
done
chmod +x "$top/tests/suite-tree" "$top"/tests/boot/*.sh
: > "$CALLS"
TEST_LOG_DIR=$T/logs3 JOBS=1 "$top/tests/run" --boot > "$T/out" 2>&1
expect_rc "five boot tests pass" 0 $?
check "  longest timeouts first, then by name" \
	test "$(tr '\n' ' ' < "$CALLS")" = "b-long e-long c-mid a-short d-short "
done_testing
