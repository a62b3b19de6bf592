#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mpath_local: dm-multipath over the disks of ./vm --mpath FILE. multipathd
# runs (without udev: see autorun/lib/mpath.sh), each RAPIDOMP<N> disk
# becomes /dev/mapper/mpath<N> with all its paths in one group, I/O fails
# rather than queues when no path is left, and an ext4 made on it is
# mounted on /mnt/mpath<N>. Then it says so: a "rapido: mpath: ready:"
# console line per map and, with ./vm --share DIR, DIR/ready ("vm=N", then
# "map=NAME DEV MOUNTPOINT PATHS" lines). On failure: status 1 and
# DIR/failed. The -x/-f extras run next, e.g. mpath_failover_guest with
# host/mpath-failover on the host.
#
#   host: ./cut mpath_local && ./vm --mpath disk.img      (VM 1, say)
#   host: ./vmctl 1 fail 0 1       guest: multipath -ll   (path 1 failed)
#   host: ./vmctl 1 restore 0 1    guest: mpath_rescan    (path 1 back)
#@ description: dm-multipath (multipathd, no udev) over ./vm --mpath disks, ext4 mounted, DIR/ready for the host
#@ bins: multipathd multipath dmsetup mkfs.ext4 mount cat cmp dd head ln mkdir mv rm sync tail
#@ bins-optional: dmesg umount ls grep sleep
#@ files: /lib/multipath:/lib/multipath
#@ modules: virtio_pci virtio_scsi sd_mod dm_mod dm_multipath dm_service_time ext4
#@ modules-optional: dm_round_robin dm_queue_length crc32c_generic crc32c_intel
# dm-round-robin is built with dm-multipath
#@ kconfig: CONFIG_DM_MULTIPATH=m CONFIG_DM_MULTIPATH_ST=m CONFIG_SCSI_VIRTIO=m CONFIG_BLK_DEV_SD=m
#@ kconfig: CONFIG_EXT4_FS=m
#@ kconfig-optional: CONFIG_SCSI=y CONFIG_MD=y CONFIG_BLK_DEV_DM=m
#@ cpus: 1
#@ memory: 512M

mpath_setup
mpath_ready
