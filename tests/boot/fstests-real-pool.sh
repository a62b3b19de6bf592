#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-real-pool.sh: the real btrfs/003 passes on fstests_local's
# default btrfs scratch pool (five scsi_debug disks, one of them dropped
# and scanned back); scenario 4 of lib-fstests-real.inc, over 15 minutes
# under TCG.
# tests/run timeout: 2400s
scenarios="4"
. "$(dirname "$0")/lib-fstests-real.inc"
