#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-nfs.sh: fstests_nfs with the real xfstests (tests/suite-tree
# xfstests): nfsd in the guest exports two zram ext4 disks, the client
# mounts them over loopback with NFSv4.2, and generic/002 (a quick one:
# generic/001 copies and compares files for minutes under TCG) passes with
# FSTYP=nfs: exit 0, the testcase in junit.xml, the mount's vers=4.2 on the
# console. Before the boot, cut-time checks: a bad NFS_VERS is refused,
# and a missing binary is named with its Debian package (#@ packages).
# tests/run timeout: 900s
. "$(dirname "$0")/lib.sh"

suite_tree xfstests
X=$SUITE

run_err "NFS_VERS=4.0 refused before a boot" "NFS_VERS: expected 3, 4.1 or 4.2" \
	env NFS_VERS=4.0 "$CUT" fstests_nfs
run_err "a missing binary named with its Debian package" \
	"Debian package rapido-fixture-pkg: apt-get install rapido-fixture-pkg" \
	"$CUT" missing-package

printf 'NFS_VERS=4.2\nFSTESTS_SRC=%s\nFSTESTS_TESTS=generic/002\nNFS_ZRAM_SIZE=512M\n' "$X" \
	> "$RAPIDO_CONF"
start=$(date +%s)
"$CUT" fstests_nfs > "$T/cut.out" 2>&1 || { not_ok "cut fstests_nfs"; sed 's/^/# /' "$T/cut.out"; exit 1; }
"$VM" --batch --timeout 800 --results "$T/res" > "$T/console" 2> "$T/err"
rc=$?
expect_rc "generic/002 on NFSv4.2 over loopback ($(( $(date +%s) - start ))s)" 0 $rc
check "junit.xml: generic/002 passed" test "$(testcases "$T/res/junit.xml")" = "generic/002 pass"
check "the test export mounted with vers=4.2" \
	grep -qE '^fstests: nfs TEST_DEV=127.0.0.1:/export/test mounted at /mnt/test \(-o vers=4.2\)' \
	<(guest_text "$T/console")
check "nfsd served NFSv4.2" grep -q '^nfs: nfsd up: .*+4.2' <(guest_text "$T/console")
check "kernel console clean" console_clean "$T/console"
diag
done_testing
