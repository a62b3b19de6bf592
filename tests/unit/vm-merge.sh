#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-merge.sh: ./vm --merge-results on hand-made result dirs (no guest):
# a garbled, missing or repeated `meta exit` is an unknown status and fails
# the merge; suite and dir names cannot add TAP lines; junit.xml times are
# finite non-negative decimals; results.txt must be a regular file of
# bounded size (a FIFO, a symlink to /dev/zero, a directory, a huge file
# are refused by name, quickly); every shard of a split must be there; a
# run that failed with no failing test still fails in junit.xml and KTAP;
# the duplicate check is not quadratic.
. "$(dirname "$0")/results-dirs.inc"
# merge OUT DIR...: ./vm --merge-results, bounded in time and memory (an
# ASan build reserves terabytes of address space: there, ASan's own RSS cap)
# The flood's bound: ASan's redzones and shadow add to every allocation (its
# quarantine, 256 MiB of freed blocks, is turned off for that run), and never
# take away: the unbounded merge took 505 MB without ASan
if ldd "$VM" 2>/dev/null | grep -q libasan; then
	export ASAN_OPTIONS=hard_rss_limit_mb=2000${ASAN_OPTIONS:+:$ASAN_OPTIONS}
	mem_cap=unlimited
	flood_mb=400
else
	mem_cap=2000000
	flood_mb=250
fi
merge() {
	(ulimit -v $mem_cap; timeout 60 "$VM" --merge-results "$@") > "$T/out" 2> "$T/err"
	rc=$?
}
no_line() { ! grep -q -- "$1" "$2"; }
TAP_ON_FAIL=show_run

mkres "$T/ok1" "R1 meta suite p shard 1/2" "R1 meta shard 1/2" "R1 pass t1 0.100 -" \
	"R1 meta time 1.000" "R1 meta exit 0"
mkres "$T/ok2" "R1 meta suite p shard 2/2" "R1 meta shard 2/2" "R1 pass t2 0.200 -" \
	"R1 meta time 2.000" "R1 meta exit 0"
merge "$T/m" "$T/ok1" "$T/ok2"
expect_rc "two complete passing shards merge to 0" 0 "$rc"
# the reports are written with the mode less the umask: under ./vm's 077
# (an image holding a secret) none is world-readable, in a 0755 OUT too
mkdir -m 0755 "$T/m077"
(umask 077; merge "$T/m077" "$T/ok1" "$T/ok2"; exit $rc)
expect_rc "under umask 077: merged" 0 $?
got=$(find "$T/m077" -type f -perm /077 -printf '%f %m ')
check "  junit.xml, results.tap, summary.txt 0600${got:+ (not: $got)}" test -z "$got"
(umask 022; merge "$T/m022" "$T/ok1" "$T/ok2")
got=$(find "$T/m022" -type f -printf '%m\n' | sort -u | tr '\n' ' ')
check "  under umask 022: 0644 ($got)" test "$got" = "644 "
# a run of an image holding a secret wrote its results 0600: a merge of
# it, under any umask, keeps what it writes as private
mkres "$T/priv2" "R1 meta suite p shard 2/2" "R1 meta shard 2/2" "R1 pass t2 0.200 the-secret" \
	"R1 meta time 2.000" "R1 meta exit 0"
chmod 0600 "$T/priv2/results.txt"
(umask 022; merge "$T/mpriv" "$T/ok1" "$T/priv2")
got=$(find "$T/mpriv" -type f -perm /077 -printf '%f %m ')
check "  a private input's merge is private (0600)${got:+ (not: $got)}" test -z "$got"

# 33.1: only a plain decimal exit status counts
for v in abc - 0x1 0.9 %30 4294967296 256 +0 ' 0' '0 '; do
	mkres "$T/bad" "R1 meta suite p" "R1 pass t1 0.1 -" "R1 meta exit $(printf %s "$v" | sed 's/ /%20/g')"
	merge "$T/m" "$T/bad"
	expect_rc "meta exit '$v' is an unknown status: the merge fails" 1 "$rc"
done
check "  the summary says the status is unknown" grep -q "exit status unknown" "$T/out"
mkres "$T/noexit" "R1 meta suite p" "R1 pass t1 0.1 -"
merge "$T/m" "$T/noexit"
expect_rc "no meta exit (the run never finished): the merge fails" 1 "$rc"
mkres "$T/twice" "R1 meta suite p" "R1 pass t1 0.1 -" "R1 meta exit 1" "R1 meta exit 0"
merge "$T/m" "$T/twice"
expect_rc "two meta exit lines (1 then 0) are an unknown status" 1 "$rc"
mkres "$T/twice0" "R1 meta suite p" "R1 pass t1 0.1 -" "R1 meta exit 0" "R1 meta exit 0"
merge "$T/m" "$T/twice0"
expect_rc "  even when both say 0" 1 "$rc"

# 25.4: a failed run with no failing test is a failed testcase of its own
mkres "$T/to" "R1 meta suite p" "R1 pass t1 0.1 -" "R1 meta exit 124"
merge "$T/m" "$T/to"
expect_rc "a run that exited 124 with only passing tests fails the merge" 1 "$rc"
check "  junit.xml has a failed testcase for the exit status" \
	grep -q '<testcase classname="p" name="rapido: exit status 124: [^"]*timeout' "$T/m/junit.xml"
check "  junit.xml counts it as a failure" grep -q '<testsuite name="p" tests="2" failures="1"' "$T/m/junit.xml"
check "  results.tap: the suite is not ok" grep -qx 'not ok 1 p' "$T/m/results.tap"
check "  results.tap: the exit status is a failed test" \
	grep -q '^    not ok 2 rapido: exit status 124: ' "$T/m/results.tap"
mkres "$T/none" "R1 meta suite lio_local" "R1 meta exit 3"
merge "$T/m" "$T/none"
check "a profile without records that exited 3: one failed testcase" \
	grep -q 'name="rapido: exit status 3: ' "$T/m/junit.xml"
mkres "$T/unk" "R1 meta suite p" "R1 pass t1 0.1 -"
merge "$T/m" "$T/unk"
check "an unknown status is a failed testcase too" \
	grep -q 'name="rapido: exit status unknown: ' "$T/m/junit.xml"

# 33.2: names cannot add TAP lines
mkres "$T/evil" "R1 meta suite evil%0aok%205%20injected%0aBail%20out!" "R1 pass t1 0.1 -" "R1 meta exit 0"
nl=$'\n'
mkres "$T/dir${nl}Bail out!${nl}ok 7 x" "R1 pass t2 0.1 -" "R1 meta exit 0"
merge "$T/m" "$T/evil" "$T/dir${nl}Bail out!${nl}ok 7 x"
check "results.tap: no injected ok line" no_line '^ok [57] ' "$T/m/results.tap"
check "results.tap: no injected bail-out" no_line '^Bail out' "$T/m/results.tap"
check "results.tap: each line is KTAP" \
	test -z "$(grep -vE '^( *(KTAP version 1|1\.\.[0-9]+|# .*|(not )?ok [0-9]+ .*))$' "$T/m/results.tap")"
check "summary.txt: no injected line" no_line '^ok \|^Bail' "$T/m/summary.txt"
check "stdout: no injected line" no_line '^ok \|^Bail' "$T/out"
check "stderr: no injected line" no_line '^ok \|^Bail' "$T/err"

# 33.3: junit times are finite non-negative decimals
mkres "$T/times" "R1 meta suite p" "R1 pass a nan -" "R1 pass b inf -" "R1 pass c -5 -" \
	"R1 pass d 0x10 -" "R1 pass e 1e400 -" "R1 pass f 2.5 -" "R1 meta time -inf" "R1 meta exit 0"
merge "$T/m" "$T/times"
check "junit.xml: every time= is a plain decimal" \
	test -z "$(grep -o 'time="[^"]*"' "$T/m/junit.xml" | grep -vE '^time="[0-9]+\.[0-9]{3}"$')"
check "  a valid time is kept" grep -q 'name="f" time="2.500"' "$T/m/junit.xml"

# 33.5: regular files only, bounded
mkdir -p "$T/fifo" "$T/zero" "$T/isdir/results.txt" "$T/huge"
mkfifo "$T/fifo/results.txt"
ln -s /dev/zero "$T/zero/results.txt"
truncate -s 2G "$T/huge/results.txt"
for d in fifo zero isdir huge; do
	merge "$T/m" "$T/ok1" "$T/$d"
	check "results.txt as $d: refused (exit $rc), not hung" test "$rc" -ne 0 -a "$rc" -ne 124
	check "  named" grep -q "$T/$d/results.txt" "$T/err"
done
rm -rf "$T/m"
mkdir "$T/nores"
merge "$T/m" "$T/ok1" "$T/nores"
check "a dir without results.txt fails the merge" test "$rc" -ne 0
check "  named" grep -q "$T/nores/results.txt" "$T/err"

# 25.11: every shard of the split
mkres "$T/s1" "R1 meta suite p shard 1/3" "R1 meta shard 1/3" "R1 pass a 0.1 -" "R1 meta exit 0"
mkres "$T/s3" "R1 meta suite p shard 3/3" "R1 meta shard 3/3" "R1 pass c 0.1 -" "R1 meta exit 0"
merge "$T/m" "$T/s1" "$T/s3"
expect_rc "shard 2/3 missing: the merge fails" 1 "$rc"
check "  the missing shard is named" grep -q "shard 2/3 .*missing\|missing.*shard 2/3" "$T/err"
check "  junit.xml has a failed testcase for it" grep -q 'name="rapido: shard 2/3 missing' "$T/m/junit.xml"
merge "$T/m" "$T/s1" "$T/s1"
expect_rc "the same shard twice: the merge fails" 1 "$rc"
mkres "$T/s2" "R1 meta suite p shard 2/3" "R1 meta shard 2/3" "R1 pass b 0.1 -" "R1 meta exit 0"
merge "$T/m" "$T/s1" "$T/s2" "$T/s3"
expect_rc "all three shards: 0" 0 "$rc"
mkres "$T/s2of2" "R1 meta suite p shard 2/2" "R1 meta shard 2/2" "R1 pass b 0.1 -" "R1 meta exit 0"
merge "$T/m" "$T/s1" "$T/s2of2" "$T/s3"
expect_rc "shards of two splits (1/3, 2/2, 3/3): the merge fails" 1 "$rc"

# 33.11: the duplicate check in n log n: 2 x 100000 tests in a minute
# (the quadratic check needs about 20 minutes here)
for d in 1 2; do
	mkdir -p "$T/big$d"
	awk -v d=$d 'BEGIN { print "R1 meta suite big" d; for (i = 0; i < 100000; i++) print "R1 pass t" d "-" i " 0.001 -"; print "R1 meta exit 0" }' > "$T/big$d/results.txt"
done
echo "R1 pass t1-5 0.001 -" >> "$T/big2/results.txt"
merge "$T/m" "$T/big1" "$T/big2"
check "2 x 100000 tests merge within the minute (exit $rc)" test "$rc" -ne 124
check "  the one test in both is named" grep -q "test 't1-5' is in both big1 and big2" "$T/err"
check "  and only it" test "$(grep -c "is in both" "$T/err")" = 1

# issue 40.12: a results.txt of 40 MB of records is read within the caps
# (RESULTS_TESTS_MAX), its memory bounded (the merge took 10 times the
# file's size); one past RESULTS_TXT_MAX is refused, naming the cap
mkdir -p "$T/flood"
awk 'BEGIN { print "R1 meta suite flood"; for (i = 0; i < 3000000; i++) print "R1 pass t 0 -"; print "R1 meta exit 0" }' > "$T/flood/results.txt"
ASAN_OPTIONS=quarantine_size_mb=0:${ASAN_OPTIONS:-} \
	/usr/bin/time -f %M -o "$T/rss" "$VM" --merge-results "$T/mf" "$T/flood" > "$T/out" 2> "$T/err"
expect_rc "40 MB of records: the merge fails" 1 $?
check "  naming the cap" grep -q "cap of 200000 tests a run (RESULTS_TESTS_MAX)" "$T/out"
check "  in under $flood_mb MB (it took $(($(tail -n 1 "$T/rss") / 1024)) MB)" \
	test "$(tail -n 1 "$T/rss")" -lt $((flood_mb * 1024))
truncate -s 97M "$T/flood/results.txt"
merge "$T/mf2" "$T/flood"
check "a results.txt past 96 MiB: refused (exit $rc)" grep -q "flood/results.txt: larger than 96 MiB" "$T/err"
done_testing
