#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-real.sh: a real failing xfstests test reaches ./vm's exit status
# and junit.xml through every way fstests_local starts ./check, and a
# ./check that cannot start fails the run (scenarios 2 and 3 of
# lib-fstests-real.inc).
# tests/run timeout: 1800s
scenarios="2a 3b 2b 3a 2c 2d"
. "$(dirname "$0")/lib-fstests-real.inc"
