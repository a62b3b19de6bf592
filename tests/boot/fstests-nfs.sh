#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-nfs.sh: fstests_nfs with the real xfstests (tests/suite-tree
# xfstests): nfsd in the guest exports two zram ext4 disks, the client
# mounts them over loopback with NFSv4.2 and runs, with FSTYP=nfs, a
# passing and a failing real test in one boot, on the failing variant of
# the tree (suite_failing_copy: generic/002's golden output replaced):
# generic/005 passes, generic/002 fails with "output mismatch", and ./vm
# exits 1 with both in junit.xml as the guest printed them. generic/002's
# .out.bad is the real tree's golden output: the test itself ran as it
# passes on the real tree, only the copy's golden output made it fail.
# (generic/001 copies and compares files for minutes under TCG: by hand.)
# The mount's vers=4.2, read back from the guest's /proc/mounts, is on
# the console. Before the boot, cut-time checks: a bad NFS_VERS is
# refused, and a missing binary is named with its Debian package.
# tests/run timeout: 900s
. "$(dirname "$0")/lib.sh"

# X, the real xfstests; BAD, its failing variant (generic/002's golden output replaced)
xfstests_and_failing

run_err "NFS_VERS=4.0 refused before a boot" "NFS_VERS: expected 3, 4.1 or 4.2" \
	env NFS_VERS=4.0 "$CUT" fstests_nfs
run_err "a missing binary named with its Debian package" \
	"Debian package rapido-fixture-pkg: apt-get install rapido-fixture-pkg" \
	"$CUT" missing-package

printf 'NFS_VERS=4.2\nFSTESTS_SRC=%s\nFSTESTS_TESTS="generic/002 generic/005"\nNFS_ZRAM_SIZE=512M\n' \
	"$BAD" > "$RAPIDO_CONF"
start=$(date +%s)
"$CUT" fstests_nfs > "$T/cut.out" 2>&1 || { not_ok "cut fstests_nfs"; sed 's/^/# /' "$T/cut.out"; exit 1; }
"$VM" --batch --timeout 800 --results "$T/res" > "$T/console" 2> "$T/err"
rc=$?
expect_rc "generic/002 failing, generic/005 passing, on NFSv4.2 over loopback ($(( $(date +%s) - start ))s)" 1 $rc
# what ./check printed, "NAME STATE" sorted, as junit.xml has it
printed=$(xfstests_printed "$T/console")
want=$(printf 'generic/002 failure\ngeneric/005 pass')
check "the guest printed: generic/002 failed, generic/005 passed" test "$printed" = "$want"
check "junit.xml says the same" test "$(testcases "$T/res/junit.xml" | LC_ALL=C sort)" = "$want"
check "generic/002: output mismatch" guest_says "$T/console" \
	"- output mismatch (see /results/fstests/generic/002.out.bad)"
check "generic/002's output is the real tree's golden output" \
	cmp "$X/tests/generic/002.out" "$T/res/files/fstests/generic/002.out.bad"
check "the test export is mounted with vers=4.2 (the guest's /proc/mounts)" \
	grep -qE '^nfs: 127\.0\.0\.1:/export/test on /mnt/test \(nfs4\): ([^ ]*,)?vers=4\.2(,|$)' \
	<(guest_text "$T/console")
check "nfsd served NFSv4.2" grep -q '^nfs: nfsd up: .*+4.2' <(guest_text "$T/console")
check "kernel console clean" console_clean "$T/console"
diag
done_testing
