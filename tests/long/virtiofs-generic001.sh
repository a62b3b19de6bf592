#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# virtiofs-generic001.sh (long): the real generic/001 passes in
# fstests_virtiofs on two host directories, generic/002 of the failing
# copy fails, in one boot (scenario 4 of tests/boot/virtiofs.sh): 5 to 10
# minutes under TCG on a shared 2-core machine, each of generic/001's
# copies a round trip to virtiofsd; the boot tier runs generic/005 there.
# tests/run timeout: 1800s
ONLY=4
vfs_pass=generic/001
. "$(dirname "$0")/../boot/virtiofs.sh"
