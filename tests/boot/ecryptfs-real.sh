#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ecryptfs-real.sh: the ecryptfs_local profile with the real ecryptfs-utils
# 111 suite (tests/suite-tree ecryptfs-utils; skipped where ../shared/suites
# is absent), on ext4.
# 1. ECRYPTFS_TESTS with one test (-t lp-926292.sh) passes; then, with
#    Debian's libecryptfs removed from the guest, -x runs the suite again
#    with -t on ext3: it passes with the tree's own library (a tree carried
#    to another path finds it only through the profile's LD_LIBRARY_PATH:
#    its libtool wrappers name the host's build directory). Then the causes
#    of the safe category's failures on Debian's 6.1 (lib-ecryptfs.inc:
#    ecr_kernel_why): the tests that fail with ENOSPC after lp-872905
#    (lp-561129, mknod, link, namelen) pass on a disk of their own, and
#    ecryptfs-causes.guest shows, on a mount made by the suite's library,
#    that a time set through eCryptfs loses its fraction (setattr-flush-
#    dirty) and that a plain-named lower file like lp-872905's filler is
#    hidden and keeps its directory from being removed.
# 2. The safe category of its tests/kernel/tests.rc: each test is a result
#    of ./vm --results that is what run_tests.sh printed for it (xattr.sh,
#    listed but not shipped, skipped), ./vm exits 0 exactly when none
#    failed, and what fails is exactly the kernel's (ecr_kernel_fails),
#    each shown with its cause; every other test passes.
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
	-x '_ecryptfs_suite -f ext3 -t lp-926292.sh; echo "x-status=$?"' \
	-x '_ecryptfs_suite -t lp-561129.sh,mknod.sh,link.sh,namelen.sh; echo "x2-status=$?"' \
	-f "$TOP/tests/boot/ecryptfs-causes.guest"; then
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
	# what fails in the safe category with ENOSPC, each on a disk of its own
	for t in lp-561129 mknod link namelen; do
		check "  then $t alone on ext4: run_tests.sh printed pass, ./vm has it passed" \
			test "$(ecr_harness run_tests.3.log ext4 $t.sh)/$(ecr_state ecryptfs/ext4/$t)" = pass/pass
	done
	check "  its summary: 4 passed, 0 failed" ecr_summary run_tests.3.log ext4 4 0
	check "  and its status reached the extra" guest_says "$T/console" "x2-status=0"
	check "  ./vm: those six results" test "$(testcases "$RES/junit.xml" | wc -l)" = 6
	# the kernel's causes, shown on a mount made by the suite's own library
	check "  causes: mounted as the suite does, with filename encryption" \
		ecr_guest_matches "^causes: mounted with .*,ecryptfs_fnek_sig="
	check "  causes: an mtime set with a fraction reads back without it (no s_time_gran)" \
		guest_says "$T/console" "causes: an mtime set to 00:00:00.5 reads back as 2020-01-01 00:00:00.000000000"
	check "  causes: a plain-named lower file is not listed through eCryptfs" \
		guest_says "$T/console" "causes: listed through eCryptfs after a lower 'filler': []"
	check "  causes: and its directory cannot be removed through eCryptfs (ENOTEMPTY)" \
		ecr_guest_matches "^causes: rm -rf through eCryptfs: rm: cannot remove '.*': Directory not empty$"
	check "  causes: done" guest_says "$T/console" "causes: done"
	check "  kernel console clean" console_clean "$T/console"
	diag
fi

# 2. the safe category
sed -i 's/^ECRYPTFS_TESTS=.*/ECRYPTFS_TEST_CATEGORY=safe/' "$RAPIDO_CONF"
ecr_category ext4 safe
done_testing
