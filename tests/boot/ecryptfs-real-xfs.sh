#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ecryptfs-real-xfs.sh: the ecryptfs_local profile with the real
# ecryptfs-utils 111 suite: the safe category on an xfs lower file system
# (disk images of 320M: mkfs.xfs 6.1 wants 300M): each test is a result of
# ./vm --results that is what run_tests.sh printed for it, ./vm exits 0
# exactly when none failed, and what fails is exactly what Debian's 6.1
# fails, each shown with its cause (lib-ecryptfs.inc: ecr_kernel_fails:
# setattr-flush-dirty, and lp-561129, mknod, link and namelen with ENOSPC
# after lp-872905); every other test passes. The ext4 half (and -t) is
# ecryptfs-real.sh; apart, the two run in parallel.
# tests/run timeout: 1800s
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-ecryptfs.inc"

ecr_conf "$ECR" xfs 320M ECRYPTFS_TEST_CATEGORY=safe
ecr_category xfs safe
done_testing
