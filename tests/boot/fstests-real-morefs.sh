#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-real-morefs.sh: FSTESTS_FS beyond btrfs, xfs and ext4 with the
# real xfstests (scenario 1m of lib-fstests-real.inc): generic/006 passes on
# f2fs and exfat, and generic/002 edited to fail fails on f2fs, in ./vm's
# exit status and junit.xml. generic/001 (12 minutes a boot under TCG) on
# f2fs, exfat and udf: tests/long/fstests-real-morefs.sh. ntfs3 is not
# booted: Debian 12's kernel has none (tests/unit/cut-profile-names.sh:
# ./cut refuses it, naming the module).
# tests/run timeout: 1800s
scenarios="1m-f2fs 1m-exfat"
morefs_pass=generic/006
. "$(dirname "$0")/lib-fstests-real.inc"
