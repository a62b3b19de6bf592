#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-real-morefs.sh (long): the real generic/001 passes on f2fs (with
# generic/002 edited to fail: ./vm's exit status 1 and junit.xml), exfat and
# udf in fstests_local; scenario 1m of tests/boot/lib-fstests-real.inc. 12
# minutes a boot under TCG, too long for CI, whose boot tier runs
# generic/006 on f2fs and exfat (tests/boot/fstests-real-morefs.sh).
# ONLY=1m-exfat runs one of them.
# tests/run timeout: 3600s
scenarios="1m-f2fs 1m-exfat 1m-udf"
. "$(dirname "$0")/../boot/lib-fstests-real.inc"
