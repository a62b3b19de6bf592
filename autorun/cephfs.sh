#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cephfs: the kernel's CephFS client. Mounts the cluster's file system at
# /mnt/cephfs, checks a write, fsync and read back there, then the -x/-f
# extras run (e.g. write a file for another VM to read); the file system
# is unmounted when the autorun shell exits.
#
# The cluster is the one of CEPH_CONF and CEPH_KEYRING, by default the
# ./ceph-local cluster's (CEPH_LOCAL_DIR/ceph.conf and keyring); a
# vstart.sh build/ceph.conf works too (the keyring next to it). ./cut
# copies both files into the image (/etc/ceph), so the image holds the
# client's key: it is readable by its owner only.
#
# rapido.conf (or environment) keys:
#   CEPH_CONF        ceph.conf with the monitors' addresses (mon host)
#   CEPH_KEYRING     keyring with the client's key
#   CEPH_USER        client name (default admin: client.admin)
#   CEPH_FS_NAME     the file system (default: the cluster's default one)
#   CEPH_MOUNT_OPTS  more kernel mount options, comma separated
#   CEPH_TIMEOUT     seconds the kernel tries to reach the cluster (default 20)
#
#   sudo ./netsetup --netns lab up && sudo ./ceph-local --netns lab up
#   ./cut cephfs && sudo ip netns exec lab ./vm --net tap
#@ description: mount CephFS (kernel client) at /mnt/cephfs from CEPH_CONF/CEPH_KEYRING, write/fsync/read check, then the extras
#@ include: ceph
# ceph brings libceph with the cephx crypto it selects (AES, GCM, HMAC, SHA256)
#@ kconfig: CONFIG_CEPH_FS=m
#@ kconfig-optional: CONFIG_NETWORK_FILESYSTEMS=y CONFIG_CEPH_FS_POSIX_ACL=y
#@ modules: ceph
#@ bins: mount umount cat mkdir sync timeout head dd cmp rm
#@ bins-optional: ls cp mv touch stat df grep sed sha256sum tail dmesg findmnt
#@ conf-optional: CEPH_FS_NAME CEPH_MOUNT_OPTS
#@ cpus: 1
#@ memory: 512M

CEPHFS_DIR=/mnt/cephfs
ceph_need_net
ceph_client mount ${CEPH_FS_NAME:+--fs "$CEPH_FS_NAME"} \
	${CEPH_MOUNT_OPTS:+-o "$CEPH_MOUNT_OPTS"} "$CEPHFS_DIR" ||
	rapido_fail "cephfs: cannot mount the cluster's file system on $CEPHFS_DIR (see above)"
trap 'ceph_umount "$CEPHFS_DIR"' EXIT
! rapido_mounted "$CEPHFS_DIR" ||
	ceph_say "cephfs: ${RAPIDO_MOUNT[0]} on $CEPHFS_DIR (${RAPIDO_MOUNT[2]})"
ceph_io_check "$CEPHFS_DIR"
