#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rbd_nbd: Ceph RBD through rbd-nbd, librbd in user space behind the
# kernel's nbd driver. rbd-nbd maps CEPH_RBD_POOL/CEPH_RBD_IMAGE at
# /dev/nbdN, its filesystem is mounted at /mnt/rbd (made first when the
# image holds none, see CEPH_RBD_MKFS), a write, fsync and read back are
# checked there, then the -x/-f extras run; at exit the filesystem is
# unmounted and rbd-nbd unmaps the device (and exits).
#
# The cluster is the one of CEPH_CONF and CEPH_KEYRING, by default the
# ./ceph-local cluster's. Unlike rbd, the image is librbd's, so image
# features the kernel client lacks are fine; the image holds the client's
# key (/etc/ceph/keyring): it is readable by its owner only.
#
# rapido.conf (or environment) keys:
#   CEPH_CONF, CEPH_KEYRING, CEPH_USER, CEPH_TIMEOUT   as for cephfs
#   CEPH_RBD_POOL, CEPH_RBD_IMAGE, CEPH_RBD_FS, CEPH_RBD_MKFS   as for rbd
#@ description: map CEPH_RBD_POOL/CEPH_RBD_IMAGE with rbd-nbd (librbd over the nbd driver), filesystem at /mnt/rbd, write/fsync/read check, then the extras
#@ include: ceph
#@ kconfig: CONFIG_BLK_DEV_NBD=m CONFIG_EXT4_FS=m
#@ kconfig-optional: CONFIG_BLK_DEV=y
#@ modules: nbd
#@ modules-optional: ext4 xfs btrfs crc32c_generic
#@ bins: rbd-nbd mount umount cat mkdir sync timeout head dd cmp rm blkid
#@ bins-optional: mkfs.ext4 mkfs.xfs mkfs.btrfs ls cp mv touch stat df grep sed sha256sum tail
#@ bins-optional: blockdev dmesg findmnt
#@ conf-optional: CEPH_RBD_POOL CEPH_RBD_IMAGE CEPH_RBD_FS CEPH_RBD_MKFS
#@ cpus: 1
#@ memory: 512M

RBD_DIR=/mnt/rbd
rbd_spec=${CEPH_RBD_POOL:-rbd}/${CEPH_RBD_IMAGE:-rapido}
ceph_need_net
ceph_librados_conf /etc/ceph/rapido-user.conf
export CEPH_KEYRING=/etc/ceph/keyring
modprobe nbd nbds_max=4 2> /dev/null || [ -e /sys/module/nbd ] ||
	rapido_fail "rbd_nbd: cannot load the nbd module"
RBD_DEV=$(timeout -s KILL $((${CEPH_TIMEOUT:-20} + 10)) rbd-nbd map "$rbd_spec" \
	-c /etc/ceph/rapido-user.conf --id "${CEPH_USER:-admin}" 2> /tmp/rbd-nbd.log) || {
	cat /tmp/rbd-nbd.log >&2
	# rbd-nbd exits 1 without a word when the image will not open
	rapido_fail "rbd_nbd: rbd-nbd map $rbd_spec failed: does the image exist (rbd ls ${rbd_spec%%/*} on the host), is the cluster reachable?"
}
rbd_nbd_cleanup() {
	ceph_umount "$RBD_DIR"
	timeout -s KILL 60 rbd-nbd unmap "$RBD_DEV" || echo "rapido: rbd_nbd: unmap $RBD_DEV failed" >&2
}
trap rbd_nbd_cleanup EXIT
ceph_say "rbd_nbd: $rbd_spec mapped by rbd-nbd at $RBD_DEV ($(< "/sys/block/${RBD_DEV#/dev/}/size") sectors)"
ceph_blk_mount "$RBD_DEV" "$RBD_DIR"
ceph_io_check "$RBD_DIR"
