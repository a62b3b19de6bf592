#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kselftest.sh: the kselftest profile with the real selftests of the
# installed kernel (tests/suite-tree kselftests: host/kselftests builds
# size and timers from Debian's linux-source, once per run). One boot of a
# copy of that tree in which timers:rtcpie fails (replaced by a script
# that exits 1; the real one also fails under TCG now and then, on its
# interrupt timing, so it cannot be relied on either way): ./vm exits 1,
# and junit.xml holds each test of run_kselftest.sh's KTAP with its verdict
# (size:get_size, timers:nanosleep, timers:mqueue-lat passed; KSELFTEST_SKIP's
# skipped; rtcpie failed) as the console showed it. Before it, cut-time
# checks that boot nothing: ./cut builds the tree itself (#@ prepare) when
# KSELFTEST_DIR is unset, refuses a target or skip that the selftests do
# not have, and names the Debian package of a kernel source that is not
# there. The tests run are planned up front (rapido_test_plan) by the
# names their KTAP lines get.
# tests/run timeout: 600s
. "$(dirname "$0")/lib.sh"

suite_tree kselftests
X=$SUITE
slow="timers:posix_timers timers:nsleep-lat timers:set-timer-lat timers:inconsistency-check"
slow+=" timers:raw_skew timers:threadtest"
exec_tests="execveat non-regular load_address.0x1000 load_address.0x200000 load_address.0x1000000
	load_address.static.0x1000 load_address.static.0x200000 load_address.static.0x1000000
	recursion-depth null-argv binfmt_script.py"
# the cache tests/suite-tree built it in, so that ./cut's own run finds it
export KSELFTEST_CACHE=${X%/*}

# ./cut prepares KSELFTEST_DIR itself: the cached tree, no rebuild
printf 'KSELFTEST_TARGETS="size timers exec"\n' > "$RAPIDO_CONF"
start=$(date +%s)
"$CUT" kselftest > "$T/cut.out" 2>&1
rc=$?
expect_rc "cut with KSELFTEST_DIR unset: host/kselftests' tree ($(( $(date +%s) - start ))s)" 0 $rc
check "no rebuild: the tree was cached" test "$(sed -n '/building/p' "$T/cut.out")" = ""
run_err "a target the selftests lack, refused at cut time" "no target 'timerz' in" \
	env KSELFTEST_TARGETS="size timerz" "$CUT" kselftest
run_err "a skip that names no test, refused at cut time" "KSELFTEST_SKIP: 'timers:nope' is not a test" \
	env KSELFTEST_SKIP="timers:nope" "$CUT" kselftest
: > "$RAPIDO_CONF"
run_err "KSELFTEST_TARGETS unset" "config key KSELFTEST_TARGETS is not set" "$CUT" kselftest
run_err "no kernel source: its Debian package named" \
	"the Debian package linux-source-9.9 (apt-get install linux-source-9.9)" \
	env KSELFTEST_TARGETS=size RAPIDO_KERNEL_RELEASE=9.9.0-1-amd64 "$TOP/host/kselftests"
# a target that does not build (mqueue without libpopt-dev) among others
# that do: its compiler error said, not hidden under the others' lines
if [ -e /usr/include/popt.h ]; then
	skip "a target's build error is shown" "libpopt-dev is installed: mqueue builds"
else
	run_err "a target's build error is shown, among other targets' lines" \
		"fatal error: popt.h: No such file or directory" \
		env KSELFTEST_TARGETS="mqueue timers exec" KERNEL_SRC= RAPIDO_KERNEL_RELEASE="$(ls /boot/vmlinuz-* |
			sed 's|^/boot/vmlinuz-||' | sort -V | tail -n1)" "$TOP/host/kselftests"
	check "  with the Debian package of the missing header" contains "$T/out" \
		"popt.h is missing: install the Debian package libpopt-dev (apt-get install libpopt-dev)"
fi

# the boot: a copy of the tree whose rtcpie fails
tree_copy "$X" "$T/ks" && rm "$T/ks/timers/rtcpie" &&
	printf '#!/bin/sh\necho "made to fail by tests/boot/kselftest.sh"\nexit 1\n' > "$T/ks/timers/rtcpie" &&
	chmod +x "$T/ks/timers/rtcpie" || exit 1
printf 'KSELFTEST_TARGETS="size timers exec"\nKSELFTEST_SKIP="%s"\nKSELFTEST_DIR=%s\n' "$slow" "$T/ks" \
	> "$RAPIDO_CONF"
start=$(date +%s)
"$CUT" kselftest > "$T/cut.out" 2>&1 || { not_ok "cut kselftest"; sed 's/^/# /' "$T/cut.out"; exit 1; }
"$VM" --batch --timeout 500 --results "$T/res" > "$T/console" 2> "$T/err"
rc=$?
expect_rc "a failing kselftest is ./vm's exit status ($(( $(date +%s) - start ))s)" 1 $rc
want="kselftest/size/get_size pass"
for s in $slow; do
	want+=$'\n'"kselftest/timers/${s#timers:} skipped"
done
want+="
kselftest/timers/nanosleep pass
kselftest/timers/mqueue-lat pass
kselftest/timers/rtcpie failure"
# the exec target, every test of it passing: /bin/true, python3 (with its
# standard library) and perl (with perl-base's modules) in the image
for e in $exec_tests; do
	want+=$'\n'"kselftest/exec/$e pass"
done
check "junit.xml: each test of the KTAP with its verdict" \
	test "$(testcases "$T/res/junit.xml")" = "$want"
# the tests run_kselftest.sh runs, planned up front under their KTAP names
# (a VM stopped halfway names the rest), each of them then recorded
check "the guest planned each test it ran, before the first" \
	test "$(sed -n 's/^R1 plan //p' "$T/res/results.txt")" = "kselftest/size/get_size
kselftest/timers/nanosleep
kselftest/timers/mqueue-lat
kselftest/timers/rtcpie$(printf '\nkselftest/exec/%s' $exec_tests)"
check "  and no planned test is 'not run'" sh -c "! grep -q 'not run' '$T/res/junit.xml'"
check "the console showed the same verdicts" test "$(guest_text "$T/console" |
	grep -E '^(not )?ok [0-9]+ (get_size|nanosleep|mqueue-lat|rtcpie)')" = "ok 1 get_size
ok 1 nanosleep
ok 2 mqueue-lat
not ok 3 rtcpie # exit=1"
check "junit.xml: rtcpie's failure and its output" grep -q 'made to fail by tests/boot/kselftest.sh' \
	"$T/res/junit.xml"
check "junit.xml: a test's own KTAP is its output" grep -q '# Totals: pass:6' "$T/res/junit.xml"
check "kernel console clean" console_clean "$T/console"
diag
done_testing
