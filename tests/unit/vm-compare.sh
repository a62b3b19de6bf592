#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-compare.sh: ./vm --compare-results A B on hand-made result dirs (no
# guest): its exit status (1 when B regressed, 0 when not, 125 for a dir
# without results.txt or a wrong call) and the lines it prints; a merged
# run's records (error, splat) count as such. The verdict table itself is
# tests/unit/vm-splattest.c's.
. "$(dirname "$0")/results-dirs.inc"
mkres "$T/a" "R1 start t1" "R1 pass t1 1 -" "R1 pass t2 1 -" "R1 fail t3 1 broken -" "R1 pass t5 1 -" \
	"R1 meta exit 1"
mkres "$T/b" "R1 meta rerun 1" "R1 start t1" "R1 pass t1 1 -" "R1 splat t1 kernel%20warning:%20WARNING:%20x -" \
	"R1 pass t2 1 -" "R1 pass t3 1 -" "R1 error t4 0 not%20run:%20the%20VM%20was%20stopped -" \
	"R1 fail t5 1 once -" "R1 rerun t5 1" "R1 pass t5 1 -" \
	"R1 meta exit 124"
mkres "$T/c" "R1 pass t1 1 -" "R1 pass t2 1 -" "R1 pass t3 1 -" "R1 pass t5 1 -" "R1 meta exit 0"

"$VM" --compare-results "$T/a" "$T/b" > "$T/out" 2> "$T/err"
expect_rc "a WARNING in t1 and a test not run: B regressed" 1 $?
check "  t1's new failure with the report" grep -qx "new failure: t1: pass -> fail: kernel warning: WARNING: x" "$T/out"
check "  t3 fixed" grep -qx "fixed: t3: fail -> pass" "$T/out"
check "  t4 a new test that did not run" grep -qx "new failure (new test): t4: absent -> error: not run: the VM was stopped" "$T/out"
check "  t5 failed, then passed on a re-run: newly flaky" grep -qx "newly flaky: t5: pass -> flaky" "$T/out"
check "  the summary" grep -qx "compare: 2 new failures, 1 fixed, 1 newly flaky, 1 appeared, 0 vanished: regressed" "$T/out"
"$VM" --compare-results "$T/a" "$T/c" > "$T/out" 2> "$T/err"
expect_rc "only a fix: no regression" 0 $?
check "  says so" grep -qx "compare: 0 new failures, 1 fixed, 0 newly flaky, 0 appeared, 0 vanished: no regression" "$T/out"
"$VM" --compare-results "$T/c" "$T/a" > "$T/out" 2> "$T/err"
expect_rc "back: t3 fails anew, the run failed" 1 $?
check "  the failed run named" grep -qx "run failed: exit status 0 -> 1" "$T/out"
mkdir -p "$T/empty"
"$VM" --compare-results "$T/a" "$T/empty" > "$T/out" 2> "$T/err"
expect_rc "a dir without results.txt" 125 $?
check "  named" grep -q "compare-results: $T/empty/results.txt: No such file" "$T/err"
"$VM" --compare-results "$T/a" > "$T/out" 2> "$T/err"
expect_rc "one dir only" 125 $?
check "  usage" grep -q "Usage: vm --compare-results A B" "$T/err"
done_testing
