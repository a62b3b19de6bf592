#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ecryptfs-real.sh: the ecryptfs_local profile with the real ecryptfs-utils
# 111 suite (tests/suite-tree ecryptfs-utils; skipped where ../shared/suites
# is absent), on ext4.
# 1. ECRYPTFS_TESTS with one test (-t lp-926292.sh) passes; then, with
#    Debian's libecryptfs removed from the guest, -x runs the suite again
#    with -t on ext3: it passes with the tree's own library (a tree carried
#    to another path finds it only through the profile's LD_LIBRARY_PATH:
#    its libtool wrappers name the host's build directory).
# 2. The safe category of its tests/kernel/tests.rc: each test is a result
#    of ./vm --results that is what run_tests.sh printed for it (xattr.sh,
#    listed but not shipped, skipped), and ./vm exits 0 exactly when none
#    failed. Which passed is printed: the kernel's verdict.
# The xfs half is ecryptfs-real-xfs.sh; failures, a disk the harness
# cannot make and the destructive category are ecryptfs-real-verdicts.sh.
# tests/run timeout: 1800s
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-ecryptfs.inc"

# 1. -t one test; the tree's own library
ecr_conf "$ECR" ext4 64M ECRYPTFS_TESTS=lp-926292.sh
# the libtool wrapper would run the host's libecryptfs where the tree's is not found
nolib='shopt -s nullglob
l=(/usr/lib/x86_64-linux-gnu/libecryptfs.so* /lib/x86_64-linux-gnu/libecryptfs.so*)
rm -f "${l[@]}"
r=(/usr/lib/x86_64-linux-gnu/libecryptfs.so* /lib/x86_64-linux-gnu/libecryptfs.so*)
shopt -u nullglob
[ ${#l[@]} -gt 0 ] && [ ${#r[@]} -eq 0 ] && echo "debian libecryptfs removed: ${l[*]}"'
if ecr_boot "-t lp-926292.sh on ext4, then again on ext3 without Debian's libecryptfs" 0 -x "$nolib" \
	-x '_ecryptfs_suite -f ext3 -t lp-926292.sh; echo "x-status=$?"'; then
	check "  -t lp-926292.sh: run_tests.sh printed pass, ./vm has it passed" \
		test "$(ecr_harness run_tests.log ext4 lp-926292.sh)/$(ecr_state ecryptfs/ext4/lp-926292)" = pass/pass
	check "  run_tests.sh ran as asked" grep -qxF \
		"tests/run_tests.sh -K -b 65536 -D /tmp/image -l /lower -u /upper -f ext4 -t lp-926292.sh" \
		"$SHARE/ecryptfs/run_tests.args"
	check "  the suite ran with the tree's own libraries" guest_says "$T/console" \
		"ecryptfs: the tree's own libraries: /ecryptfs/src/libecryptfs/.libs"
	check "  Debian's libecryptfs was in the image and -x removed it" guest_says "$T/console" \
		"debian libecryptfs removed: /usr/lib/x86_64-linux-gnu/libecryptfs.so.1"
	check "  then -t lp-926292.sh on ext3: run_tests.sh printed pass, ./vm has it passed" \
		test "$(ecr_harness run_tests.2.log ext3 lp-926292.sh)/$(ecr_state ecryptfs/ext3/lp-926292)" = pass/pass
	check "  run_tests.sh ran as asked (later options win)" grep -qxF \
		"tests/run_tests.sh -K -b 65536 -D /tmp/image -l /lower -u /upper -f ext3 -t lp-926292.sh" \
		"$SHARE/ecryptfs/run_tests.2.args"
	check "  its summary: 1 passed, 0 failed" ecr_summary run_tests.2.log ext3 1 0
	check "  and its status reached the extra" guest_says "$T/console" "x-status=0"
	check "  ./vm: those two results" test "$(testcases "$RES/junit.xml" | wc -l)" = 2
	check "  kernel console clean" console_clean "$T/console"
	diag
fi

# 2. the safe category
sed -i 's/^ECRYPTFS_TESTS=.*/ECRYPTFS_TEST_CATEGORY=safe/' "$RAPIDO_CONF"
ecr_category ext4 safe
done_testing
