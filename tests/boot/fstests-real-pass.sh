#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-real-pass.sh: a real xfstests test passes in fstests_local:
# generic/001 on ext4 (scenario 1 of lib-fstests-real.inc; nearly 10
# minutes under TCG on a lightly loaded 2-core machine).
# tests/run timeout: 1800s
scenarios="1"
. "$(dirname "$0")/lib-fstests-real.inc"
