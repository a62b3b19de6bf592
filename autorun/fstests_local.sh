#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests_local: xfstests on two zram disks. The test device gets a
# filesystem and is mounted at /mnt/test; the scratch device is left bare
# and unmounted (/mnt/scratch made) for the tests to mkfs, as xfstests
# expects. With FSTESTS_SRC (a built xfstests tree) the image carries it at
# /fstests, local.config is written, the fsgqa users are made, the shell
# moves to /fstests (so -x './check generic/001' works) and
# FSTESTS_AUTORUN_CMD runs. Results go to /host/results when ./vm --share
# (or VIRTFS_SHARE_PATH) gives a host directory.
#
# rapido.conf (or environment) keys:
#   FSTESTS_FS           btrfs (default), xfs or ext4
#   FSTESTS_ZRAM_SIZE    size of each zram disk (default 1G)
#   FSTESTS_SRC          a built xfstests tree on the host (optional)
#   FSTESTS_AUTORUN_CMD  command run in /fstests after set-up (optional)
#
# bins holds what the profile itself needs in every configuration, with a
# few tools for looking at the disks; the mkfs tools are optional (the guest
# names the one FSTESTS_FS needs if it is missing). What xfstests needs is
# there only with FSTESTS_SRC: "bins-if" what its common/config refuses to
# run without (./cut names each one missing on the host), "bins-optional-if"
# what tests want. fio brings ~80 MB of libraries (ceph, gluster, ICU), so an
# image without xfstests stays small; xfs_scrub is left out: it alone brings
# ICU (~38 MB) for a few scrub tests.
#
#@ description: xfstests on zram: FSTESTS_FS on /mnt/test, a bare scratch disk, FSTESTS_SRC at /fstests
#@ include: zram
#@ modules-optional: btrfs xfs ext4 crc32c_generic
# the file systems are modules, as in Debian's kernel; what xfstests itself
# uses: AIO (fsstress, aio-dio tests), SysV IPC
#@ kconfig-optional: CONFIG_EXT4_FS=m CONFIG_EXT4_FS_POSIX_ACL=y CONFIG_XFS_FS=m
#@ kconfig-optional: CONFIG_XFS_POSIX_ACL=y CONFIG_BTRFS_FS=m CONFIG_BTRFS_FS_POSIX_ACL=y
#@ kconfig-optional: CONFIG_AIO=y CONFIG_SYSVIPC=y
#@ conf-optional: FSTESTS_FS FSTESTS_ZRAM_SIZE FSTESTS_SRC FSTESTS_AUTORUN_CMD
#@ files: ${FSTESTS_SRC}:/fstests
#@ cpus: 2
#@ memory: 2G
#@ bins: cat grep mkdir chown uname mount umount
#@ bins-optional: findmnt blkid blockdev df ls cp mv rm sync dd stat head tail cut tr sha256sum
#@ bins-optional: mkfs.btrfs btrfs mkfs.xfs xfs_repair xfs_db mkfs.ext4 mke2fs e2fsck tune2fs
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
#@ bins-optional-if FSTESTS_SRC: tac comm split timeout nice mknod mkfifo true false hostname whoami
#@ bins-optional-if FSTESTS_SRC: stdbuf base64 shuf rmdir printf getconf getent tar gzip xz
#@ bins-optional-if FSTESTS_SRC: quota quotacheck quotaon quotaoff setquota repquota

FSTYP=${FSTESTS_FS:-btrfs}
TEST_DIR=/mnt/test
SCRATCH_MNT=/mnt/scratch
_fstests_check_fs "$FSTYP"

_fstests_size=${FSTESTS_ZRAM_SIZE:-1G}
# shellcheck disable=SC2046 # the mkfs arguments are words on purpose
TEST_DEV=$(_fstests_zram_add /tmp/fstests-zram-test.log -s "$_fstests_size" \
	--mkfs "$FSTYP" $(_fstests_mkfs_args "$FSTYP") --mount "$TEST_DIR") ||
	rapido_fail "cannot set up the test device ($FSTYP, $_fstests_size, on $TEST_DIR): see above" \
		"(FSTESTS_ZRAM_SIZE: mkfs.btrfs 6.2 wants 109M or more, mkfs.xfs 6.1 300M)"
SCRATCH_DEV=$(_fstests_zram_add /tmp/fstests-zram-scratch.log -s "$_fstests_size") ||
	rapido_fail "cannot set up the scratch device ($_fstests_size): see above"
mkdir -p "$SCRATCH_MNT" || rapido_fail "mkdir $SCRATCH_MNT failed"
export FSTYP TEST_DEV TEST_DIR SCRATCH_DEV SCRATCH_MNT
echo "fstests: $FSTYP on TEST_DEV=$TEST_DEV ($_fstests_size) mounted at $TEST_DIR;" \
	"SCRATCH_DEV=$SCRATCH_DEV ($_fstests_size) unmounted, SCRATCH_MNT=$SCRATCH_MNT"

if [ -z "${FSTESTS_SRC:-}" ]; then
	echo "fstests: xfstests not included (FSTESTS_SRC unset)"
	[ -z "${FSTESTS_AUTORUN_CMD:-}" ] ||
		echo "fstests: FSTESTS_AUTORUN_CMD not run: there is no xfstests tree"
else
	_fstests_check_tree "$FSTYP"
	# shellcheck disable=SC2086,SC2154 # a list of words, from lib/fstests.sh
	_fstests_miss=$(_fstests_missing $_fstests_wanted_bins)
	[ -z "$_fstests_miss" ] ||
		echo "fstests: warning: not in the image, tests needing them will be" \
			"skipped or fail: $_fstests_miss"
	unset _fstests_miss
	_fstests_run
fi
