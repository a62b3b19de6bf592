#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# uring-lib.sh: autorun/lib/uring.sh and autorun/lib/unionmount.sh without
# a VM: the selections (LIBURING_TESTS/SKIP with or without .t, a mistyped
# name refused; unionmount's default list, ./run's, without rename-exdev;
# an unknown UNIONMOUNT_MODES word refused) and uring_one's reading of a
# test's end as liburing's runtests.sh reads it (0 pass, 77 skip, 124 a
# timeout: a failure that says so, xfail* passing with 1 only), as records.
# tests/boot/uring-real.sh and unionmount-real.sh run the real suites.
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/guest-lib.inc"

# a liburing test/ tree of scripts that end as liburing's tests do
d=$tmp/uring
mkdir -p "$d"
mk() { printf '#!/bin/sh\n%s\n' "$2" > "$d/$1.t" && chmod +x "$d/$1.t"; }
mk nop 'echo fine; exit 0'
mk poll 'echo "fail, polling stuck"; exit 1'
mk statx 'echo "statx not supported, skipping"; exit 77'
mk slow 'sleep 30'
mk xfail_one 'exit 1'
mk xfail_two 'exit 0'
: > "$d/helpers.o"

in_lib 'LIBURING_SKIP="statx.t"; uring_tests "$2/uring"; echo "sel: ${_uring_sel[*]}"'
check "every NAME.t of the tree, LIBURING_SKIP's left out (.t or not)" \
	grep -qxF "sel: nop poll slow xfail_one xfail_two" "$tmp/out"
in_lib 'LIBURING_TESTS="nop.t,poll statx"; LIBURING_SKIP=poll; uring_tests "$2/uring"
	echo "sel: ${_uring_sel[*]}"'
check "LIBURING_TESTS in its order, spaces or commas" grep -qxF "sel: nop statx" "$tmp/out"
in_lib 'LIBURING_TESTS="nop nopp"; uring_tests "$2/uring"; echo "not reached"'
check "a mistyped LIBURING_TESTS name stops the profile" \
	sh -c "grep -qF 'LIBURING_TESTS: no test program $d/NAME.t for: nopp' '$tmp/out' &&
		! grep -q 'not reached' '$tmp/out'"

# a selection of no test is no passing run of no testcase
for sel in 'LIBURING_TESTS=nop.t LIBURING_SKIP=nop' 'LIBURING_SKIP="nop poll statx slow xfail_one xfail_two"'; do
	in_lib "$sel; uring_tests \"\$2/uring\"; echo \"not reached\""
	check "no test selected ($sel): the profile fails, naming the keys" sh -c \
		"grep -qF 'rapido: FAILED: selected no test (LIBURING_TESTS/LIBURING_SKIP)' '$tmp/out' &&
		! grep -q 'not reached' '$tmp/out'"
done

mkdir -p "$tmp/cwd" && : > "$tmp/cwd/nop" || exit 1
in_lib 'cd "$2/cwd" && LIBURING_SKIP="n*" uring_tests "$2/uring"; echo "sel: ${_uring_sel[*]}"'
check "a LIBURING_SKIP word is no glob of the current directory" \
	grep -qxF "sel: nop poll slow statx xfail_one xfail_two" "$tmp/out"

in_lib '_uring_kmsg=$2/kmsg; LIBURING_TIMEOUT=1; uring_run "$2/uring"; echo "rc=$?"; rapido_tests_done'
check "a failed test fails the run" grep -qxF "rc=1" "$tmp/out"
records > "$tmp/got"
check "each test's end read as runtests.sh reads it" same_file - "$tmp/got" <<'EOF'
pass nop
fail poll exit status 1
fail slow exit status 1
skip statx statx not supported, skipping
pass xfail_one
fail xfail_two exit status 1
EOF
check "runtests.sh's kernel log markers" grep -qxF "Running test xfail_two.t:" "$tmp/kmsg"
check "a timed-out test says so in its output" grep -qF "timed out after 1s (runtests.sh: may not be a failure)" "$tmp/out"
check "the list planned up front" sh -c "head -n 6 '$tmp/rec' | grep -c '^R1 plan ' | grep -qx 6"

# unionmount: ./run's list and the modes
u=$tmp/um
mkdir -p "$u/tests"
for t in open-plain rename-dir rename-exdev mkdir; do
	: > "$u/tests/$t.py"
done
in_lib 'cd "$2/um" && _unionmount_tests && echo "sel: ${_unionmount_sel[*]}"
	UNIONMOUNT_TESTS="mkdir.py rename-exdev" _unionmount_tests && echo "sel: ${_unionmount_sel[*]}"
	UNIONMOUNT_SKIP=mkdir _unionmount_tests && echo "sel: ${_unionmount_sel[*]}"'
check "default: ./run's list, rename-exdev (its --xdev test) left out" \
	grep -qxF "sel: mkdir open-plain rename-dir" "$tmp/out"
check "UNIONMOUNT_TESTS as given (.py or not)" grep -qxF "sel: mkdir rename-exdev" "$tmp/out"
check "UNIONMOUNT_SKIP left out" grep -qxF "sel: open-plain rename-dir" "$tmp/out"
in_lib 'cd "$2/um" && UNIONMOUNT_TESTS="mkdir mkdri" _unionmount_tests; echo "not reached"'
check "a mistyped UNIONMOUNT_TESTS name stops the profile" \
	sh -c "grep -qF 'UNIONMOUNT_TESTS: no test tests/NAME.py in' '$tmp/out' &&
		grep -qF 'for: mkdri' '$tmp/out' && ! grep -q 'not reached' '$tmp/out'"
for sel in 'UNIONMOUNT_TESTS=mkdir UNIONMOUNT_SKIP=mkdir.py' 'UNIONMOUNT_SKIP="mkdir open-plain rename-dir"'; do
	in_lib "cd \"\$2/um\" && $sel _unionmount_tests; echo \"not reached\""
	check "no test selected ($sel): the profile fails, naming the keys" sh -c \
		"grep -qF 'rapido: FAILED: selected no test (UNIONMOUNT_TESTS/UNIONMOUNT_SKIP)' '$tmp/out' &&
		! grep -q 'not reached' '$tmp/out'"
done
mkdir -p "$tmp/um-empty/tests"
in_lib 'cd "$2/um-empty" && UNIONMOUNT_SRC=/src _unionmount_tests; echo "sel: ${_unionmount_sel[*]}"'
check "no tests/*.py: no '*' test, the tree questioned" sh -c \
	"grep -qF 'no test (tests/NAME.py) in UNIONMOUNT_SRC=/src: is UNIONMOUNT_SRC unionmount-testsuite?' '$tmp/out' &&
		! grep -q '^sel' '$tmp/out'"
in_lib 'UNIONMOUNT_MODES="ov samefs-verfy"
	rapido_words "$UNIONMOUNT_MODES" .py; for m in "${RAPIDO_WORDS[@]}"; do
	[ -n "${_unionmount_args[$m]:-}" ] && echo "$m: ${_unionmount_args[$m]}" || echo "$m: unknown"; done'
check "each mode's ./run options" same_file - "$tmp/out" <<'EOF'
ov: --ov
samefs-verfy: unknown
EOF
done_testing
