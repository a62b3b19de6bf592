#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rbd: the kernel's RBD client. Maps CEPH_RBD_POOL/CEPH_RBD_IMAGE through
# /sys/bus/rbd (no Ceph userspace in the image), mounts its filesystem at
# /mnt/rbd (made first when the image holds none, see CEPH_RBD_MKFS),
# checks a write, fsync and read back there, then the -x/-f extras run;
# at exit the filesystem is unmounted and the image unmapped.
#
# The cluster is the one of CEPH_CONF and CEPH_KEYRING, by default the
# ./ceph-local cluster's, which made the image at `up`. The image holds the
# client's key (/etc/ceph/keyring): it is readable by its owner only.
#
# rapido.conf (or environment) keys:
#   CEPH_CONF, CEPH_KEYRING, CEPH_USER, CEPH_TIMEOUT   as for cephfs
#   CEPH_RBD_POOL    pool (default rbd)
#   CEPH_RBD_IMAGE   image (default rapido)
#   CEPH_RBD_FS      filesystem made on it (default ext4; xfs, btrfs)
#   CEPH_RBD_MKFS    1: always make it, 0: never, unset: when the image has none
#@ description: map CEPH_RBD_POOL/CEPH_RBD_IMAGE with the kernel rbd client, filesystem at /mnt/rbd, write/fsync/read check, then the extras
#@ include: ceph
#@ kconfig: CONFIG_BLK_DEV_RBD=m CONFIG_EXT4_FS=m
#@ kconfig-optional: CONFIG_BLK_DEV=y
#@ modules: rbd
#@ modules-optional: ext4 xfs btrfs crc32c_generic
#@ bins: mount umount cat mkdir sync timeout head dd cmp rm blkid
#@ bins-optional: mkfs.ext4 mkfs.xfs mkfs.btrfs ls cp mv touch stat df grep sed sha256sum tail
#@ bins-optional: blockdev dmesg findmnt
#@ conf-optional: CEPH_RBD_POOL CEPH_RBD_IMAGE CEPH_RBD_FS CEPH_RBD_MKFS
#@ cpus: 1
#@ memory: 512M

RBD_DIR=/mnt/rbd
rbd_spec=${CEPH_RBD_POOL:-rbd}/${CEPH_RBD_IMAGE:-rapido}
ceph_need_net
RBD_DEV=$(ceph_client map "$rbd_spec") || rapido_fail "rbd: cannot map $rbd_spec (see above)"
rbd_cleanup() {
	ceph_umount "$RBD_DIR"
	rapido-ceph unmap "$RBD_DEV" || echo "rapido: rbd: unmap $RBD_DEV failed" >&2
}
trap rbd_cleanup EXIT
ceph_say "rbd: $rbd_spec mapped at $RBD_DEV ($(< "/sys/block/${RBD_DEV#/dev/}/size") sectors)"
ceph_blk_mount "$RBD_DEV" "$RBD_DIR"
ceph_io_check "$RBD_DIR"
