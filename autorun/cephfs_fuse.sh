#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cephfs_fuse: CephFS through ceph-fuse, libcephfs in user space behind the
# kernel's fuse driver. Mounts the cluster's file system at /mnt/cephfs,
# checks a write, fsync and read back there, then the -x/-f extras run; the
# file system is unmounted (and ceph-fuse exits) when the autorun shell
# exits.
#
# The cluster is the one of CEPH_CONF and CEPH_KEYRING, by default the
# ./ceph-local cluster's; the image holds the client's key
# (/etc/ceph/keyring): it is readable by its owner only.
#
# rapido.conf (or environment) keys:
#   CEPH_CONF, CEPH_KEYRING, CEPH_USER, CEPH_TIMEOUT   as for cephfs
#   CEPH_FS_NAME     the file system (default: the cluster's default one)
#@ description: mount CephFS with ceph-fuse (libcephfs over fuse) at /mnt/cephfs from CEPH_CONF/CEPH_KEYRING, write/fsync/read check, then the extras
#@ include: ceph
#@ kconfig: CONFIG_FUSE_FS=m
#@ modules: fuse
#@ bins: ceph-fuse mount umount cat mkdir sync timeout head dd cmp rm
#@ bins-optional: fusermount ls cp mv touch stat df grep sed sha256sum tail dmesg findmnt
#@ conf-optional: CEPH_FS_NAME
#@ cpus: 1
#@ memory: 512M

CEPHFS_DIR=/mnt/cephfs
ceph_need_net
ceph_librados_conf /etc/ceph/rapido-user.conf
export CEPH_KEYRING=/etc/ceph/keyring
modprobe fuse 2> /dev/null || [ -e /sys/module/fuse ] || rapido_fail "cephfs_fuse: cannot load the fuse module"
mkdir -p "$CEPHFS_DIR" || rapido_fail "mkdir $CEPHFS_DIR"
timeout -s KILL $((${CEPH_TIMEOUT:-20} + 10)) ceph-fuse -c /etc/ceph/rapido-user.conf \
	--id "${CEPH_USER:-admin}" ${CEPH_FS_NAME:+--client_fs "$CEPH_FS_NAME"} "$CEPHFS_DIR" \
	> /tmp/ceph-fuse.log 2>&1 || {
	cat /tmp/ceph-fuse.log >&2
	rapido_fail "cephfs_fuse: ceph-fuse cannot mount the cluster's file system on $CEPHFS_DIR (see above)"
}
trap 'ceph_umount "$CEPHFS_DIR"' EXIT
rapido_mounted "$CEPHFS_DIR" ||
	rapido_fail "cephfs_fuse: ceph-fuse exited 0 but $CEPHFS_DIR is not mounted"
ceph_say "cephfs_fuse: ${RAPIDO_MOUNT[0]} on $CEPHFS_DIR (${RAPIDO_MOUNT[2]})"
ceph_io_check "$CEPHFS_DIR"
