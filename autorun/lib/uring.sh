# SPDX-License-Identifier: GPL-2.0
# uring.sh: the uring profile's steps (liburing's test/ programs):
#   uring_tests DIR          the tests to run, in order, in _uring_sel: every
#                            DIR/*.t (LIBURING_TESTS' if set) less LIBURING_SKIP's
#   uring_run DIR            each of them a result of ./vm --results, run
#                            from DIR as liburing's test/runtests.sh runs it
#   uring_one NAME           one test, with runtests.sh's meaning of its end
# Sourced into every image before the profile, so it only defines functions.

# where runtests.sh's marker goes (a unit test's file on a host)
_uring_kmsg=/dev/kmsg

# uring_tests DIR: the selection in _uring_sel; fails naming a test of
# LIBURING_TESTS that DIR has not (a mistyped name runs nothing, silently,
# in runtests.sh), and if it selects no test
uring_tests() {
	local dir=$1 t skip=" " bad=() found=
	rapido_words "${LIBURING_SKIP:-}" .t
	for t in "${RAPIDO_WORDS[@]}"; do
		skip+="$t "
	done
	_uring_sel=()
	if [ -n "${LIBURING_TESTS:-}" ]; then
		rapido_words "$LIBURING_TESTS" .t
		for t in "${RAPIDO_WORDS[@]}"; do
			[ -x "$dir/$t.t" ] || bad+=("$t")
			[[ $skip == *" $t "* ]] || _uring_sel+=("$t")
		done
		[ ${#bad[@]} -eq 0 ] ||
			rapido_fail "LIBURING_TESTS: no test program $dir/NAME.t for: ${bad[*]}"
	else
		for t in "$dir"/*.t; do
			[ -x "$t" ] || continue
			found=1
			t=${t##*/}
			t=${t%.t}
			[[ $skip == *" $t "* ]] || _uring_sel+=("$t")
		done
		[ -n "$found" ] ||
			rapido_fail "no test program (NAME.t) in $dir: is LIBURING_SRC built (./configure && make)?"
	fi
	rapido_selected ${#_uring_sel[@]} LIBURING_TESTS/LIBURING_SKIP
}

# uring_one NAME: ./NAME.t as runtests.sh runs it (in the current
# directory, under timeout -s INT -k T T, T LIBURING_TIMEOUT, default its
# 60): 0 passed, 77 (T_EXIT_SKIP) skipped, anything else failed; an
# xfail* test passes only with status 1; a timeout, which runtests.sh
# counts apart ("may not be a failure"), fails here, saying so: a hung
# io_uring test is a classic regression, and a skip would pass the run
uring_one() {
	local t=$1 to=${LIBURING_TIMEOUT:-60} rc
	# runtests.sh's marker, so a kernel report reads next to its test
	echo "Running test $t.t:" >> "$_uring_kmsg" 2> /dev/null
	rapido_harness timeout -s INT -k "$to" "$to" "./$t.t"
	rc=$?
	case $t:$rc in
	*:124)
		echo "timed out after ${to}s (runtests.sh: may not be a failure)"
		return 1
		;;
	xfail*:1) return 0 ;;
	xfail*:*)
		echo "expected fail status 1 but returned $rc"
		return 1
		;;
	esac
	return "$rc"
}

# uring_run DIR: each test of the selection from DIR (the test/ tree on
# the file system under test: the tests make their files in the current
# directory) a result, the list planned up front; 1 if a test failed
uring_run() {
	local dir=$1 t rc=0
	uring_tests "$dir"
	cd "$dir" || rapido_fail "cd $dir failed"
	echo "uring: ${#_uring_sel[@]} tests from $dir, timeout ${LIBURING_TIMEOUT:-60}s each"
	rapido_test_plan "${_uring_sel[@]}"
	for t in "${_uring_sel[@]}"; do
		rapido_test "$t" uring_one "$t" || rc=1
	done
	return $rc
}
