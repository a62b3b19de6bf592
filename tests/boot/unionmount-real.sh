#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# unionmount-real.sh: the unionmount profile with the real
# unionmount-testsuite (tests/suite-tree unionmount-testsuite) on overlayfs
# over zram xfs disks, python3 and its standard library in the image
# (autorun/include/python3.inc). One boot, from a copy of the tree whose
# noent-plain.py gains a subtest that fails, UNIONMOUNT_TESTS open-plain
# and noent-plain, UNIONMOUNT_MODES ov (lower and upper on two disks) and
# samefs-verify (--ov --samefs --verify, on one): ./vm exits 1, both
# open-plain tests pass, both noent-plain tests fail with the suite's own
# message, every verdict the guest printed is the one junit.xml holds, and
# each run's layers were the zram disks (not the suite's tmpfs fallback).
# Also (no boot): a bad UNIONMOUNT_MODES word is refused by ./cut.
# tests/run timeout: 600s
. "$(dirname "$0")/lib.sh"

installed_kernel_or_skip
suite_tree unionmount-testsuite
U=$SUITE
BAD=$T/unionmount-bad
# noent-plain.py replaced whole (the copy's files are the cache's hard
# links), with a last subtest that fails as the suite's checks fail
tree_copy "$U" "$BAD" && rm "$BAD/tests/noent-plain.py" &&
	cat "$U/tests/noent-plain.py" - > "$BAD/tests/noent-plain.py" <<'EOF' || exit 1

# made to fail by rapido's tests/boot/unionmount-real.sh
from tool_box import TestError
def subtest_99(ctx):
    """Made to fail"""
    raise TestError("noent-plain: made to fail by unionmount-real.sh")
EOF

printf 'UNIONMOUNT_SRC=%s\nUNIONMOUNT_MODES="ov samefs-verfy"\n' "$U" > "$RAPIDO_CONF"
run_err "a bad UNIONMOUNT_MODES word is refused before a boot" \
	"UNIONMOUNT_MODES: expected each word to be ov, samefs, ov-verify or samefs-verify, got 'samefs-verfy'" \
	"$CUT" unionmount

cat > "$RAPIDO_CONF" <<EOF
UNIONMOUNT_SRC=$BAD
UNIONMOUNT_TESTS="open-plain noent-plain.py"
UNIONMOUNT_MODES="ov samefs-verify"
EOF
start=$(date +%s)
"$CUT" unionmount > "$T/cut.out" 2>&1
rc=$?	# (the $(...) below sets $? too)
expect_rc "cut unionmount ($(( $(date +%s) - start ))s)" 0 $rc || sed 's/^/# /' "$T/cut.out"
start=$(date +%s)
"$VM" --batch --timeout 500 --results "$T/res" > "$T/console" 2> "$T/err"
rc=$?
expect_rc "a failing unionmount test is ./vm's exit status ($(( $(date +%s) - start ))s)" 1 $rc
testcases "$T/res/junit.xml" | LC_ALL=C sort > "$T/got"
check "open-plain passed, the edited noent-plain failed, in both modes" same_file - "$T/got" <<'EOF'
ov/noent-plain failure
ov/open-plain pass
samefs-verify/noent-plain failure
samefs-verify/open-plain pass
EOF
check "junit.xml holds every verdict the guest printed" same_file <(console_verdicts "$T/console") "$T/got"
check "the failure holds the suite's message" \
	grep -qF 'noent-plain: made to fail by unionmount-real.sh' "$T/res/junit.xml"
check "./run ran each test in its mode" sh -c "grep -qF -- '*** ./run --ov open-plain' '$T/console' &&
	grep -qF -- '*** ./run --ov --samefs --verify noent-plain' '$T/console'"
check "the layers were the zram disks" guest_says "$T/console" \
	"unionmount: xfs (512M) on /lower /dev/zram0, /upper /dev/zram1, /base /dev/zram2, in /etc/fstab"
check "  in every run" sh -c "! grep -qF 'not from its zram disk' '$T/console'"
check "kernel console clean" console_clean "$T/console"
[ $rc = 1 ] || guest_text "$T/console" | tail -n 40 | sed 's/^/# /'
done_testing
