# SPDX-License-Identifier: GPL-2.0
# kunit.sh: KUnit's results as per-test results (the kunit profile):
#   kunit_results [DIR]  each suite's DIR/SUITE/results (debugfs' KTAP of
#                        the suite's last run; DIR default
#                        /sys/kernel/debug/kunit) read by rapido_test_tap:
#                        tests kunit/SUITE/CASE (a parameterised case's
#                        values kunit/SUITE/CASE/VALUE). False if a test
#                        failed, or if DIR holds no suite at all (a kernel
#                        without CONFIG_KUNIT_DEBUGFS, modules that hold no
#                        tests): "kunit" fails then.
# Sourced into every image before the profile, so it only defines functions.

kunit_results() {
	local dir=${1:-/sys/kernel/debug/kunit} d rc=0 n=0
	for d in "$dir"/*/; do
		[ -r "${d}results" ] || continue
		n=$((n + 1))
		rapido_test_tap kunit "${d}results" || rc=1
	done
	if [ $n -eq 0 ]; then
		rapido_test_fail kunit "no KUnit suite in $dir (CONFIG_KUNIT_DEBUGFS, and modules with tests?)"
		return 1
	fi
	return $rc
}
