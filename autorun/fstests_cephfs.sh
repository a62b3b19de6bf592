#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests_cephfs: xfstests on CephFS, the way xfstests documents it for
# ceph: FSTYP=ceph, TEST_DEV and SCRATCH_DEV are directories of the
# cluster's file system given as MONS:/PATH (/rapido-fstests/rapidoN/test
# and .../scratch, made at boot), the test one mounted at /mnt/test, and
# CEPHFS_MOUNT_OPTIONS carries the client's name and key. With FSTESTS_SRC
# (a built xfstests tree) the image carries it at /fstests, local.config
# is written, the fsgqa users are made, the shell moves to /fstests and
# FSTESTS_AUTORUN_CMD runs, or the tests FSTESTS_GROUPS/FSTESTS_TESTS
# pick through rapido_fstests_check, as in fstests_local. Results go to
# /host/results when ./vm --share (or VIRTFS_SHARE_PATH) gives a host
# directory.
#
# rapido.conf (or environment) keys:
#   CEPH_CONF, CEPH_KEYRING, CEPH_USER, CEPH_FS_NAME, CEPH_MOUNT_OPTS,
#   CEPH_TIMEOUT         the cluster, as for cephfs
#   FSTESTS_SRC          a built xfstests tree on the host (optional)
#   FSTESTS_AUTORUN_CMD  command run in /fstests after set-up (optional)
#   FSTESTS_GROUPS, FSTESTS_TESTS, FSTESTS_EXCLUDE_GROUPS,
#   FSTESTS_EXCLUDE_TESTS, FSTESTS_EXCLUDE_FILE   as in fstests_local
#@ description: xfstests on CephFS: FSTYP=ceph, TEST_DEV/SCRATCH_DEV as MONS:/dir, /mnt/test mounted, FSTESTS_SRC at /fstests
#@ results: yes
#@ include: ceph
#@ include: fstests-net
# the cephfs profile's client
#@ kconfig: CONFIG_CEPH_FS=m
#@ kconfig-optional: CONFIG_NETWORK_FILESYSTEMS=y CONFIG_CEPH_FS_POSIX_ACL=y
#@ modules: ceph
#@ conf-optional: CEPH_FS_NAME CEPH_MOUNT_OPTS
#@ cpus: 2
#@ memory: 1G

FSTYP=ceph
TEST_DIR=/mnt/test
SCRATCH_MNT=/mnt/scratch
ceph_need_net
fstests_selection_ok

# this VM's two directories, made through a mount of the root
fc_base=/rapido-fstests/rapido$RAPIDO_VM
fc_fsopt=(${CEPH_FS_NAME:+--fs "$CEPH_FS_NAME"} ${CEPH_MOUNT_OPTS:+-o "$CEPH_MOUNT_OPTS"})
ceph_client mount "${fc_fsopt[@]}" /mnt/cephfs-root ||
	rapido_fail "cannot mount the cluster's file system (see above)"
mkdir -p "/mnt/cephfs-root$fc_base/test" "/mnt/cephfs-root$fc_base/scratch" ||
	rapido_fail "cannot make $fc_base/test and scratch on CephFS"
ceph_umount /mnt/cephfs-root

TEST_DEV=$(ceph_client source "$fc_base/test") || rapido_fail "no monitors (see above)"
SCRATCH_DEV=$(ceph_client source "$fc_base/scratch") || rapido_fail "no monitors (see above)"
CEPHFS_MOUNT_OPTIONS="-o $(ceph_client options "${fc_fsopt[@]}")" ||
	rapido_fail "no client key (see above)"
ceph_client mount "${fc_fsopt[@]}" --path "$fc_base/test" "$TEST_DIR" ||
	rapido_fail "cannot mount TEST_DEV=$TEST_DEV on $TEST_DIR (see above)"
mkdir -p "$SCRATCH_MNT" || rapido_fail "mkdir $SCRATCH_MNT failed"
export FSTYP TEST_DEV TEST_DIR SCRATCH_DEV SCRATCH_MNT CEPHFS_MOUNT_OPTIONS
echo "fstests: ceph TEST_DEV=$TEST_DEV mounted at $TEST_DIR;" \
	"SCRATCH_DEV=$SCRATCH_DEV unmounted, SCRATCH_MNT=$SCRATCH_MNT"

fstests_net_run ceph
