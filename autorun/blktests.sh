#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# blktests: the block layer's test suite (BLKTESTS_SRC, a built blktests
# tree, at /blktests) on the test devices BLKTESTS_DEVS makes in the guest:
# zram, null_blk, scsi_debug, brd and loop disks, and zoned null_blk and
# scsi_debug disks for the zbd group. They become TEST_DEVS of a config
# ./check loads first, with NVMET_TRTYPES=tcp: the nvme group runs over
# nvmet-tcp on loopback, as the Debian kernel has no nvme-loop (blktests'
# default transport). BLKTESTS_CONFIG, a blktests config file as users
# write it (TEST_DEVS=(...), EXCLUDE=(...), QUICK_RUN=1, TIMEOUT=...), is
# loaded after it. ./check runs once per group of BLKTESTS_TESTS (groups
# or tests; default the groups these devices serve: block loop scsi zbd
# nvme), with -x for each BLKTESTS_EXCLUDE word, and the devices are made
# again before each group where a test took them (blktests' own null_blk
# and scsi_debug tests unload those modules and their disks). Each test
# of the results tree (results/DEV/GROUP/NNN, DEV "nodev" for a test
# without a device) is a testcase of ./vm --results named DEV/GROUP/NNN,
# recorded when ./check prints its verdict: "[not run]" skipped with its
# reasons, "[failed]" a failure with the diff, .out.bad and .dmesg. A
# test ./check was to run (as its _found_test picks them) and printed no
# verdict for is an error named GROUP/NNN (rapido_test_reported), a device
# test without TEST_DEVS (check runs it nowhere) a skip. A failed test, a
# mistyped test name or a ./check that cannot run is ./vm's exit status 1. With ./vm --shard I/N each VM runs its part of the tests
# (groups expanded from the tree). Results go to DIR/files/blktests with
# ./vm --results DIR, to /host/results/blktests with ./vm --share.
#
# rapido.conf (or environment) keys, all optional:
#   BLKTESTS_SRC        a built blktests tree (make) on the host
#   BLKTESTS_DEVS       the TEST_DEVS made, one per word (spaces or commas):
#                       zram null_blk null_blk_zoned scsi_debug
#                       scsi_debug_zoned brd loop (scsi_debug and brd: one
#                       configuration per module load, so one kind of each);
#                       default none: tests with a fallback device make it
#   BLKTESTS_DEV_SIZE   each device, MiB (default 256; scsi_debug and brd
#                       take it from guest memory)
#   BLKTESTS_ZONE_SIZE  the zoned devices' zone size, MiB (default 4)
#   BLKTESTS_TESTS      groups or tests ./check runs (block/001 zbd)
#   BLKTESTS_EXCLUDE    groups or tests left out (./check -x)
#   BLKTESTS_CONFIG     a host file: a blktests config loaded after the
#                       profile's (-c), at /etc/rapido/blktests.config;
#                       under TCG give it TIMEOUT=SECS: without, blktests'
#                       fio tests run to their full size (block/010: hours)
# e.g. CI: BLKTESTS_DEVS=null_blk_zoned BLKTESTS_TESTS="block zbd"
#
#@ description: blktests (BLKTESTS_SRC) on zram, null_blk, scsi_debug, brd, loop and zoned TEST_DEVS; nvme over nvmet-tcp loopback
#@ results: yes
#@ suite: BLKTESTS_SRC blktests: a shell with the test devices (BLKTESTS_DEVS) made, and no test run
#@ include: zram
#@ modules-on-demand: null_blk scsi_debug sd_mod brd loop configfs
# block/001 hotplugs scsi_debug CD-ROMs too (_have_driver sr_mod);
# loop/007 mounts the ext4 it makes
#@ modules-on-demand: sr_mod ext4
#@ modules-on-demand: nvme-core nvme-fabrics nvme-tcp nvmet nvmet-tcp nvme
#@ modules-on-demand: dm-mod dm-zoned dm-linear dm-flakey btrfs xfs sg
#@ kconfig: CONFIG_BLK_DEV_ZONED=y CONFIG_BLK_DEV_NULL_BLK=m
#@ kconfig-optional: CONFIG_SCSI_DEBUG=m CONFIG_BLK_DEV_RAM=m CONFIG_BLK_DEV_LOOP=m
#@ kconfig-optional: CONFIG_NVME_TARGET=m CONFIG_NVME_TARGET_TCP=m CONFIG_NVME_TCP=m
#@ kconfig-optional: CONFIG_BLK_DEV_SD=m CONFIG_CONFIGFS_FS=y CONFIG_FAULT_INJECTION=y
# blktests reads the kernel's config for _have_kernel_option
#@ kernel-config: yes
#@ conf-optional: BLKTESTS_SRC BLKTESTS_DEVS BLKTESTS_DEV_SIZE BLKTESTS_ZONE_SIZE
#@ conf-optional: BLKTESTS_TESTS BLKTESTS_EXCLUDE BLKTESTS_CONFIG
#@ conf-type: BLKTESTS_DEVS words zram,null_blk,null_blk_zoned,scsi_debug,scsi_debug_zoned,brd,loop
#@ conf-type: BLKTESTS_DEV_SIZE uint 1-65536
#@ conf-type: BLKTESTS_ZONE_SIZE uint 1-4096
#@ conf-type: BLKTESTS_SRC path
#@ conf-type: BLKTESTS_CONFIG path
#@ files: ${BLKTESTS_SRC}:/blktests
#@ files: ${BLKTESTS_CONFIG}:/etc/rapido/blktests.config
#@ cpus: 2
#@ memory: 2G
#@ bins: cat mkdir mount truncate losetup
#@ bins-optional: dmesg ls
# what ./check and common/rc refuse to run without, or call every test
#@ bins-if BLKTESTS_SRC: gawk awk sed grep find sort diff realpath stat mktemp rm
#@ bins-if BLKTESTS_SRC: date dd blockdev getopt column head tail basename dirname
# udevadm: _init_null_blk runs "udevadm settle" (it returns at once without udevd)
#@ bins-if BLKTESTS_SRC: uname cut tr wc sleep modprobe modinfo zgrep gzip fio blkzone udevadm
# findmnt: common/rc's _have_configfs (nvme, null_blk tests) asks it whether
# configfs is mounted; rmdir: common/nvme takes its nvmet configfs objects
# down with it (without, every later nvme test finds the last one's target)
#@ bins-if BLKTESTS_SRC: findmnt rmdir readlink umount
# what the tests of the groups above call (block/009, block/012, zbd/008:
# hexdump; loop/002, loop/004: sha256sum; block/002: blktrace);
# tests/unit/blktests-programs.sh checks these lists against every
# program the real suite's tests call
#@ bins-if BLKTESTS_SRC: hexdump sha256sum blktrace
# block/035 runs "xargs echo": echo the program, not bash's builtin
#@ bins-if BLKTESTS_SRC: echo
#@ bins-optional-if BLKTESTS_SRC: blkid mkfifo taskset zcat shuf mkfs.ext2
#@ bins-optional-if BLKTESTS_SRC: uuidgen df lsof killall
#@ bins-optional-if BLKTESTS_SRC: logger timeout tee xargs seq nproc id sync cmp od
#@ bins-optional-if BLKTESTS_SRC: nvme blkdiscard parted xfs_io mkfs.xfs mkfs.btrfs mkfs.ext4
#@ bins-optional-if BLKTESTS_SRC: dmsetup sg_inq sg_readcap fallocate lsblk kill ps pgrep
#@ bins-optional-if BLKTESTS_SRC: touch ln mv cp chmod printf env expr true false hostname
#@ bins-optional-if BLKTESTS_SRC: fuser mkswap swapon swapoff ip
# the Debian packages of what ./cut may not find (host/install-deps installs them)
#@ packages: gawk=gawk column=bsdextrautils fio=fio blkzone=util-linux getopt=util-linux
#@ packages: zgrep=gzip losetup=mount nvme=nvme-cli udevadm=udev diff=diffutils findmnt=util-linux
#@ packages: uuidgen=uuid-runtime lsof=lsof killall=psmisc
#@ packages: hexdump=bsdextrautils sha256sum=coreutils taskset=util-linux blkid=util-linux
#@ packages: blktrace=blktrace

blktests_devices
if [ -z "${BLKTESTS_SRC:-}" ]; then
	rapido_no_suite BLKTESTS_SRC "blktests: blktests not included (BLKTESTS_SRC unset); TEST_DEVS: ${_blktests_devs[*]}"
else
	[ -x /blktests/check ] ||
		rapido_fail "BLKTESTS_SRC=$BLKTESTS_SRC has no executable check script: is it a blktests tree?"
	[ -x /blktests/src/zbdioctl ] ||
		echo "blktests: warning: /blktests/src/zbdioctl is missing: is BLKTESTS_SRC built (make)?"
	cd /blktests || rapido_fail "cd /blktests failed"
	blktests_run
fi
