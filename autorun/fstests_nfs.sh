#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests_nfs: xfstests on NFS, server and client in one guest: two zram
# disks with NFS_FS on them are exported by nfsd (Debian's
# nfs-kernel-server, as in nfs_local) as 127.0.0.1:/export/test and
# 127.0.0.1:/export/scratch, the way xfstests documents FSTYP=nfs:
# TEST_DEV and SCRATCH_DEV are those exports, the test one mounted at
# /mnt/test, NFS_MOUNT_OPTIONS carries the version. With FSTESTS_SRC (a
# built xfstests tree) the image carries it at /fstests and the tests
# FSTESTS_GROUPS/FSTESTS_TESTS pick run through rapido_fstests_check, as in
# fstests_local, each a testcase of ./vm --results.
#
# rapido.conf (or environment) keys:
#   NFS_VERS, NFS_FS     as in nfs_local (4.2, ext4)
#   NFS_ZRAM_SIZE        each of the two disks (default 1G)
#   FSTESTS_SRC          a built xfstests tree on the host (optional)
#   FSTESTS_AUTORUN_CMD  command run in /fstests after set-up (optional)
#   FSTESTS_GROUPS, FSTESTS_TESTS, FSTESTS_EXCLUDE_GROUPS,
#   FSTESTS_EXCLUDE_TESTS, FSTESTS_EXCLUDE_FILE   as in fstests_local
#@ description: xfstests on NFS over loopback: nfsd exports two zram disks, FSTYP=nfs, NFS_VERS, FSTESTS_SRC at /fstests
#@ results: yes
#@ include: nfs
#@ include: fstests-net
#@ conf-optional: NFS_ZRAM_SIZE
#@ conf-type: NFS_ZRAM_SIZE size 16M
#@ cpus: 2
#@ memory: 2G

FSTYP=nfs
TEST_DIR=/mnt/test
SCRATCH_MNT=/mnt/scratch
fstests_selection_ok
nfs_vers_ok
nfs_prepare
nfs_export test "${NFS_FS:-ext4}" "${NFS_ZRAM_SIZE:-1G}"
nfs_export scratch "${NFS_FS:-ext4}" "${NFS_ZRAM_SIZE:-1G}"
nfs_server_up
nfs_mount_options
TEST_DEV=127.0.0.1:/export/test
SCRATCH_DEV=127.0.0.1:/export/scratch
NFS_MOUNT_OPTIONS="-o $REPLY"
mkdir -p "$TEST_DIR" "$SCRATCH_MNT" || rapido_fail "mkdir $TEST_DIR $SCRATCH_MNT failed"
mount -t nfs -o "$REPLY" "$TEST_DEV" "$TEST_DIR" ||
	rapido_fail "cannot mount TEST_DEV=$TEST_DEV on $TEST_DIR with -o $REPLY"
nfs_check_mount "$TEST_DIR"
export FSTYP TEST_DEV TEST_DIR SCRATCH_DEV SCRATCH_MNT NFS_MOUNT_OPTIONS
echo "fstests: nfs TEST_DEV=$TEST_DEV mounted at $TEST_DIR ($NFS_MOUNT_OPTIONS);" \
	"SCRATCH_DEV=$SCRATCH_DEV unmounted, SCRATCH_MNT=$SCRATCH_MNT"
fstests_net_run nfs
