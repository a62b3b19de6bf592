#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nfs_local: the kernel's NFS server and client in one guest. A zram disk
# with NFS_FS on it is exported by nfsd (Debian's nfs-kernel-server) as
# 127.0.0.1:/export/nfs and mounted over loopback at /mnt/nfs with NFS
# version NFS_VERS; a file written through the mount is read back on the
# exported file system, then the -x/-f extras run (e.g. -x 'dd
# if=/dev/zero of=/mnt/nfs/f bs=1M count=64').
#
# rapido.conf (or environment) keys:
#   NFS_VERS       3, 4.1 or 4.2 (default); NFSv3 mounts with nolock (no
#                  rpc.statd here)
#   NFS_FS         the exported file system: ext4 (default), xfs or btrfs
#   NFS_ZRAM_SIZE  its zram disk (default 512M)
#@ description: nfsd exporting a zram NFS_FS, mounted over loopback at /mnt/nfs (NFS_VERS 3, 4.1, 4.2)
#@ include: nfs
#@ conf-optional: NFS_ZRAM_SIZE
#@ conf-type: NFS_ZRAM_SIZE size 16M
#@ cpus: 2
#@ memory: 1G

nfs_vers_ok
nfs_prepare
nfs_export nfs "${NFS_FS:-ext4}" "${NFS_ZRAM_SIZE:-512M}"
nfs_server_up
nfs_mount_options
# kept apart: REPLY is every helper's scratch (rapido_test's too)
_nfs_opts=$REPLY
mkdir -p /mnt/nfs && mount -t nfs -o "$_nfs_opts" 127.0.0.1:/export/nfs /mnt/nfs ||
	rapido_fail "cannot mount 127.0.0.1:/export/nfs on /mnt/nfs with -o $_nfs_opts"
nfs_check_mount /mnt/nfs
_nfs_data="written through NFS $NFS_VERS by rapido$RAPIDO_VM"
# the round trip: through the client, then from the exported file system
nfs_round_trip() {
	local got
	echo "$_nfs_data" > /mnt/nfs/rapido-round-trip || return 1
	umount /mnt/nfs && mount -t nfs -o "$_nfs_opts" 127.0.0.1:/export/nfs /mnt/nfs || return 1
	read -r got < /export/nfs/rapido-round-trip && [ "$got" = "$_nfs_data" ] || {
		echo "the export holds '$got', not what the client wrote"
		return 1
	}
}
rapido_test nfs/round-trip nfs_round_trip
