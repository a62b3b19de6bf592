#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ltp: the Linux Test Project (LTP_SRC at /ltp): each line of the runtest
# files LTP_RUNTEST names (default syscalls) is a test of ./vm --results,
# named FILE/NAME (syscalls/open01), run as LTP's own runners run it: its
# command line under sh, in a directory of its own, LTP's test library
# keeping its results in /dev/shm. LTP's exit status is its verdict
# (include/tst_res_flags.h): 0 passed; TCONF (32) alone skipped, the first
# TCONF line its reason; TBROK (2: a broken set-up, or LTP's own timeout
# killed it) without TFAIL an error (junit.xml's <error>: no verdict, which
# no known failure excuses and no re-run repeats); TFAIL (1), TWARN (4) or
# a signal failed; the first such line said. A kernel taint that a test left behind fails it (as kirk's
# check does; the tests with .taint_check say TFAIL themselves), on each
# re-run too; but O and E, which LTP's module tests set by loading theirs. A failed
# test, an error, a mistyped LTP_TESTS word or a missing runtest file is ./vm's exit
# status 1; so is no LTP tree under ./vm --batch or --results with no -x or
# rapido run command (interactively: a shell). With ./vm --shard I/N each VM runs its part; --rerun-failures
# runs a failed test again, --known-failures names the ones a kernel is
# known to fail (FILE/NAME, as junit.xml names them).
#
# rapido.conf (or environment) keys:
#   LTP_SRC          an LTP tree: installed (make install's prefix, e.g.
#                    /opt/ltp: testcases/bin, runtest) or built in place
#                    (configure && make: each test in its source directory)
#   LTP_DIR          upstream Rapido's name for an installed LTP_SRC
#   LTP_RUNTEST      runtest files, in order (default syscalls; e.g. "fs mm")
#   LTP_TESTS        the tests to run (NAME or FILE/NAME, globs: "open0*");
#                    default every line of the runtest files
#   LTP_SKIP         tests left out (the same words)
#   LTP_TIMEOUT_MUL  LTP's own per-test timeouts multiplied (LTP reads it;
#                    a TCG guest is slow: e.g. 4)
# e.g. LTP_RUNTEST=syscalls LTP_TESTS="open01 read01 write01 stat01"
#
#@ description: LTP (LTP_SRC): the tests of its runtest files (LTP_RUNTEST, default syscalls), a result each
#@ results: yes
#@ suite: LTP_SRC/LTP_DIR LTP: a shell; ./vm --batch or --results with no -x fails naming the key
#@ modules-on-demand: loop ext4 xfs btrfs vfat
#@ kconfig-optional: CONFIG_BLK_DEV_LOOP=m CONFIG_TMPFS=y CONFIG_SYSVIPC=y
# LTP's tst_kconfig reads the kernel's config (/boot/config-RELEASE)
#@ kernel-config: yes
#@ conf-optional: LTP_SRC LTP_DIR LTP_RUNTEST LTP_TESTS LTP_SKIP LTP_TIMEOUT_MUL
#@ conf-type: LTP_SRC path
#@ conf-type: LTP_DIR path
#@ conf-type: LTP_RUNTEST words
#@ conf-type: LTP_TESTS words
#@ conf-type: LTP_SKIP words
#@ conf-type: LTP_TIMEOUT_MUL str
#@ files: ${LTP_SRC}:/ltp
#@ files: ${LTP_DIR}:/ltp-dir
#@ cpus: 2
#@ memory: 2G
#@ bins: sh mkdir grep mount modprobe
#@ bins-optional: ip
# what LTP's library and the syscalls tests run (tst_cmd, .needs_cmds,
# tst_mkfs for .needs_device and .all_filesystems): required, as the
# suite's own (a test without one only says TCONF), so ./cut names a
# missing one's package (autorun/packages) and rapido deps ltp lists them
# whatever the conf
#@ bins: rmmod insmod losetup df mkswap swapon swapoff
#@ bins: mkfs.ext2 mkfs.ext3 mkfs.ext4 mkfs.xfs mkfs.btrfs mkfs.vfat
#@ bins: useradd userdel groupdel quotacheck parted debugfs


if [ ! -d /ltp ] && [ -d /ltp-dir ]; then
	_ltp_root=/ltp-dir
elif [ -d /ltp-dir ]; then
	echo "ltp: LTP_SRC and LTP_DIR both set: LTP_SRC's tree runs"
fi
if [ ! -d "$_ltp_root" ]; then
	rapido_no_suite LTP_SRC/LTP_DIR "ltp: LTP not included (LTP_SRC unset)"
else
	ltp_setup
	ltp_run
	# the status is the tests' (--known-failures may excuse them) only
	# when a test function says it last
	rapido_tests_done
fi
