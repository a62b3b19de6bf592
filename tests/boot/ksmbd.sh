#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ksmbd.sh: ksmbd_local and fstests_cifs, the kernel's SMB server (ksmbd,
# with Debian's ksmbd-tools) and client (cifs) in one guest over loopback.
# Before any boot, cut-time checks: a bad KSMBD_VERS is refused; without
# ksmbd-tools (on the host, or hidden: a private mount namespace binds
# /dev/null over it) ./cut names the Debian package; fstests_cifs cuts with the real
# xfstests (tests/suite-tree xfstests) and with its failing variant.
# Then one boot of ksmbd_local: a line and 8 MiB written through the cifs
# mount read back on the shared file system and through a new mount (exit
# 0, both testcases in junit.xml); then fstests_cifs with the real
# xfstests: generic/002 passes (exit 0), and on the failing variant
# (suite_failing_copy: generic/002's golden output replaced) fails (exit 1,
# a failure in junit.xml).
#
# Debian's 6.1.192-3 kernel (6.1.0-57) oopses in ksmbd on the first open of
# a share: smb2_open() calls opinfo_put(opinfo) where opinfo_get() found no
# oplock (a directory, the share's root that the mount opens), and
# opinfo_put() there has no NULL check. On a kernel that does, the
# ksmbd_local boot ends with that oops, past the tree connect (smb2_open
# needs one: the preload preload/ksmbd-ipc.c did its part), and ./vm
# reports the kernel bug; the guest stops at the oops instead of waiting
# out cifs's 180 s. That is checked, and the boots that need a working
# ksmbd are skipped, saying why.
# tests/run timeout: 900s
. "$(dirname "$0")/lib.sh"
TAP_ON_FAIL=show_run

# X, the real xfstests; BAD, its failing variant (generic/002's golden output replaced)
xfstests_and_failing

run_err "KSMBD_VERS=4 refused before a boot" "KSMBD_VERS: expected 2.1, 3.0, 3.02 or 3.1.1" \
	env KSMBD_VERS=4 "$CUT" ksmbd_local
# Debian 12's ksmbd-tools conflicts with samba (host/install-deps installs
# samba): without it here, ./cut's message is checked for real, and the rest
# is skipped
# (./cut looks in PATH, then /usr/sbin and /sbin: src/base/run.c)
if ! KS=$(readlink -f "$(PATH=$PATH:/usr/sbin:/sbin command -v ksmbd.mountd)"); then
	run_err "a missing ksmbd-tools named with its Debian package" \
		"'ksmbd.mountd' not found in PATH .*Debian package ksmbd-tools: apt-get install ksmbd-tools" \
		"$CUT" ksmbd_local
	why="the host has no ksmbd-tools (Debian 12's conflicts with samba, which host/install-deps installs)"
	skip "ksmbd_local and fstests_cifs cut and boot" "$why"
	done_testing
elif ! unshare -m --propagation private true 2> /dev/null; then
	skip "a missing ksmbd-tools named with its Debian package" "no private mount namespace (unshare -m)"
else
	run_err "a missing ksmbd-tools named with its Debian package" \
		"'ksmbd.mountd' not found in PATH .*Debian package ksmbd-tools: apt-get install ksmbd-tools" \
		unshare -m --propagation private sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' \
		_ "$KS" "$CUT" ksmbd_local
fi
for t in good:"$X" bad:"$BAD"; do
	printf 'FSTESTS_SRC=%s\nFSTESTS_TESTS=generic/002\nKSMBD_ZRAM_SIZE=512M\n' "${t#*:}" > "$RAPIDO_CONF"
	run "$CUT" fstests_cifs -o "$T/cifs-${t%%:*}.img"
	check "fstests_cifs cuts with the ${t%%:*} xfstests tree" exits 0
done

# boot NAME IMAGE: ./vm --batch on IMAGE, results in $T/NAME.res, the
# console in $T/NAME; rc is ./vm's status, secs the wall time
boot() {
	local s=$SECONDS
	"$VM" --batch --timeout 800 --results "$T/$1.res" "$2" > "$T/$1" 2> "$T/$1.err"
	rc=$?
	secs=$((SECONDS - s))
}

: > "$RAPIDO_CONF"
run "$CUT" ksmbd_local -o "$T/local.img"
check "ksmbd_local cuts" exits 0
[ -s "$T/local.img" ] || done_testing
boot local "$T/local.img"
if grep -aq 'RIP: 0010:opinfo_put' "$T/local" && grep -aq 'smb2_open+' "$T/local"; then
	echo "# ksmbd_local: this kernel's ksmbd oopsed in opinfo_put() from smb2_open() (${secs}s)"
	check "  ./vm exits non-zero" test "$rc" -ne 0
	check "  ./vm names the kernel bug" grep -q "kernel bug: BUG: kernel NULL pointer dereference" \
		"$T/local" "$T/local.err"
	check "  the guest stops at the oops (no 180 s cifs timeout)" guest_says "$T/local" \
		"the kernel oopsed while cifs mounted //127.0.0.1/share"
	why="this kernel's ksmbd oopses on the first open of a share (opinfo_put() without a NULL check, Debian 6.1.192-3)"
	skip "ksmbd_local: I/O through cifs" "$why"
	skip "fstests_cifs: generic/002 passes" "$why"
	skip "fstests_cifs: generic/002 fails on the failing variant" "$why"
	done_testing
fi
expect_rc "ksmbd_local over loopback (${secs}s)" 0 "$rc"
check "  junit.xml: round-trip and data passed" test "$(testcases "$T/local.res/junit.xml")" = \
	"$(printf 'ksmbd/round-trip pass\nksmbd/data pass')"
check "  mounted with cifs, vers=3.1.1" \
	grep -qE '^cifs: //127.0.0.1/share on /mnt/cifs \(cifs\): .*vers=3\.1\.1' \
	<(guest_text "$T/local")
check "  kernel console clean" console_clean "$T/local"

[ -s "$T/cifs-good.img" ] && [ -s "$T/cifs-bad.img" ] || done_testing
boot pass "$T/cifs-good.img"
expect_rc "fstests_cifs: generic/002 passes (${secs}s)" 0 "$rc"
check "  junit.xml: generic/002 passed" test "$(testcases "$T/pass.res/junit.xml")" = "generic/002 pass"
check "  ./check ran on FSTYP=cifs" guest_says "$T/pass" "FSTYP         -- cifs"
check "  kernel console clean" console_clean "$T/pass"

boot fail "$T/cifs-bad.img"
expect_rc "fstests_cifs: generic/002 fails on the failing variant (${secs}s)" 1 "$rc"
check "  junit.xml: generic/002 failed" test "$(testcases "$T/fail.res/junit.xml")" = \
	"generic/002 failure"
check "  check says output mismatch" guest_says "$T/fail" "- output mismatch"
done_testing
