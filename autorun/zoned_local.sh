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
#   DEV/zonefs  zonefs made by rapido-mkzonefs (tools/mkzonefs: zonefs-
#               tools is not in Debian 12) and mounted: a file per
#               sequential zone; 8 MiB appended to seq/1 by asynchronous
#               direct I/O (fio, libaio) and verified (crc32c), its size
#               and the zone's write pointer the same after a remount;
#               truncate to 0 resets the zone (blkzone: write pointer back
#               at the zone's start)
# zonefs' synchronous direct writes (a plain write(2) with O_DIRECT, which
# zonefs turns into zone appends) fail with EIO on Debian's 6.1, on both
# disks alike ("Corrupted write pointer N for zone at N", the file system
# remounted read-only), while asynchronous ones (the ordinary write path)
# succeed; the test writes asynchronously, and the cause is not found.
# A failed one is ./vm's exit status 1. The disks stay for the -x/-f
# extras: ZONED_NULLB and ZONED_SCSI name them.
#
# rapido.conf (or environment) keys, all optional:
#   ZONED_SIZE       each disk, MiB (default 256; scsi_debug takes it from
#                    guest memory at once)
#   ZONED_ZONE_SIZE  the zone size, MiB (default 16)
#@ description: zoned null_blk and scsi_debug (ZBC) disks: btrfs and zonefs on each, data through a remount, blkzone
#@ modules-on-demand: null_blk scsi_debug sd_mod configfs btrfs zonefs
#@ kconfig: CONFIG_BLK_DEV_ZONED=y CONFIG_BLK_DEV_NULL_BLK=m
#@ kconfig-optional: CONFIG_SCSI_DEBUG=m CONFIG_BLK_DEV_SD=m CONFIG_BTRFS_FS=m CONFIG_CONFIGFS_FS=y
#@ conf-optional: ZONED_SIZE ZONED_ZONE_SIZE
#@ conf-type: ZONED_SIZE uint 64-65536
# both disks live in guest memory (scsi_debug's store at once, null_blk's
# as it is written): ./cut refuses a ZONED_SIZE the guest's memory cannot
# hold twice with 384 MiB to spare (at most 320 in the 1 GiB of memory;
# 384 ran out of it, the kernel's OOM killer taking the tests)
#@ memory-use: ZONED_SIZE 2
#@ conf-type: ZONED_ZONE_SIZE uint 1-4096
#@ bins: cat mkdir mount umount dd sha256sum sync blkzone grep mkfs.btrfs stat
#@ bins: fio truncate
#@ helpers: mkzonefs
#@ bins-optional: dmesg ls
#@ packages: blkzone=util-linux mkfs.btrfs=btrfs-progs sha256sum=coreutils fio=fio
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

# zoned_wp DEV ZONE: the write pointer of zone number ZONE (0: the first)
# of DEV, in sectors from the zone's start, in REPLY
zoned_wp() {
	local l
	l=$(blkzone report -c $(($2 + 1)) "$1" | { mapfile -t z; printf '%s\n' "${z[$2]}"; })
	# blkzone prints the write pointer relative to the zone's start
	[[ $l =~ wptr\ (0x[0-9a-f]+) ]] || { echo "blkzone: no zone $2 in: $l"; return 1; }
	REPLY=$((BASH_REMATCH[1]))
}

# zoned_zonefs DEV: see the header
zoned_zonefs() {
	local dev=$1 mnt=/mnt/zonefs f n size zones
	rapido-mkzonefs "$dev" || return 1
	mkdir -p "$mnt" && mount -t zonefs "$dev" "$mnt" || return 1
	zones=$(blkzone report "$dev" | grep -c 'type: 2(SEQ_WRITE_REQUIRED)')
	f=("$mnt"/seq/*)
	n=${#f[@]}
	[ -e "${f[0]}" ] || n=0
	echo "zoned_local: zonefs on $dev: $n files in seq/, $zones sequential zones"
	[ "$n" = "$zones" ] || { echo "zonefs: $n files for $zones sequential zones"; return 1; }
	f=$mnt/seq/1
	fio --name=zonefs --filename="$f" --rw=write --bs=64k --size=8M --direct=1 \
		--ioengine=libaio --iodepth=4 --file_append=1 --allow_file_create=0 \
		--verify=crc32c --do_verify=1 --output=/tmp/zoned.fio || { cat /tmp/zoned.fio; return 1; }
	grep -q 'err= 0' /tmp/zoned.fio || { cat /tmp/zoned.fio; return 1; }
	size=$(stat -c %s "$f")
	[ "$size" = $((8 << 20)) ] || { echo "zonefs: $f is $size bytes after 8 MiB"; return 1; }
	umount "$mnt" && mount -t zonefs "$dev" "$mnt" || return 1
	size=$(stat -c %s "$f")
	[ "$size" = $((8 << 20)) ] || { echo "zonefs: $f is $size bytes after a remount"; return 1; }
	# seq/1 is the disk's zone 2 (zone 0 holds the super block, seq/0 zone 1)
	zoned_wp "$dev" 2 || return 1
	echo "zoned_local: zonefs: $f 8 MiB after a remount, write pointer at sector $REPLY"
	truncate -s 0 "$f" || return 1
	size=$(stat -c %s "$f")
	[ "$size" = 0 ] || { echo "zonefs: $f is $size bytes after truncate -s 0"; return 1; }
	umount "$mnt" || return 1
	zoned_wp "$dev" 2 || return 1
	[ "$REPLY" = 0 ] || { echo "zonefs: the zone's write pointer at $REPLY after truncate -s 0"; return 1; }
	echo "zoned_local: zonefs: truncate -s 0 reset the zone"
}

rapido_on_fail rapido_kernel_tail
size=${ZONED_SIZE:-256}
# ./vm --memory may have given less than ./cut checked against (memory-use);
# MemTotal is that less what the kernel keeps (some 40 MiB of 1 GiB)
mem=
while read -r k v _; do
	[ "$k" != MemTotal: ] || mem=$((v / 1024))
done < /proc/meminfo
[ -z "$mem" ] || [ $((2 * size + 320)) -le "$mem" ] ||
	rapido_fail "ZONED_SIZE=$size: two disks of $size MiB leave less than 320 MiB of the" \
		"guest's $mem MiB (MemTotal): at most ZONED_SIZE=$(((mem - 320) / 2)) (or more memory)"
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
rapido_test null_blk/zonefs zoned_zonefs "$ZONED_NULLB"
rapido_test scsi_debug/zonefs zoned_zonefs "$ZONED_SCSI"
