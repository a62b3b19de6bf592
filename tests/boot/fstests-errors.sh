#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-errors.sh: the fstests_local profile's errors are clear: an
# FSTESTS_SRC, FSTESTS_EXCLUDE_FILE or FSTESTS_CONFIG that does not exist
# stops ./cut naming it; so does an unsupported FSTESTS_FS (the profile
# types it: #@ conf-type), with the file and line of the value and of the
# type, before any boot; a key the guest refuses (a scratch pool for xfs,
# a rule joining two keys) stops the guest before any disk is made, with a
# message that names it and what is expected, and a non-zero exit.
# (tests/unit/fstests-lib.sh checks every refused value without a VM.)
. "$(dirname "$0")/lib.sh"

FSTESTS_SRC=$T/no-such-tree "$CUT" fstests_local > "$T/out" 2>&1
rc=$?
check "FSTESTS_SRC that does not exist: cut fails (exit $rc) naming it" \
	test $rc -ne 0 -a -n "$(grep "$T/no-such-tree: No such file" "$T/out")"
check "  and writes no image" test ! -e "$DRACUT_OUT"
for key in FSTESTS_EXCLUDE_FILE FSTESTS_CONFIG; do
	env "$key=$T/no-such-$key" "$CUT" fstests_local > "$T/out" 2>&1
	rc=$?
	check "$key that does not exist: cut fails (exit $rc) naming it" \
		test $rc -ne 0 -a -n "$(grep "$T/no-such-$key: No such file" "$T/out")"
	check "  and writes no image" test ! -e "$DRACUT_OUT"
done

printf 'FSTESTS_FS=ntfs\n' > "$RAPIDO_CONF"
"$CUT" fstests_local -x 'echo extras-ran' > "$T/out" 2>&1
rc=$?
check "FSTESTS_FS=ntfs: cut fails (exit $rc) before any boot" test $rc -ne 0
check "  saying where, what is wrong and what is supported" grep -qF \
	"$RAPIDO_CONF:1: FSTESTS_FS: expected btrfs, xfs, ext4, f2fs, exfat, udf or ntfs3, got 'ntfs' (#@ conf-type at $RD/autorun/fstests_local.sh:" "$T/out"
check "  and writes no image" test ! -e "$DRACUT_OUT"

printf 'FSTESTS_FS=xfs\nFSTESTS_SCRATCH_POOL=3\n' > "$RAPIDO_CONF"
"$CUT" fstests_local > "$T/out" 2>&1
expect_rc "cut with FSTESTS_FS=xfs FSTESTS_SCRATCH_POOL=3" 0 $?
"$VM" --batch --timeout 300 > "$T/console" 2>&1
expect_rc "a pool for xfs: the guest stops with status 1" 1 $?
check "  saying xfstests uses a pool for btrfs only" \
	guest_says "$T/console" "rapido: FAILED: FSTESTS_SCRATCH_POOL=3: xfstests uses SCRATCH_DEV_POOL for btrfs only (FSTESTS_FS=xfs): set it to 0"
check "  before any zram disk is made" bash -c "! grep -q 'zram0: detected capacity' '$T/console'"
check "  kernel console clean" console_clean "$T/console"
diag
done_testing
