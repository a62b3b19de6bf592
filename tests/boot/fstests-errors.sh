#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-errors.sh: the fstests_local profile's errors are clear: an
# FSTESTS_SRC that does not exist stops ./cut naming it; an unsupported
# FSTESTS_FS stops the guest before any disk is made, with a message that
# names it and the choices, and a non-zero exit.
. "$(dirname "$0")/lib.sh"

FSTESTS_SRC=$T/no-such-tree "$CUT" fstests_local > "$T/out" 2>&1
rc=$?
check "FSTESTS_SRC that does not exist: cut fails (exit $rc) naming it" \
	test $rc -ne 0 -a -n "$(grep "$T/no-such-tree: No such file" "$T/out")"
check "  and writes no image" test ! -e "$DRACUT_OUT"

printf 'FSTESTS_FS=ntfs\n' > "$RAPIDO_CONF"
"$CUT" fstests_local -x 'echo extras-ran' > "$T/out" 2>&1
expect_rc "cut with FSTESTS_FS=ntfs" 0 $?
start=$(date +%s)
"$VM" --batch --timeout 300 > "$T/console" 2>&1
rc=$?
expect_rc "FSTESTS_FS=ntfs: the guest stops with status 1 ($(( $(date +%s) - start ))s)" 1 $rc
check "  saying what is wrong and what is supported" \
	guest_says "$T/console" "rapido: FAILED: FSTESTS_FS='ntfs' is not supported: use one of: btrfs xfs ext4"
check "  before any zram disk is made" bash -c "! grep -q 'zram0: detected capacity' '$T/console'"
check "  and before the extras" bash -c "! grep -q 'extras-ran' '$T/console'"
check "  kernel console clean" console_clean "$T/console"
diag
done_testing
