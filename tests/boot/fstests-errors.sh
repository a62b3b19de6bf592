#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-errors.sh: the fstests_local profile's errors are clear: an
# FSTESTS_SRC that does not exist stops ./cut naming it; an unsupported
# FSTESTS_FS stops the guest before any disk is made, with a message that
# names it and the choices, and a non-zero exit.
. "$(dirname "$0")/lib.sh"

# the guest's own console output: kernel messages (which may land in the
# middle of a line the guest is printing) cut out, carriage returns dropped
guest_text() {
	perl -0pe 's/\r//g; s/\[ *\d+\.\d+\] [^\n]*\n//g' "$1"
}
# guest_says FILE TEXT: the guest printed TEXT (a fixed string) on its console
guest_says() {
	guest_text "$1" | grep -qF -- "$2"
}
# diag: after a boot's checks, show what the guest printed if any failed
seen_fails=0
diag() {
	[ "$fails" -eq "$seen_fails" ] && return
	seen_fails=$fails
	guest_text "$T/console" | tail -n 40 | sed 's/^/# /'
}

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
	guest_says "$T/console" "rapido: FATAL: FSTESTS_FS='ntfs' is not supported: use one of: btrfs xfs ext4"
check "  before any zram disk is made" bash -c "! grep -q 'zram0: detected capacity' '$T/console'"
check "  and before the extras" bash -c "! grep -q 'extras-ran' '$T/console'"
check "  kernel console clean" console_clean "$T/console"
diag
done_testing
