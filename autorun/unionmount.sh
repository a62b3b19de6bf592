#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# unionmount: the overlayfs maintainers' unionmount-testsuite
# (UNIONMOUNT_SRC, python3: nothing to build) at /unionmount, its layers
# on zram disks with UNIONMOUNT_FS: /lower and /upper for --ov, /base for
# --ov --samefs, each listed in /etc/fstab, where the suite's set-up finds
# them ("mount /lower", else a tmpfs). Each test runs alone, as ./run --ov
# [--samefs] [--verify] TEST, once per mode of UNIONMOUNT_MODES, and is a
# result of ./vm --results named MODE/TEST (so --shard, --known-failures
# and --rerun-failures apply): exit 0 passed, anything else (the suite's
# exit_error, a traceback, a tainted kernel) failed; a run whose layers
# were not the zram disks fails too. Without UNIONMOUNT_SRC the disks are
# made and nothing runs (a shell; under ./vm --batch or --results with no
# -x or rapido run command, a failure naming the key). Rapido's
# unionmount_testsuite is this profile.
#
# rapido.conf (or environment) keys, all optional:
#   UNIONMOUNT_SRC        the unionmount-testsuite tree on the host
#   UNIONMOUNT_MODES      the modes, each a pass over the tests (default
#                         "ov samefs"): ov (--ov: lower and upper on two
#                         file systems), samefs (--ov --samefs: all layers
#                         on /base), ov-verify and samefs-verify (the same
#                         with --verify: index=on, inode numbers checked)
#   UNIONMOUNT_FS         the layers' file system: xfs (default), btrfs, ext4
#   UNIONMOUNT_ZRAM_SIZE  each zram disk (512M)
#   UNIONMOUNT_TESTS      the tests (words: open-plain rename-file, or
#                         open-plain.py); default ./run's list: every
#                         tests/*.py but rename-exdev (./run's --xdev test)
#   UNIONMOUNT_SKIP       tests left out
# e.g. UNIONMOUNT_MODES="ov-verify samefs-verify" UNIONMOUNT_FS=btrfs
#
#@ description: unionmount-testsuite (UNIONMOUNT_SRC) on overlayfs over zram file systems (--ov, --samefs, --verify), a result per test
#@ results: yes
#@ suite: UNIONMOUNT_SRC unionmount-testsuite: a shell with the zram disks made; ./vm --batch or --results with no -x fails naming the key
#@ include: zram
#@ include: python3
#@ modules: overlay
#@ modules-on-demand: xfs btrfs ext4
#@ kconfig: CONFIG_OVERLAY_FS=m
#@ kconfig-optional: CONFIG_XFS_FS=m CONFIG_BTRFS_FS=m CONFIG_EXT4_FS=m
#@ conf-optional: UNIONMOUNT_SRC UNIONMOUNT_MODES UNIONMOUNT_FS UNIONMOUNT_ZRAM_SIZE
#@ conf-optional: UNIONMOUNT_TESTS UNIONMOUNT_SKIP
#@ conf-type: UNIONMOUNT_SRC path
#@ conf-type: UNIONMOUNT_MODES words ov,samefs,ov-verify,samefs-verify
#@ conf-type: UNIONMOUNT_FS enum xfs,btrfs,ext4
#@ conf-type: UNIONMOUNT_ZRAM_SIZE size 1
#@ conf-type: UNIONMOUNT_TESTS words
#@ conf-type: UNIONMOUNT_SKIP words
#@ files: ${UNIONMOUNT_SRC}:/unionmount
#@ cpus: 2
#@ memory: 2G
# what the suite's system() calls run, through /bin/sh
# (mkfs.xfs for the default UNIONMOUNT_FS; the others' the guest names)
#@ bins: sh mkdir mount umount grep rm modprobe mkfs.xfs
#@ bins-optional: mkfs.btrfs mkfs.ext4 ls cat
#@ packages: mkfs.xfs=xfsprogs mkfs.btrfs=btrfs-progs mkfs.ext4=e2fsprogs

_unionmount_fs=${UNIONMOUNT_FS:-xfs}
command -v "mkfs.$_unionmount_fs" > /dev/null ||
	rapido_fail "UNIONMOUNT_FS=$_unionmount_fs: mkfs.$_unionmount_fs is not in the image (install" \
		"$(case $_unionmount_fs in xfs) echo xfsprogs ;; btrfs) echo btrfs-progs ;;
			*) echo e2fsprogs ;; esac) on the host and cut again)"
modprobe "$_unionmount_fs" || rapido_fail "UNIONMOUNT_FS=$_unionmount_fs: modprobe failed"
unionmount_disks "$_unionmount_fs" "${UNIONMOUNT_ZRAM_SIZE:-512M}"

if [ -z "${UNIONMOUNT_SRC:-}" ]; then
	rapido_no_suite UNIONMOUNT_SRC "unionmount: unionmount-testsuite not included (UNIONMOUNT_SRC unset)"
else
	[ -x /unionmount/run ] ||
		rapido_fail "UNIONMOUNT_SRC=$UNIONMOUNT_SRC has no executable run: is it unionmount-testsuite?"
	unionmount_run
fi
