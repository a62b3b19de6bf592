#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kselftest: the kernel's selftests (tools/testing/selftests), built for
# the kernel the image boots and run by their own run_kselftest.sh, one
# target (collection) at a time; its KTAP becomes per-test results
# (kselftest/TARGET/TEST in ./vm --results' junit.xml), so a "not ok"
# fails the run.
#
# The tree: KSELFTEST_DIR, an installed one (`make -C
# tools/testing/selftests TARGETS=... KSFT_INSTALL_PATH=DIR install`), or,
# left unset, the one ./cut has host/kselftests build (and cache) from
# KERNEL_SRC, else from Debian's linux-source-VERSION of the installed
# kernel (apt-get install linux-source-6.1 for Debian 12's kernel; ./cut
# names the package when it is missing, and what else the build needs).
#
# rapido.conf (or environment) keys:
#   KSELFTEST_TARGETS  the targets to build and run, in order (e.g. "timers
#                      size exec"); one the selftests lack fails the cut
#                      (with KSELFTEST_DIR given: fails kselftest/TARGET in
#                      the guest, as that tree is not read at cut time)
#   KSELFTEST_SKIP     tests (COLLECTION:TEST, as run_kselftest.sh -l lists
#                      them) or whole targets left out; each must name one
#                      of the tree (checked at cut time too when ./cut
#                      builds it)
#   KSELFTEST_DIR      an installed tree; unset: host/kselftests builds one
#
# Tests that need more than coreutils and the exec target's python3 and
# perl (the net, bpf and mm targets' tools and modules) are the user's to
# add with -x or a richer image; a test without what it needs reports
# itself as failed or skipped. Under TCG on 2 cores: size 1 s, timers' nanosleep 10 s,
# mqueue-lat 10 s, posix_timers 20 s, nsleep-lat and set-timer-lat 80 s
# each (they measure timer latency, which TCG has plenty of).
#@ description: kselftests (KSELFTEST_TARGETS) built for the kernel, run_kselftest.sh's KTAP as per-test results
#@ results: yes
#@ conf: KSELFTEST_TARGETS
#@ conf-optional: KSELFTEST_SKIP KSELFTEST_DIR
#@ conf-type: KSELFTEST_TARGETS words
#@ conf-type: KSELFTEST_SKIP words
#@ conf-type: KSELFTEST_DIR path
#@ prepare KSELFTEST_DIR: host/kselftests
#@ files: ${KSELFTEST_DIR}:/kselftest
# run_kselftest.sh and kselftest/runner.sh: sh, the coreutils they call,
# /usr/bin/timeout for each test's deadline; runner.sh prefixes a test's
# output with perl's prefix.pl where there is a perl (perl.inc adds
# perl-base's modules it uses), else with sed
#@ bins: sh cat cut grep sed tr sort uniq wc basename dirname realpath timeout
#@ bins-optional: dmesg
# the exec target: non-regular runs /bin/true; binfmt_script.py is
# python3's (#!/usr/bin/env python3), asks getconf for NAME_MAX and makes
# perl scripts its interpreters
#@ include: python3
#@ include: perl
#@ bins-optional: true env getconf
#@ packages: getconf=libc-bin
#@ cpus: 2
#@ memory: 1G

ks=/kselftest
[ -r $ks/kselftest-list.txt ] || rapido_fail "no kselftest tree in the image ($ks/kselftest-list.txt" \
	"is missing): KSELFTEST_DIR unset at cut time"
mapfile -t _ks_list < $ks/kselftest-list.txt
read -r -a _ks_targets <<< "${KSELFTEST_TARGETS:-}"
read -r -a _ks_skip <<< "${KSELFTEST_SKIP:-}"
declare -A _ks_skipped=()
for s in "${_ks_skip[@]}"; do
	found=
	for t in "${_ks_list[@]}"; do
		[ "$t" = "$s" ] || [ "${t%%:*}" = "$s" ] || continue
		found=1
		_ks_skipped[$t]=1
	done
	[ -n "$found" ] || rapido_fail "KSELFTEST_SKIP: '$s' is not a test (COLLECTION:TEST) or a" \
		"target of $ks/kselftest-list.txt"
done

# the tests, named as their KTAP lines will be, told to ./vm first: a
# VM stopped halfway (a hung test and --test-timeout) names the rest
for c in "${_ks_targets[@]}"; do
	for t in "${_ks_list[@]}"; do
		[ "${t%%:*}" != "$c" ] || [ -n "${_ks_skipped[$t]:-}" ] ||
			rapido_test_plan "kselftest/$c/${t#*:}"
	done
done

for c in "${_ks_targets[@]}"; do
	args=()
	for t in "${_ks_list[@]}"; do
		[ "${t%%:*}" = "$c" ] || continue
		if [ -n "${_ks_skipped[$t]:-}" ]; then
			rapido_test_skip "kselftest/$c/${t#*:}" "KSELFTEST_SKIP"
			continue
		fi
		args+=(-t "$t")
	done
	if [ ${#args[@]} -eq 0 ]; then
		grep -q "^$c:" $ks/kselftest-list.txt ||
			rapido_test_fail "kselftest/$c" "target $c is not in $ks/kselftest-list.txt"
		continue
	fi
	# "ok 1 selftests: timers: nanosleep": the test's name is what
	# follows the target's; the runner's own status says nothing (its
	# last test's echo), the plan catches a runner that died half-way
	rapido_test_tap "kselftest/$c" -- bash -c 'set -o pipefail
		'$ks'/run_kselftest.sh "$@" 2>&1 | sed -u "s/^\(\(not \)\{0,1\}ok [0-9]* \)selftests: [^:]*: /\1/"' \
		run_kselftest.sh "${args[@]}"
done
rapido_tests_done
