#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-real-pool.sh (long): the real btrfs/003 passes on fstests_local's
# default btrfs scratch pool (five scsi_debug disks, one of them dropped
# through /sys and scanned back: the pool must be deletable SCSI disks);
# scenario 4 of tests/boot/lib-fstests-real.inc. 15 to 22 minutes under
# TCG, too long for CI, whose boot tier runs btrfs/197 on the same pool.
# tests/run timeout: 2400s
scenarios="4"
pool_test=btrfs/003
. "$(dirname "$0")/../boot/lib-fstests-real.inc"
