#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# errors.sh: bad inputs to ./cut get a clear message naming what is wrong, a
# non-zero exit, and no image (nor temporary file) left behind. ./vm's are in
# tests/unit/vm-dry-run.sh.
. "$(dirname "$0")/lib.sh"

no_image() {
	! ls "$T" | grep -q '^image'
}
run_err_also() { no_image; }

run_err "unknown profile" "unknown profile 'nosuch'" "$CUT" nosuch
run_err "missing kernel module named" "kernel module 'rapido_no_such_module' not found" \
	"$CUT" needs-missing-module
run_err "missing host binary named, with its Debian package" \
	"host binary 'rapido-no-such-binary' not found in PATH (needed by profile needs-missing-binary; Debian package rapido-no-such-package: apt-get install rapido-no-such-package, or host/install-deps needs-missing-binary)" \
	"$CUT" needs-missing-binary
# no #@ packages line: the table host/install-deps installs from names it
rm "$RD/autorun/packages"
printf '# a comment\nrapido-no-such-table-binary\trapido-table-package|rapido-old-name\tprofile\n' \
	> "$RD/autorun/packages"
run_err "missing host binary named, with its Debian package from autorun/packages" \
	"host binary 'rapido-no-such-table-binary' not found in PATH (needed by profile needs-table-binary; Debian package rapido-table-package: apt-get install rapido-table-package, or host/install-deps needs-table-binary)" \
	"$CUT" needs-table-binary
rm "$RD/autorun/packages" && ln -s "$TOP/autorun/packages" "$RD/autorun/packages"
# bins-if KEY=VALUE (fstests_local's mkfs.f2fs with FSTESTS_FS=f2fs): the
# program is needed with that value only, and named with it when missing
printf 'RAPIDO_TEST_FS=b\n' > "$RAPIDO_CONF"
"$CUT" --dry-run needs-binary-if-value > "$T/out" 2>&1
expect_rc "bins-if KEY=VALUE, KEY another value: the program is not needed" 0 $?
printf 'RAPIDO_TEST_FS=a\n' > "$RAPIDO_CONF"
run_err "bins-if KEY=VALUE, KEY that value: the missing program named, with the value" \
	"host binary 'rapido-no-such-value-binary' not found in PATH (needed by profile needs-binary-if-value with RAPIDO_TEST_FS=a; Debian package rapido-value-package:" \
	"$CUT" needs-binary-if-value
check "  the optional one is not a problem" sh -c "! grep -q rapido-no-such-optional-binary '$T/out'"
: > "$RAPIDO_CONF"
run_err "missing config key named" "config key RAPIDO_TEST_REQUIRED_KEY is not set" \
	"$CUT" needs-conf-key
run_err "all problems reported at once" "3 problems found; no image written" \
	"$CUT" needs-everything
run_err "missing -f file" "-f /nonexistent/script: No such file" "$CUT" simple -f /nonexistent/script

printf 'OK=1\nQEMU_EXTRA_ARGS=$(touch %s/pwned)\n' "$T" > "$RAPIDO_CONF"
run_err "malformed rapido.conf: file and line" "$RAPIDO_CONF:2: command substitution" "$CUT" simple
check "nothing was executed" test ! -e "$T/pwned"
printf 'A="unterminated\n' > "$RAPIDO_CONF"
run_err "unterminated quote" "$RAPIDO_CONF:1: unterminated double quote" "$CUT" simple
: > "$RAPIDO_CONF"

RAPIDO_CONF=$T/missing.conf run_err "RAPIDO_CONF that does not exist" "$T/missing.conf: No such file" "$CUT" simple
KERNEL_RELEASE=0.0-none run_err "kernel release not installed" "vmlinuz-0.0-none is missing" "$CUT" simple
KERNEL_SRC=$T run_err "KERNEL_SRC that is not built" "is not built for amd64: $T/arch/x86/boot/bzImage is missing" "$CUT" simple

run_err "bad cut option" "Try '$CUT --help'" "$CUT" --bogus
done_testing
