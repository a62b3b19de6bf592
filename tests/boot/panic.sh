#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# panic.sh: a kernel panic gives ./vm's own exit code (123), fast, with the
# panic named on stderr; qemu does not linger. ./vm runs on a pseudo-terminal,
# as a person runs it: its last line names the panic too.
. "$(dirname "$0")/lib.sh"

"$CUT" simple -x 'echo c > /proc/sysrq-trigger; sleep 100' > /dev/null
expect_rc "cut" 0 $?
on_pty 3 "$T/keys" "$T/err" "'$VM' --batch --timeout 300"
wait $pty_pid
expect_rc "panic gives the no-status code" 123 $?
exec 3>&-
# ./vm's own line (on_pty puts the console's text in the same file)
check "panic reported on stderr" grep -q "vm: Kernel panic" "$T/err"
check "stderr says no status was reported" grep -q "without reporting an exit status" "$T/err"
# the first hour: the last line said every cause of 123 after the panic was named
check "the last line at a terminal names the kernel panic" \
	eval 'tail -n 1 "$T/err" | tr -d "\r" | grep -q "^vm: vm[0-9]*: kernel panic (exit 123) after "'
check "no qemu left running" no_test_qemu
done_testing
