#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-real.sh: a real failing xfstests test reaches ./vm's exit status
# and junit.xml through every way fstests_local starts ./check, and a
# ./check that cannot start fails the run, and a hung test stopped by
# --test-timeout leaves the tests after it named (scenarios 2 and 3 of
# lib-fstests-real.inc).
# tests/run timeout: 1800s
scenarios="2a 3b 2b 3a 2c 2d 2f"
. "$(dirname "$0")/lib-fstests-real.inc"
