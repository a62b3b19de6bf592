#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-real-overlay.sh: a real xfstests test passes with ./check
# -overlay (FSTESTS_OVERLAY=1): generic/001 on overlayfs over ext4 test and
# scratch disks (scenario 1o of lib-fstests-real.inc; as long as
# fstests-real-pass.sh under TCG).
# tests/run timeout: 1800s
scenarios="1o"
. "$(dirname "$0")/lib-fstests-real.inc"
