#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-real-pass.sh: real xfstests tests pass in fstests_local:
# generic/001 on ext4, and btrfs/003 on the default scsi_debug pool
# (scenarios 1 and 4 of lib-fstests-real.inc).
scenarios="1 4"
. "$(dirname "$0")/lib-fstests-real.inc"
