#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kunit: the kernel's KUnit tests. KUnit runs a module's suites when the
# module loads; this loads KUNIT_MODULES (the test modules to run, in
# order), then reads every suite's KTAP from debugfs
# (/sys/kernel/debug/kunit/SUITE/results: the suites built in, which ran
# at boot, and the modules') as per-test results kunit/SUITE/CASE, so a
# failed case fails the run.
#
# It needs a kernel with KUnit: KERNEL_SRC built with CONFIG_KUNIT (y or
# m), CONFIG_KUNIT_DEBUGFS and the tests wanted (CONFIG_KUNIT_ALL_TESTS=m
# builds them all as modules; tools/testing/kunit/configs/all_tests.config
# lists more). Debian's kernel has no KUnit ("# CONFIG_KUNIT is not set"):
# ./cut says so, naming CONFIG_KUNIT, before anything is built.
#
# rapido.conf (or environment) keys:
#   KUNIT_MODULES   the test modules to load (e.g. "kunit-example-test
#                   list-test ext4-inode-test"); each must exist for the
#                   kernel (./cut names a missing one). Unset: only the
#                   built-in suites' results are read.
#@ description: KUnit: load KUNIT_MODULES' tests, their debugfs KTAP as per-test results (needs CONFIG_KUNIT)
#@ results: yes
#@ kconfig: CONFIG_KUNIT CONFIG_KUNIT_DEBUGFS=y CONFIG_DEBUG_FS=y
#@ kconfig-optional: CONFIG_KUNIT_ALL_TESTS=m CONFIG_KUNIT_EXAMPLE_TEST=m
#@ conf-optional: KUNIT_MODULES
#@ conf-type: KUNIT_MODULES words
#@ modules-on-demand: ${KUNIT_MODULES}
#@ modules-optional: kunit
#@ bins: mount modprobe
#@ bins-optional: dmesg
#@ cpus: 1
#@ memory: 1G

rapido_mounted /sys/kernel/debug debugfs || mount -t debugfs debugfs /sys/kernel/debug ||
	rapido_fail "cannot mount debugfs on /sys/kernel/debug"
read -r -a _kunit_mods <<< "${KUNIT_MODULES:-}"
for m in "${_kunit_mods[@]}"; do
	# the module's suites run inside its init; a failing case still loads
	modprobe "$m" || rapido_test_fail "kunit/$m" "modprobe $m failed"
done
kunit_results
rapido_tests_done
