#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ecryptfs-real-verdicts.sh: the ecryptfs_local profile with the real
# ecryptfs-utils 111 suite, where it fails.
# 1. A hardlinked copy of the built tree, two tests altered at test time:
#    lp-926292.sh expects another mode (a real test failing), lp-613873.sh
#    kills its harness (run_tests.sh dies mid-run). Run with
#    ECRYPTFS_TESTS on ext4 and xfs disk images of 64M, which mkfs.xfs
#    refuses (run_tests.sh then skips xfs, counting nothing, and its own
#    summary says 0 failed): ./vm exits 1, the failing test, the test
#    without a verdict, the harness's status and both xfs tests are
#    failures of ./vm --results, and the extras do not run.
# 2. The destructive category on ext4 runs to its own verdict: each test's
#    result in ./vm --results is what run_tests.sh printed for it, ./vm
#    exits 0 exactly when none failed, and none does on Debian's 6.1
#    (lib-ecryptfs.inc: ecr_kernel_fails lists none).
# tests/run timeout: 1800s
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-ecryptfs.inc"

# 1. failures
tree=$T/ecryptfs-utils
ecr_copy "$tree"
check "copy: lp-926292.sh expects mode 555, not 500" \
	ecr_alter "$tree/tests/kernel/lp-926292.sh" 's/\[ \$st = "500" \]/[ $st = "555" ]/'
check "copy: lp-613873.sh kills run_tests.sh" \
	ecr_alter "$tree/tests/kernel/lp-613873.sh" '/^trap test_cleanup/a kill -KILL $PPID'
check "  the built tree itself is unchanged" \
	bash -c '! grep -q 555 "$1/tests/kernel/lp-926292.sh" && ! grep -q PPID "$1/tests/kernel/lp-613873.sh"' _ "$ECR"
ecr_conf "$tree" ext4,xfs 64M ECRYPTFS_TESTS=lp-926292.sh,lp-613873.sh
if ecr_boot "a failing test, a harness killed, a disk it cannot make" 1 -x 'echo extras-ran'; then
	check "  run_tests.sh printed FAIL for lp-926292 on ext4" \
		test "$(ecr_harness run_tests.log ext4 lp-926292.sh)" = FAIL
	check "  ./vm: ecryptfs/ext4/lp-926292 failed" ecr_is ecryptfs/ext4/lp-926292 failure
	check "    run_tests.sh: FAIL" ecr_reason ecryptfs/ext4/lp-926292 "run_tests.sh: FAIL"
	check "  run_tests.sh printed neither for lp-613873 on ext4 (killed)" \
		test "$(ecr_harness run_tests.log ext4 lp-613873.sh)" = none
	check "  ./vm: ecryptfs/ext4/lp-613873 failed: no pass or FAIL" \
		ecr_reason ecryptfs/ext4/lp-613873 "run_tests.sh printed no pass or FAIL for it"
	check "  ./vm: ecryptfs/ext4/run_tests.sh failed: no summary, exit status 137" \
		ecr_reason ecryptfs/ext4/run_tests.sh "or exit status (137) disagrees with its test lines"
	check "  run_tests.sh could not make the xfs disk" grep -qF \
		"Failed to create disk for xfs (skipping all tests on xfs)" "$SHARE/ecryptfs/run_tests.log"
	check "  and its own summary passes xfs: 0 passed, 0 failed" ecr_summary run_tests.log xfs 0 0
	for t in lp-926292 lp-613873; do
		check "  ./vm: ecryptfs/xfs/$t failed: not run, no disk" ecr_reason "ecryptfs/xfs/$t" \
			"not run: run_tests.sh: Failed to create disk for xfs"
	done
	check "  ./vm: 5 failures, nothing else" \
		test "$(ecr_count failure)/$(testcases "$RES/junit.xml" | wc -l)" = 5/5
	check "  run_tests.status: 1" grep -qx 1 "$SHARE/ecryptfs/run_tests.status"
	check "  the console says the suite failed" guest_says "$T/console" \
		"rapido: FAILED: the ecryptfs-utils suite (tests/run_tests.sh): see the tests above"
	check "  the extras did not run" bash -c "! grep -q extras-ran '$T/console'"
	check "  kernel console clean" console_clean "$T/console"
	diag
fi

# 2. the destructive category: its own verdict
ecr_conf "$ECR" ext4 64M ECRYPTFS_TEST_CATEGORY=destructive
ecr_category ext4 destructive
done_testing
