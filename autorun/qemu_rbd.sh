#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# qemu_rbd: an RBD image as a plain virtio disk. ./vm --rbd POOL/IMAGE (or
# QEMU_RBD_DISKS) has qemu's rbd block driver open the image on the host,
# with CEPH_CONF and CEPH_KEYRING; the guest needs no Ceph and no network.
# It finds the disk by its serial (rbd0 for the first --rbd), mounts its
# filesystem at /mnt/rbd (made first when it holds none, see
# CEPH_RBD_MKFS), checks a write, fsync and read back, then the -x/-f
# extras run; the filesystem is unmounted at exit.
#
#   ./cut qemu_rbd && ./vm --rbd rbd/rapido     (QEMU_RBD_DISKS="rbd/rapido")
#
# rapido.conf (or environment) keys:
#   CEPH_RBD_FS      filesystem made on it (default ext4; xfs, btrfs)
#   CEPH_RBD_MKFS    1: always make it, 0: never, unset: when the disk has none
#@ description: the image of ./vm --rbd POOL/IMAGE (qemu's rbd driver) as a virtio disk, filesystem at /mnt/rbd, write/fsync/read check
#@ kconfig: CONFIG_VIRTIO_BLK=m CONFIG_EXT4_FS=m
#@ kconfig-optional: CONFIG_BLK_DEV=y
#@ modules: virtio_pci virtio_blk
#@ modules-optional: ext4 xfs btrfs crc32c_generic
#@ bins: mount umount cat mkdir sync timeout head dd cmp rm blkid
#@ bins-optional: mkfs.ext4 mkfs.xfs mkfs.btrfs ls cp mv touch stat df grep sed sha256sum tail
#@ bins-optional: blockdev dmesg findmnt
#@ conf-optional: CEPH_RBD_FS CEPH_RBD_MKFS
#@ cpus: 1
#@ memory: 512M

RBD_DIR=/mnt/rbd
RBD_DEV=
for s in /sys/block/vd*/serial; do
	[ -e "$s" ] && [ "$(< "$s")" = rbd0 ] && RBD_DEV=/dev/${s#/sys/block/} && RBD_DEV=${RBD_DEV%/serial}
done
[ -n "$RBD_DEV" ] || rapido_fail "qemu_rbd: no virtio disk with serial rbd0: boot with ./vm --rbd POOL/IMAGE"
trap 'ceph_umount "$RBD_DIR"' EXIT
ceph_say "qemu_rbd: the --rbd disk is $RBD_DEV ($(< "/sys/block/${RBD_DEV#/dev/}/size") sectors)"
ceph_blk_mount "$RBD_DEV" "$RBD_DIR"
ceph_io_check "$RBD_DIR"
