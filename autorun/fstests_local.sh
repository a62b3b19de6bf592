#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests_local: xfstests on zram disks, set up as xfstests users configure
# it. The test device gets a filesystem and is mounted at /mnt/test; the
# scratch device (or, for btrfs, a pool of scratch devices) is left bare and
# unmounted (/mnt/scratch made) for the tests to mkfs; a dm-log-writes log
# device and, when sized, an external log and realtime device are made too.
# With FSTESTS_SRC (a built xfstests tree) the image carries it at /fstests,
# local.config is written, the fsgqa users are made, the shell moves to
# /fstests (so -x './check generic/001' works) and the tests picked in
# rapido.conf (or FSTESTS_AUTORUN_CMD) run. Results go to
# DIR/files/fstests with ./vm --results DIR (each test a testcase there),
# or to /host/results when ./vm --share (or VIRTFS_SHARE_PATH) gives a host
# directory.
#
# rapido.conf (or environment) keys, all optional:
#   FSTESTS_FS           btrfs (default), xfs, ext4, f2fs, exfat, udf or
#                        ntfs3; only its module is loaded (btrfs', xfs' and
#                        ext4's are in every image, not loaded; f2fs, exfat,
#                        udf and ntfs3 bring their module and their mkfs and
#                        fsck (f2fs-tools, exfatprogs, udftools, ntfs-3g's
#                        mkfs.ntfs and ntfsfix) only when chosen). As
#                        xfstests' common/config runs them: f2fs mounted
#                        -o acl,user_xattr and checked by fsck.f2fs
#                        --dry-run; exfat made by mkfs -t exfat, checked by
#                        fsck -t exfat -n; udf made by mkudffs, not checked
#                        (DISABLE_UDF_TEST=1 unless the tree has
#                        src/udf_test); ntfs3 made by mkfs.ntfs (mkfs.ntfs3
#                        and fsck.ntfs3, linked here, are mkfs.ntfs and
#                        ntfsfix; ntfsfix -n compares $MFT with its
#                        mirror and reads the boot sector, no more: an
#                        ntfs3 run is all but unchecked, as udf's is).
#                        Debian 12's kernel has no ntfs3
#                        (CONFIG_NTFS3_FS unset): ./cut says so
#   FSTESTS_ZRAM_SIZE    size of the test disk and of each scratch disk (1G)
#   FSTESTS_SCRATCH_POOL how many scratch disks go in SCRATCH_DEV_POOL,
#                        SCRATCH_DEV unset (xfstests takes the first); 5 for
#                        btrfs (4 for the raid tests + the spare that the
#                        replace tests take with _spare_dev_get), 0 (one
#                        SCRATCH_DEV) for xfs and ext4, where xfstests uses
#                        no pool
#   FSTESTS_SCRATCH_POOL_DEVS  scsi (default): the pool's disks are SCSI
#                        disks (scsi_debug, /dev/sdX), which tests drop and
#                        bring back (btrfs/003: sysfs delete, host scan);
#                        zram: zram disks (can't be dropped)
#   FSTESTS_SCRATCH_POOL_SIZE  each pool disk: 256M for scsi (scsi_debug
#                        takes it all from guest memory at once, hence the
#                        3G guest; whole M or G), FSTESTS_ZRAM_SIZE for zram
#   FSTESTS_LOGWRITES_SIZE  LOGWRITES_DEV for the dm-log-writes tests
#                        (default FSTESTS_ZRAM_SIZE; 0: none)
#   FSTESTS_SCRATCH_LOGDEV_SIZE  SCRATCH_LOGDEV, an external log (xfs, ext4)
#   FSTESTS_SCRATCH_RTDEV_SIZE   SCRATCH_RTDEV, a realtime device (xfs);
#                        either one adds a local.config section FSTYP_external
#                        with USE_EXTERNAL=yes (default 0: none)
#   FSTESTS_ZONED        null_blk or scsi_debug: the test and scratch disks
#                        (and a pool's) are zoned disks of that driver
#                        (FSTESTS_ZRAM_SIZE each, whole M or G; first zone
#                        conventional), as xfstests' zoned runs use them:
#                        btrfs only (mkfs.btrfs sees the zones), no log
#                        device unless FSTESTS_LOGWRITES_SIZE asks
#   FSTESTS_ZONE_SIZE    their zone size in MiB (16)
#   FSTESTS_OVERLAY      1: ./check -overlay (xfstests' README.overlay), as
#                        Rapido's fstests_ovl_xfs: overlayfs over the
#                        FSTESTS_FS test and scratch file systems (both
#                        made here: -overlay makes none), one SCRATCH_DEV
#                        (no pool, not zoned); default 0
#   FSTESTS_MKFS_OPTIONS MKFS_OPTIONS, also for the test disk (default: no
#                        discard, -K or -E nodiscard; set it empty for none)
#   FSTESTS_MOUNT_OPTIONS MOUNT_OPTIONS, also for /mnt/test (e.g. -o compress)
#   FSTESTS_CONFIG       a host file of [section]s (KEY=value lines): each
#                        becomes a local.config section after the devices
#   FSTESTS_SECTION      the sections ./check runs (-s); with several
#                        configurations and none picked, check runs them all
#   FSTESTS_GROUPS, FSTESTS_TESTS   run ./check -g GROUPS TESTS after set-up
#   FSTESTS_EXCLUDE_GROUPS (-x), FSTESTS_EXCLUDE_TESTS (-e), FSTESTS_EXCLUDE_FILE
#                        (-E, a host file of test names, one a line)
#   FSTESTS_SRC          a built xfstests tree on the host
#   FSTESTS_AUTORUN_CMD  command run in /fstests after set-up, instead of
#                        FSTESTS_GROUPS/FSTESTS_TESTS; it may call
#                        rapido_fstests_check, which is ./check with the
#                        sections and exclusions above and per-test
#                        results for ./vm --results (so may -x commands).
#                        Its status is the profile's (under pipefail; 1
#                        if a test failed); a plain ./check in it gets its
#                        testcases from the lines it printed (it writes no
#                        result.xml without -R xunit)
# e.g. CI: FSTESTS_GROUPS=quick FSTESTS_EXCLUDE_FILE=ci/known-failures
#
# How long: bench/fstests boots this profile, runs a fixed sample of quick
# tests (FSTESTS_SRC's, or the fixture's without one) and prints the wall
# time of each, and an estimate for -g quick: the tree's quick tests for
# FSTESTS_FS times the sample's mean. Measured where this was written
# (2 cores shared with other jobs, load 11-15; no /dev/kvm, so TCG only;
# no real xfstests tree, so with the fixture): ./cut 90s (dracut), boot
# and set-up of the default btrfs (test disk, pool of five, log disk) 60s,
# then 5-20s a test for a
# fixture test that makes a filesystem and mounts it a few times (raid10
# over four pool disks 17s, dm-log-writes 21s). Real quick tests do that
# and more, and a tree has hundreds of them for one filesystem: -g
# quick under TCG is hours, not minutes; run bench/fstests on your tree
# for its figure. KVM was not there to measure; expect it to be several
# times faster.
#
# bins holds what the profile itself needs in every configuration, with a
# few tools for looking at the disks; the mkfs tools are optional (the guest
# names the one FSTESTS_FS needs if it is missing). What xfstests needs is
# there only with FSTESTS_SRC: "bins-if" what its common/config refuses to
# run without (./cut names each one missing on the host), "bins-optional-if"
# what tests want. fio brings ~80 MB of libraries (ceph, gluster, ICU), so an
# image without xfstests stays small; xfs_scrub is left out: it alone brings
# ICU (~38 MB) for a few scrub tests. The filesystem, dm target and loop
# modules are on demand: packed, not loaded at boot; the profile loads
# FSTESTS_FS's, xfstests modprobes dm-log-writes, dm-thin-pool, loop... when
# a test asks (lsmod after set-up shows zram, crc32c, FSTESTS_FS's module
# and, with a SCSI pool, scsi_debug and sd_mod).
#
#@ description: xfstests on zram: FSTESTS_FS on /mnt/test, bare scratch disk or btrfs pool, log-writes/external devices, -overlay (FSTESTS_OVERLAY), FSTESTS_SRC at /fstests
#@ results: yes
#@ suite: FSTESTS_SRC xfstests: a shell with FSTESTS_FS on /mnt/test and the scratch disks made, and no test run
#@ include: zram
#@ modules-optional: crc32c_generic
#@ modules-on-demand: btrfs xfs ext4 loop dm-mod dm-log-writes dm-thin-pool dm-flakey
#@ modules-on-demand: dm-snapshot dm-delay dm-zero
#@ modules-on-demand: scsi_debug sd_mod null_blk configfs overlay
# FSTESTS_FS's module, in the image only when chosen: f2fs (and the crc32
# its softdep names), exfat, udf, ntfs3; one the kernel lacks is refused
#@ modules-on-demand: ${FSTESTS_FS}
# the file systems are modules, as in Debian's kernel; XFS_RT for
# SCRATCH_RTDEV; the device-mapper targets xfstests modprobes: log-writes
# (LOGWRITES_DEV tests), thin-pool (their replay target), flakey, snapshot,
# delay, zero; loop; scsi_debug and sd for the SCSI pool; what xfstests
# itself uses: AIO (fsstress, aio-dio
# tests), SysV IPC
#@ kconfig-optional: CONFIG_EXT4_FS=m CONFIG_EXT4_FS_POSIX_ACL=y CONFIG_XFS_FS=m
#@ kconfig-optional: CONFIG_XFS_POSIX_ACL=y CONFIG_XFS_RT=y CONFIG_BTRFS_FS=m
#@ kconfig-optional: CONFIG_BTRFS_FS_POSIX_ACL=y CONFIG_MD=y CONFIG_BLK_DEV_DM=m
#@ kconfig-optional: CONFIG_DM_LOG_WRITES=m CONFIG_DM_THIN_PROVISIONING=m CONFIG_DM_FLAKEY=m
#@ kconfig-optional: CONFIG_DM_SNAPSHOT=m CONFIG_DM_DELAY=m CONFIG_DM_ZERO=m
#@ kconfig-optional: CONFIG_BLK_DEV_LOOP=m CONFIG_AIO=y CONFIG_SYSVIPC=y
#@ kconfig-optional: CONFIG_SCSI=y CONFIG_BLK_DEV_SD=m CONFIG_SCSI_LOWLEVEL=y
#@ kconfig-optional: CONFIG_SCSI_DEBUG=m CONFIG_OVERLAY_FS=m
#@ kconfig-optional: CONFIG_F2FS_FS=m CONFIG_EXFAT_FS=m CONFIG_UDF_FS=m CONFIG_NTFS3_FS=m
#@ conf-optional: FSTESTS_FS FSTESTS_ZRAM_SIZE FSTESTS_SRC FSTESTS_AUTORUN_CMD
#@ conf-optional: FSTESTS_SCRATCH_POOL FSTESTS_SCRATCH_POOL_DEVS FSTESTS_SCRATCH_POOL_SIZE
#@ conf-optional: FSTESTS_LOGWRITES_SIZE FSTESTS_SCRATCH_LOGDEV_SIZE
#@ conf-optional: FSTESTS_SCRATCH_RTDEV_SIZE FSTESTS_MKFS_OPTIONS FSTESTS_MOUNT_OPTIONS
#@ conf-optional: FSTESTS_CONFIG FSTESTS_SECTION FSTESTS_GROUPS FSTESTS_TESTS
#@ conf-optional: FSTESTS_EXCLUDE_GROUPS FSTESTS_EXCLUDE_TESTS FSTESTS_EXCLUDE_FILE
#@ conf-optional: FSTESTS_ZONED FSTESTS_ZONE_SIZE FSTESTS_OVERLAY
# Typed, so ./cut refuses a bad value before a boot (fstests.sh checks
# them again in the guest, with the rules that join two keys)
#@ conf-type: FSTESTS_FS enum btrfs,xfs,ext4,f2fs,exfat,udf,ntfs3
#@ conf-type: FSTESTS_ZRAM_SIZE size 1
#@ conf-type: FSTESTS_SCRATCH_POOL uint 0-16
#@ conf-type: FSTESTS_SCRATCH_POOL_DEVS enum scsi,zram
#@ conf-type: FSTESTS_SCRATCH_POOL_SIZE size 1
#@ conf-type: FSTESTS_LOGWRITES_SIZE size 0
#@ conf-type: FSTESTS_SCRATCH_LOGDEV_SIZE size 0
#@ conf-type: FSTESTS_SCRATCH_RTDEV_SIZE size 0
#@ conf-type: FSTESTS_ZONED enum null_blk,scsi_debug
#@ conf-type: FSTESTS_ZONE_SIZE uint 1-4096
#@ conf-type: FSTESTS_OVERLAY enum 0,1
#@ files: ${FSTESTS_SRC}:/fstests
#@ files: ${FSTESTS_EXCLUDE_FILE}:/etc/rapido/fstests.exclude
#@ files: ${FSTESTS_CONFIG}:/etc/rapido/fstests.config
#@ cpus: 2
#@ memory: 3G
#@ bins: cat grep mkdir chown uname mount umount
#@ bins-if FSTESTS_ZONED: blkzone
#@ bins-optional: findmnt blkid blockdev df ls cp mv rm sync dd stat head tail cut tr sha256sum
#@ bins-optional: mkfs.btrfs btrfs mkfs.xfs xfs_repair xfs_db mkfs.ext4 mke2fs e2fsck tune2fs
#@ bins-if FSTESTS_FS=f2fs: mkfs.f2fs fsck.f2fs
#@ bins-optional-if FSTESTS_FS=f2fs: dump.f2fs f2fs_io resize.f2fs
#@ bins-if FSTESTS_FS=exfat: mkfs.exfat fsck.exfat
#@ bins-optional-if FSTESTS_FS=exfat: tune.exfat exfatlabel dump.exfat
#@ bins-if FSTESTS_FS=udf: mkudffs mkfs.udf
#@ bins-optional-if FSTESTS_FS=udf: udfinfo udflabel
#@ bins-if FSTESTS_FS=ntfs3: mkfs.ntfs ntfsfix
#@ bins-if FSTESTS_SRC: awk sed bc wc xfs_io perl diff fio
#@ bins-optional-if FSTESTS_SRC: btrfstune btrfs-image btrfs-convert btrfs-select-super
#@ bins-optional-if FSTESTS_SRC: xfs_admin xfs_growfs xfs_quota xfs_freeze xfs_logprint xfs_metadump
#@ bins-optional-if FSTESTS_SRC: xfs_mdrestore xfs_copy xfs_info xfs_spaceman xfs_estimate xfs_fsr
#@ bins-optional-if FSTESTS_SRC: xfs_mkfile fsck.ext4 dumpe2fs debugfs resize2fs e2image e4defrag
#@ bins-optional-if FSTESTS_SRC: filefrag chattr lsattr fsck mkfs mkswap swapon swapoff wipefs
#@ bins-optional-if FSTESTS_SRC: losetup lsblk dmsetup fstrim blkdiscard fallocate mountpoint flock
#@ bins-optional-if FSTESTS_SRC: getopt setsid su runuser nsenter unshare dmesg logger
#@ bins-optional-if FSTESTS_SRC: gawk mawk dc cmp find xargs getfattr setfattr getfacl setfacl chacl
#@ bins-optional-if FSTESTS_SRC: ps pgrep pkill free sysctl killall fuser
#@ bins-optional-if FSTESTS_SRC: ln touch chmod chgrp du truncate
#@ bins-optional-if FSTESTS_SRC: wc sort uniq tee seq sleep date basename dirname readlink
#@ bins-optional-if FSTESTS_SRC: realpath mktemp env expr od md5sum cksum sum id nproc yes
#@ bins-optional-if FSTESTS_SRC: rev tac comm split timeout nice mknod mkfifo true false hostname whoami
#@ bins-optional-if FSTESTS_SRC: stdbuf base64 shuf rmdir printf getconf getent tar gzip xz
#@ bins-optional-if FSTESTS_SRC: quota quotacheck quotaon quotaoff setquota repquota

TEST_DIR=/mnt/test
SCRATCH_MNT=/mnt/scratch
fstests_settings
fstests_devices

if [ -z "${FSTESTS_SRC:-}" ]; then
	[ -z "${FSTESTS_AUTORUN_CMD:-}" ] ||
		echo "fstests: FSTESTS_AUTORUN_CMD not run: there is no xfstests tree"
	rapido_no_suite FSTESTS_SRC "fstests: xfstests not included (FSTESTS_SRC unset)"
else
	fstests_check_tree "$FSTYP"
	fstests_check_wanted
	# no udev here: libdevmapper (dmsetup in the dm tests) makes
	# /dev/mapper/NAME itself rather than wait for udev
	export DM_DISABLE_UDEV=1
	fstests_run
fi
