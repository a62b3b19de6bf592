#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# uring: io_uring's regression tests, liburing's test/ programs
# (LIBURING_SRC, a built liburing tree: ./configure && make), on a zram
# disk with URING_FS (xfs or btrfs, as Rapido's uring_xfs and uring_btrfs).
# The tree is at /liburing; its test/ directory is copied onto the file
# system at /mnt/test, as the tests make their files in the current
# directory, and each test runs there as liburing's test/runtests.sh runs
# it: ./NAME.t under timeout LIBURING_TIMEOUT (60 s), exit 0 passed, 77
# (T_EXIT_SKIP) skipped, anything else failed (an xfail* test passes with
# 1); a timed-out test, which runtests.sh counts apart ("may not be a
# failure"), fails with that reason (a hung io_uring test is a regression). Each test is a result of ./vm
# --results (NAME, without .t), so --shard, --known-failures and
# --rerun-failures apply, and a kernel report during a test fails it, as
# runtests.sh's dmesg check does. Without LIBURING_SRC the disk is made
# and mounted and nothing runs: a shell, or under ./vm --batch or
# --results with no -x or rapido run command a failure naming the key.
#
# rapido.conf (or environment) keys, all optional:
#   LIBURING_SRC      a built liburing tree on the host
#   URING_FS          xfs (default) or btrfs
#   URING_ZRAM_SIZE   the disk's size (1G)
#   LIBURING_TESTS    the tests to run (words: nop read-write or nop.t);
#                     default every test/*.t of the tree
#   LIBURING_SKIP     tests left out (runtests.sh's TEST_EXCLUDE)
#   LIBURING_TIMEOUT  seconds a test may run (runtests.sh's TIMEOUT, 60)
# e.g. LIBURING_TESTS="nop read-write fsync" URING_FS=btrfs
#
#@ description: liburing's io_uring tests (LIBURING_SRC's test/*.t) on a zram xfs or btrfs (URING_FS), a result per test
#@ results: yes
#@ suite: LIBURING_SRC liburing: a shell with URING_FS on /mnt; ./vm --batch or --results with no -x fails naming the key
#@ include: zram
#@ modules-on-demand: xfs btrfs veth
#@ kconfig: CONFIG_IO_URING=y
#@ kconfig-optional: CONFIG_XFS_FS=m CONFIG_BTRFS_FS=m CONFIG_NET=y CONFIG_FUTEX=y CONFIG_VETH=m
#@ conf-optional: LIBURING_SRC URING_FS URING_ZRAM_SIZE LIBURING_TESTS LIBURING_SKIP
#@ conf-optional: LIBURING_TIMEOUT
#@ conf-type: LIBURING_SRC path
#@ conf-type: URING_FS enum xfs,btrfs
#@ conf-type: URING_ZRAM_SIZE size 1
#@ conf-type: LIBURING_TESTS words
#@ conf-type: LIBURING_SKIP words
#@ conf-type: LIBURING_TIMEOUT uint 1-86400
#@ files: ${LIBURING_SRC}:/liburing
#@ cpus: 2
#@ memory: 2G
# mkfs.xfs for the default URING_FS (./cut names xfsprogs when the host
# lacks it); mkfs.btrfs for URING_FS=btrfs, which the guest names if absent
#@ bins: mkdir mount cp chmod mkfs.xfs
#@ bins-optional: ip ls df mkfs.btrfs
# runtests.sh runs each test under timeout(1); send_recvmsg and the other
# socket tests need loopback up (ip)
#@ bins-if LIBURING_SRC: timeout
# what the tests run themselves: napi-test.sh (by bash) ip and ethtool, on
# a veth pair in two network namespaces; sq-poll-kthread ps and grep
#@ bins-optional-if LIBURING_SRC: ps grep ethtool
#@ packages: mkfs.xfs=xfsprogs mkfs.btrfs=btrfs-progs timeout=coreutils ip=iproute2
#@ packages: ethtool=ethtool ps=procps

_uring_fs=${URING_FS:-xfs}
command -v "mkfs.$_uring_fs" > /dev/null ||
	rapido_fail "URING_FS=$_uring_fs: mkfs.$_uring_fs is not in the image (install" \
		"$([ "$_uring_fs" = xfs ] && echo xfsprogs || echo btrfs-progs) on the host and cut again)"
modprobe "$_uring_fs" || rapido_fail "URING_FS=$_uring_fs: modprobe $_uring_fs failed"
mkdir -p /mnt || rapido_fail "mkdir /mnt failed"
# shellcheck disable=SC2046 # the mkfs arguments are words on purpose
_uring_dev=$(zram_add /tmp/uring-zram.log -s "${URING_ZRAM_SIZE:-1G}" --mkfs "$_uring_fs" \
	$(zram_mkfs_args "$_uring_fs") --mount /mnt) ||
	rapido_fail "cannot make the $_uring_fs zram disk at /mnt: see above"
chmod 777 /mnt || rapido_fail "chmod /mnt failed"
echo "uring: $_uring_fs on $_uring_dev at /mnt"
# the socket tests (send_recvmsg, ...) talk over loopback
! command -v ip > /dev/null || ip link set dev lo up ||
	echo "uring: warning: cannot bring up lo: the socket tests will fail"

if [ -z "${LIBURING_SRC:-}" ]; then
	rapido_no_suite LIBURING_SRC "uring: liburing not included (LIBURING_SRC unset)"
else
	[ -d /liburing/test ] ||
		rapido_fail "LIBURING_SRC=$LIBURING_SRC has no test/ directory: is it a liburing tree?"
	cp -a /liburing/test /mnt/test || rapido_fail "cannot copy /liburing/test to /mnt/test"
	uring_run /mnt/test
fi
