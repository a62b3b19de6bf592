#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-known-cli.sh: ./vm's known-failure and re-run options before any guest
# boots, on a fixture image made here (as vm-dry-run.sh): --rerun-failures
# and VM_RERUN_FAILURES reach the guest as rapido.rerun=N; a malformed
# known-failure file (option or VM_KNOWN_FAILURES) is a FILE:LINE error;
# bad --flaky, --rerun-failures and --merge-results uses are refused.
. "$(dirname "$0")/../boot/lib.sh"

if [ ! -x "$VM" ]; then
	echo "SKIP: $VM is not built (run make)"
	exit 77
fi
unset QEMU_BIN QEMU_EXTRA_ARGS TAP_USER SUDO_USER VM_KNOWN_FAILURES VM_RERUN_FAILURES

. "$(dirname "$0")/fixture-image.inc"
simple_image
"$VM" --dry-run > "$T/argv" 2> "$T/err"
expect_rc "dry-run of the fixture image" 0 $?
check "  no rapido.rerun= by default" bash -c "! grep -q rapido.rerun '$T/argv'"
"$VM" --dry-run --rerun-failures 2 > "$T/argv" 2> "$T/err"
check "--rerun-failures 2: rapido.rerun=2 for the guest" grep -q " rapido.rerun=2 " "$T/argv"
echo "VM_RERUN_FAILURES=3" > "$RAPIDO_CONF"
"$VM" --dry-run > "$T/argv" 2> "$T/err"
check "VM_RERUN_FAILURES=3: rapido.rerun=3" grep -q " rapido.rerun=3 " "$T/argv"
echo "VM_RERUN_FAILURES=101" > "$RAPIDO_CONF"
run_err "VM_RERUN_FAILURES=101: out of range" "VM_RERUN_FAILURES" "$VM" --dry-run
: > "$RAPIDO_CONF"
run_err "--rerun-failures x" "rerun-failures" "$VM" --dry-run --rerun-failures x

printf 'generic/001\n\ngeneric/002 6.1..5.4 # backwards\n' > "$T/bad"
run_err "a malformed --known-failures file: FILE:LINE" "$T/bad:3: '6.1..5.4': the range ends before it starts" \
	"$VM" --dry-run --results "$T/r" --known-failures "$T/bad"
printf 'VM_KNOWN_FAILURES=%s\n' "$T/bad" > "$RAPIDO_CONF"
run_err "a malformed VM_KNOWN_FAILURES file: FILE:LINE" "$T/bad:3:" "$VM" --dry-run
: > "$RAPIDO_CONF"
run_err "a missing file" "$T/none: No such file" "$VM" --dry-run --results "$T/r" --known-failures "$T/none"
printf 'generic/001 # fine\n' > "$T/good"
"$VM" --dry-run --results "$T/r" --known-failures "$T/good" --known-failures "$T/good" > "$T/argv" 2> "$T/err"
expect_rc "two good files" 0 $?
run_err "--known-failures without --results" "give --results" "$VM" --dry-run --known-failures "$T/good"
run_err "--flaky=maybe" "expected pass or fail, got 'maybe'" "$VM" --dry-run --results "$T/r" --flaky=maybe
run_err "--merge-results: a malformed file before anything is read" "$T/bad:3:" \
	"$VM" --merge-results --known-failures "$T/bad" "$T/m" "$T/r"
check "  nothing written" test ! -e "$T/m"
run_err "--merge-results --rerun-failures: a run's option" "a run's option" \
	"$VM" --merge-results --rerun-failures 1 "$T/m" "$T/r"
done_testing
