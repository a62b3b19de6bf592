#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# known-fstests.sh: a real failing xfstests test (generic/002 of the
# failing variant) given as a known failure in an xfstests -E exclude
# file, with --rerun-failures 1: ./check runs it again, ./vm exits 0 and
# junit.xml holds it as a known failure (scenario 2e of
# lib-fstests-real.inc).
# tests/run timeout: 1800s
scenarios="2e"
. "$(dirname "$0")/lib-fstests-real.inc"
