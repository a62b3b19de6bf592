#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests_virtiofs: xfstests on virtiofs, FSTYP=virtiofs as xfstests
# documents it: TEST_DEV and SCRATCH_DEV are virtiofs tags, two host
# directories that ./vm shares through virtiofsd (which it starts and
# stops), the test one mounted at /mnt/test:
#   ./vm --virtiofs TESTDIR:fstests-test --virtiofs SCRATCHDIR:fstests-scratch
# (or VM_VIRTIOFS in rapido.conf). Both must be writable and are written
# by root (virtiofsd runs as root): give it directories of their own,
# which the tests fill and empty (xfstests removes everything in the
# scratch share). So a share is used only when it is empty, and is then
# marked with a .rapido-fstests file, or already holds that mark: a
# mistyped directory full of someone's files is refused, untouched. With FSTESTS_SRC (a built xfstests tree)
# the image carries it at /fstests and the tests FSTESTS_GROUPS /
# FSTESTS_TESTS pick run through rapido_fstests_check, as in fstests_local,
# each a testcase of ./vm --results.
#
# rapido.conf (or environment) keys:
#   FSTESTS_SRC, FSTESTS_AUTORUN_CMD, FSTESTS_GROUPS, FSTESTS_TESTS,
#   FSTESTS_EXCLUDE_GROUPS, FSTESTS_EXCLUDE_TESTS, FSTESTS_EXCLUDE_FILE
#                        as in fstests_local
#@ description: xfstests on virtiofs: two host directories (./vm --virtiofs DIR:TAG), FSTYP=virtiofs, FSTESTS_SRC at /fstests
#@ results: yes
#@ include: fstests-net
#@ kconfig: CONFIG_VIRTIO_FS=m
#@ cpus: 2
#@ memory: 2G

FSTYP=virtiofs
TEST_DIR=/mnt/test
SCRATCH_MNT=/mnt/scratch
TEST_DEV=fstests-test
SCRATCH_DEV=fstests-scratch
fstests_selection_ok
mkdir -p "$TEST_DIR" "$SCRATCH_MNT" || rapido_fail "mkdir $TEST_DIR $SCRATCH_MNT failed"
mount -t virtiofs "$TEST_DEV" "$TEST_DIR" ||
	rapido_fail "cannot mount virtiofs tag $TEST_DEV on $TEST_DIR: boot with" \
		"./vm --virtiofs TESTDIR:$TEST_DEV --virtiofs SCRATCHDIR:$SCRATCH_DEV"
# share_ours DIR TAG: DIR (TAG mounted there) is empty, marked now, or
# already marked as fstests_virtiofs' own; else the run stops untouched
share_ours() {
	local f n=0

	[ -e "$1/.rapido-fstests" ] && return 0
	for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		n=$((n + 1))
	done
	[ "$n" = 0 ] ||
		rapido_fail "virtiofs tag $2 holds $n files and no .rapido-fstests mark:" \
			"fstests_virtiofs empties its shares (xfstests removes the scratch share's files);" \
			"give it empty directories of its own (marked on first use), or add the mark yourself"
	: > "$1/.rapido-fstests" || rapido_fail "cannot mark virtiofs tag $2 ($1/.rapido-fstests)"
}
share_ours "$TEST_DIR" "$TEST_DEV"
# the scratch tag is mounted by the tests; that it is there and ours, checked now
mount -t virtiofs "$SCRATCH_DEV" "$SCRATCH_MNT" ||
	rapido_fail "cannot mount virtiofs tag $SCRATCH_DEV: boot with" \
		"./vm --virtiofs SCRATCHDIR:$SCRATCH_DEV"
share_ours "$SCRATCH_MNT" "$SCRATCH_DEV"
umount "$SCRATCH_MNT" || rapido_fail "cannot unmount $SCRATCH_MNT"
export FSTYP TEST_DEV TEST_DIR SCRATCH_DEV SCRATCH_MNT
echo "fstests: virtiofs TEST_DEV=$TEST_DEV mounted at $TEST_DIR;" \
	"SCRATCH_DEV=$SCRATCH_DEV unmounted, SCRATCH_MNT=$SCRATCH_MNT"
fstests_net_run virtiofs
