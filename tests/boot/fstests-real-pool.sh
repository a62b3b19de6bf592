#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-real-pool.sh: the real btrfs/197 passes on fstests_local's
# default btrfs scratch pool (five scsi_debug disks, each a member of a
# raid profile or the spare); scenario 4 of lib-fstests-real.inc. The
# pool's disk that btrfs/003 drops and scans back is proven by hand:
# tests/long/fstests-real-pool.sh (over 20 minutes under TCG).
# tests/run timeout: 1200s
scenarios="4"
. "$(dirname "$0")/lib-fstests-real.inc"
