#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# zoned_local: zoned block devices and the file systems that take them, on
# Debian's kernel (CONFIG_BLK_DEV_ZONED, zonefs): a zoned null_blk and a
# zoned (host-managed ZBC) scsi_debug disk, each ZONED_SIZE MiB in zones
# of ZONED_ZONE_SIZE MiB, the first zone conventional (blkdevs.sh). On
# each, a test of ./vm --results:
#   DEV/btrfs   mkfs.btrfs (it sees the zones and makes a zoned btrfs),
#               a file written, the disk unmounted and mounted again, the
#               file read back byte for byte; blkzone report shows the
#               zones btrfs wrote
#               (DEV being the kind: null_blk, scsi_debug)
# zonefs is not tested yet: on Debian's 6.1 a direct write to seq/0 of a
# zonefs made by rapido-mkzonefs (tools/mkzonefs) fails with EIO, cause
# not found; the helper stays, unit-tested, for that work.
# A failed one is ./vm's exit status 1. The disks stay for the -x/-f
# extras: ZONED_NULLB and ZONED_SCSI name them.
#
# rapido.conf (or environment) keys, all optional:
#   ZONED_SIZE       each disk, MiB (default 256; scsi_debug takes it from
#                    guest memory at once)
#   ZONED_ZONE_SIZE  the zone size, MiB (default 16)
#@ description: zoned null_blk and scsi_debug (ZBC) disks: btrfs on each, data through a remount, blkzone
#@ modules-on-demand: null_blk scsi_debug sd_mod configfs btrfs
#@ kconfig: CONFIG_BLK_DEV_ZONED=y CONFIG_BLK_DEV_NULL_BLK=m
#@ kconfig-optional: CONFIG_SCSI_DEBUG=m CONFIG_BLK_DEV_SD=m CONFIG_BTRFS_FS=m CONFIG_CONFIGFS_FS=y
#@ conf-optional: ZONED_SIZE ZONED_ZONE_SIZE
#@ conf-type: ZONED_SIZE uint 64-65536
#@ conf-type: ZONED_ZONE_SIZE uint 1-4096
#@ bins: cat mkdir mount umount dd sha256sum sync blkzone grep mkfs.btrfs stat
#@ bins-optional: dmesg ls
#@ packages: blkzone=util-linux mkfs.btrfs=btrfs-progs sha256sum=coreutils
#@ cpus: 1
#@ memory: 1G

# zoned_data: 8 MiB of random data in /tmp/zoned.data, its hash in REPLY
zoned_data() {
	dd if=/dev/urandom of=/tmp/zoned.data bs=1M count=8 status=none || return 1
	REPLY=$(sha256sum < /tmp/zoned.data)
}

# zoned_btrfs DEV: see the header
zoned_btrfs() {
	local dev=$1 mnt=/mnt/zoned sum n
	zoned_data || return 1
	sum=$REPLY
	mkfs.btrfs -f "$dev" > /tmp/zoned.mkfs 2>&1 || { cat /tmp/zoned.mkfs; return 1; }
	grep -i zoned /tmp/zoned.mkfs
	mkdir -p "$mnt" && mount -t btrfs "$dev" "$mnt" || return 1
	dd if=/tmp/zoned.data of="$mnt/file" bs=1M status=none && sync && umount "$mnt" &&
		mount -t btrfs "$dev" "$mnt" || return 1
	[ "$(sha256sum < "$mnt/file")" = "$sum" ] || { echo "$mnt/file changed"; return 1; }
	umount "$mnt" || return 1
	n=$(blkzone report "$dev" | grep -c 'wptr 0x0*[1-9a-f]')
	echo "zoned_local: btrfs on $dev: 8 MiB read back after a remount; $n zones written"
	[ "$n" -gt 0 ]
}

rapido_on_fail rapido_kernel_tail
size=${ZONED_SIZE:-256}
zs=${ZONED_ZONE_SIZE:-16}
blkdev_make null_blk_zoned "$size" "$zs" || rapido_fail "cannot make a zoned null_blk: see above"
ZONED_NULLB=$REPLY
blkdev_make scsi_debug_zoned "$size" "$zs" || rapido_fail "cannot make a zoned scsi_debug disk: see above"
ZONED_SCSI=$REPLY
for d in "$ZONED_NULLB" "$ZONED_SCSI"; do
	blkdev_zoned_ok "$d" || rapido_fail "$d reports no zones"
done
echo "zoned_local: $ZONED_NULLB (null_blk) and $ZONED_SCSI (scsi_debug):" \
	"$(< "/sys/block/${ZONED_SCSI##*/}/queue/zoned"), ${size} MiB, ${zs} MiB zones"
export ZONED_NULLB ZONED_SCSI
rapido_test null_blk/btrfs zoned_btrfs "$ZONED_NULLB"
rapido_test scsi_debug/btrfs zoned_btrfs "$ZONED_SCSI"
