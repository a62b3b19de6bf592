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
#@ helpers: zram
#@ modules: zram
#@ modules-optional: btrfs xfs ext4 crc32c_generic
#@ kconfig: CONFIG_ZRAM
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
	_fatal "cannot set up the test device ($FSTYP, $_fstests_size, on $TEST_DIR): see above" \
		"(FSTESTS_ZRAM_SIZE: mkfs.btrfs 6.2 wants 109M or more, mkfs.xfs 6.1 300M)"
SCRATCH_DEV=$(_fstests_zram_add /tmp/fstests-zram-scratch.log -s "$_fstests_size") ||
	_fatal "cannot set up the scratch device ($_fstests_size): see above"
mkdir -p "$SCRATCH_MNT" || _fatal "mkdir $SCRATCH_MNT failed"
export FSTYP TEST_DEV TEST_DIR SCRATCH_DEV SCRATCH_MNT
echo "fstests: $FSTYP on TEST_DEV=$TEST_DEV ($_fstests_size) mounted at $TEST_DIR;" \
	"SCRATCH_DEV=$SCRATCH_DEV ($_fstests_size) unmounted, SCRATCH_MNT=$SCRATCH_MNT"

if [ -z "${FSTESTS_SRC:-}" ]; then
	echo "fstests: xfstests not included (FSTESTS_SRC unset)"
	[ -z "${FSTESTS_AUTORUN_CMD:-}" ] ||
		echo "fstests: FSTESTS_AUTORUN_CMD not run: there is no xfstests tree"
else
	[ -x /fstests/check ] ||
		_fatal "FSTESTS_SRC=$FSTESTS_SRC has no executable check script:" \
			"is it an xfstests tree?"
	# shellcheck disable=SC2046 # a list of words
	_fstests_miss=$(_fstests_missing $(_fstests_required_bins "$FSTYP"))
	[ -z "$_fstests_miss" ] ||
		_fatal "xfstests needs these programs, not in the image: $_fstests_miss" \
			"(install them on the host and ./cut again)"
	# shellcheck disable=SC2086,SC2154 # a list of words, from lib/fstests.sh
	_fstests_miss=$(_fstests_missing $_fstests_wanted_bins)
	[ -z "$_fstests_miss" ] ||
		echo "fstests: warning: not in the image, tests needing them will be" \
			"skipped or fail: $_fstests_miss"
	perl -e 'use strict; use warnings; use POSIX;' 2> /dev/null ||
		echo "fstests: warning: perl has no modules in the image (use strict fails):" \
			"tests that need them will fail"
	[ -d /fstests/ltp ] && [ ! -x /fstests/ltp/fsstress ] &&
		echo "fstests: warning: /fstests/ltp/fsstress is missing: is FSTESTS_SRC built (make)?"
	# ltp/ only: a loader run per program is slow under TCG, and src/'s
	# programs mostly link the same libraries
	_fstests_miss=$(_fstests_missing_libs /fstests/ltp)
	[ -z "$_fstests_miss" ] ||
		echo "fstests: warning: /fstests/ltp programs need shared libraries not in" \
			"the image: $_fstests_miss"
	unset _fstests_miss

	# results on the host: ./vm --results DIR (DIR/files/fstests), or --share DIR
	if [ -n "${RAPIDO_RESULTS_DIR:-}" ]; then
		RESULT_BASE=$RAPIDO_RESULTS_DIR/fstests
		export RESULT_BASE
	elif _fstests_is_mounted /host; then
		RESULT_BASE=/host/results
		export RESULT_BASE
	fi
	_fstests_write_config /fstests/local.config
	# xfstests reads configs/$(hostname -s).config before local.config
	export HOST_OPTIONS=/fstests/local.config
	_fstests_add_users
	cd /fstests || _fatal "cd /fstests failed"
	echo "fstests: xfstests from $FSTESTS_SRC at /fstests, config /fstests/local.config," \
		"results in ${RESULT_BASE:-/fstests/results}"
	if [ -n "${FSTESTS_AUTORUN_CMD:-}" ]; then
		echo "fstests: running FSTESTS_AUTORUN_CMD: $FSTESTS_AUTORUN_CMD"
		_fstests_res_done=/tmp/fstests-recorded
		: > "$_fstests_res_done"
		rm -f "${RESULT_BASE:-/fstests/results}/result.xml" 2> /dev/null
		eval "$FSTESTS_AUTORUN_CMD"
		# a plain ./check in the command: its result.xml gives the testcases
		[ -z "${RAPIDO_RESULTS_PORT:-}" ] || _fstests_res_import
	fi
fi
