#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ecryptfs-suite.sh: the ecryptfs_local profile with ECRYPTFS_SRC at the
# fixture tree (tests/fixtures/ecryptfs-utils, not ecryptfs-utils), which
# takes the real tests/run_tests.sh's options and does real work with them.
# The suite gets the options rapido.conf asks for (-c, -b from
# ECRYPTFS_ZRAM_SIZE, -D /tmp/image, -l, -u, -f, -t), runs the category's
# tests only, or the listed ones; its log, arguments and status land in the
# share; its exit status is the VM's (a failing test: 1, the extras not
# run); and -x can run it again with more options.
. "$(dirname "$0")/lib.sh"

FIX=$TOP/tests/fixtures/ecryptfs-utils
SHARE=$T/share
tab=$'\t'

# boot_suite DESC WANT_RC CUT-ARGS...: cut, boot with a fresh share, check
# the exit status
boot_suite() {
	local d=$1 want=$2 start rc
	shift 2
	rm -rf "$SHARE"
	mkdir -p "$SHARE"
	if ! "$CUT" ecryptfs_local "$@" > "$T/out" 2>&1; then
		not_ok "$d: cut"
		sed 's/^/# /' "$T/out"
		return 1
	fi
	start=$(date +%s)
	"$VM" --batch --timeout 600 --share "$SHARE" > "$T/console" 2>&1
	rc=$?
	expect_rc "$d: ./vm exits with the suite's status ($(( $(date +%s) - start ))s)" "$want" $rc
}
# logged FILE LINE: FILE in the share's ecryptfs/ has LINE (whole line)
logged() {
	grep -qxF -- "$2" "$SHARE/ecryptfs/$1" 2>/dev/null
}
# has_text FILE TEXT: FILE in the share's ecryptfs/ holds TEXT, which may
# span lines (grep would take each line of it as a pattern of its own)
has_text() {
	local c
	c=$(cat "$SHARE/ecryptfs/$1" 2>/dev/null) && [[ $c == *"$2"* ]]
}

# 1. a category: the safe tests, not the destructive one; then -x again with -t
cat > "$RAPIDO_CONF" <<EOF
ECRYPTFS_SRC=$FIX
ECRYPTFS_LOWER_FS=ext4
ECRYPTFS_ZRAM_SIZE=64M
ECRYPTFS_TEST_CATEGORY=safe
EOF
if boot_suite "category safe on ext4" 0 -x '_ecryptfs_suite -t fixture-dir-mode.sh; echo "x-status=$?"'; then
	check "  the suite got -K -c safe -b 65536 -D /tmp/image -l /lower -u /upper -f ext4" \
		test "$(tr '\n' ' ' < "$SHARE/ecryptfs/run_tests.args" 2>/dev/null)" = \
		"-K -c safe -b 65536 -D /tmp/image -l /lower -u /upper -f ext4 "
	check "  and parsed them (its own echo, in the log)" logged run_tests.log \
		"run_tests.sh (fixture): -K -c safe -b 65536 -D /tmp/image -l /lower -u /upper -f ext4"
	check "  ran on ext4" logged run_tests.log "Running eCryptfs filesystem tests on ext4"
	check "  fixture-rw passed" logged run_tests.log "fixture-rw      ${tab}pass"
	check "  fixture-dir-mode passed" logged run_tests.log "fixture-dir-mode${tab}pass"
	check "  the destructive test did not run" bash -c "! grep -q truncate '$SHARE/ecryptfs/run_tests.log'"
	check "  summary: 2 passed, 0 failed" has_text run_tests.log $'Test Summary:\n2 passed\n0 failed'

	check "  status 0 in run_tests.status" logged run_tests.status 0
	check "  -x ran it again with -t fixture-dir-mode.sh last" \
		test "$(tail -n 2 "$SHARE/ecryptfs/run_tests.2.args" 2>/dev/null | tr '\n' ' ')" = \
		"-t fixture-dir-mode.sh "
	check "  that run: fixture-dir-mode only, passed" \
		test "$(grep -c "${tab}pass\$" "$SHARE/ecryptfs/run_tests.2.log" 2>/dev/null)" = 1 -a \
		-n "$(grep -xF "fixture-dir-mode${tab}pass" "$SHARE/ecryptfs/run_tests.2.log" 2>/dev/null)"
	check "  and its status reached the extra" guest_says "$T/console" "x-status=0"
	check "  kernel console clean" console_clean "$T/console"
	diag
fi

# 2. a category and tests (-t wins): one passes, one fails; exit status 1
cat > "$RAPIDO_CONF" <<EOF
ECRYPTFS_SRC=$FIX
ECRYPTFS_LOWER_FS=ext4
ECRYPTFS_ZRAM_SIZE=64M
ECRYPTFS_TEST_CATEGORY=destructive
ECRYPTFS_TESTS=fixture-truncate.sh,fixture-fail.sh
EOF
if boot_suite "destructive, -t fixture-truncate.sh,fixture-fail.sh" 1 -x 'echo extras-ran'; then
	check "  the suite got -c destructive and the -t list" \
		test "$(tr '\n' ' ' < "$SHARE/ecryptfs/run_tests.args" 2>/dev/null)" = \
		"-K -c destructive -b 65536 -D /tmp/image -l /lower -u /upper -f ext4 -t fixture-truncate.sh,fixture-fail.sh "
	check "  fixture-truncate passed" logged run_tests.log "fixture-truncate${tab}pass"
	check "  fixture-fail failed, its message in the log" has_text run_tests.log \
		"fixture-fail    ${tab}fixture-fail.sh: failing on purpose"$'\nFAIL\n'

	check "  summary: 1 passed, 1 failed" has_text run_tests.log $'Test Summary:\n1 passed\n1 failed'

	check "  status 1 in run_tests.status" logged run_tests.status 1
	check "  the console says the suite failed" guest_says "$T/console" \
		"rapido: FAILED: ecryptfs-utils tests/run_tests.sh: exit status 1"
	check "  the extras did not run" bash -c "! grep -q extras-ran '$T/console'"
	check "  kernel console clean" console_clean "$T/console"
	diag
fi
done_testing
