#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kunit-results.sh: kunit_results (autorun/lib/kunit.sh) in a host bash on
# KUnit's debugfs results as Linux 6.1 writes them (tests/fixtures/kunit:
# a failed case with its expectation message, a skipped one, a
# parameterised case with a skipped value), read through the real
# rapido-ktap: each case a test with its verdict, the failure its
# diagnostics, the suite's own "not ok" no extra test; a directory without
# suites fails; ./cut refuses the kunit profile on a kernel without
# CONFIG_KUNIT, naming it.
. "$(dirname "$0")/../tap.sh"
export RAPIDO_RUN_DIR=$T/run PATH=$TOP/build/guest:$PATH RAPIDO_VM=1
# the records ./vm would read from the results port
export RAPIDO_RESULTS_PORT=$T/port
mkdir -p "$RAPIDO_RUN_DIR" "$T/empty"
for f in "$TOP"/autorun/lib/*.sh; do
	. "$f"
done

kunit_results "$TOP/tests/fixtures/kunit" > "$T/out" 2>&1
rc=$?
check "a failed case: kunit_results is false" test $rc = 1
want="pass kunit/example/example_simple_test
skip kunit/example/example_skip_test this%20test%20should%20be%20skipped
fail kunit/example/example_fail_test not%20ok
pass kunit/example/example_params_test/example%20value%202
pass kunit/example/example_params_test/example%20value%201
skip kunit/example/example_params_test/example%20value%200 unsupported%20param%20value
pass kunit/list-kunit-test/list_test_list_init
pass kunit/list-kunit-test/list_test_list_add
pass kunit/list-kunit-test/list_test_list_add_tail"
# "R1 KIND NAME SECS [REASON] OUTPUT": the time left out
check "every case and parameter, with its verdict" test "$(awk '$1 == "R1" && $2 ~ /^(pass|fail|skip)$/ {
	print $2, $3 ($2 == "pass" ? "" : " " $5) }' "$T/port")" = "$want"
check "the failure's output: its expectation message" \
	grep -q '^R1 fail kunit/example/example_fail_test .*EXPECTATION%20FAILED.*1%20+%201%20==%202%20(0x2)' "$T/port"
rapido_tests_done > "$T/done" 2>&1
check "the counts" grep -qx "rapido: results: 6 passed, 1 failed, 2 skipped" "$T/done"

rm -f "$RAPIDO_RUN_DIR"/*
kunit_results "$T/empty" > "$T/out" 2>&1
rc=$?
check "no suite at all: false" test $rc = 1
check "  kunit failed, saying why" grep -q "rapido: test kunit: FAILED: no KUnit suite in $T/empty" "$T/out"

# ./cut on a kernel without KUnit (Debian's) says so before it builds
# anything; the newest installed kernel is the one ./cut picks
cfg=$(ls /boot/config-* 2> /dev/null | sort -V | tail -n1)
if [ -z "$cfg" ] || grep -q '^CONFIG_KUNIT=[ym]' "$cfg"; then
	skip "cut kunit on a kernel without KUnit" "no installed kernel, or it has KUnit"
else
	: > "$T/rapido.conf"
	RAPIDO_CONF=$T/rapido.conf CUT_CACHE_DIR=$T/cache DRACUT_OUT=$T/image \
		run "$TOP/cut" kunit
	check "cut kunit on $cfg: refused" exits 1
	check "  naming CONFIG_KUNIT" contains "$T/err" "$cfg: CONFIG_KUNIT is not set"
	check "  no image" test ! -e "$T/image"
fi
done_testing
