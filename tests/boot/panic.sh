#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# panic.sh: a kernel panic gives ./vm's own exit code (123), fast, with the
# panic named on stderr; qemu does not linger.
. "$(dirname "$0")/lib.sh"

"$CUT" simple -x 'echo c > /proc/sysrq-trigger; sleep 100' > /dev/null
expect_rc "cut" 0 $?
"$VM" --batch --timeout 300 > "$T/console" 2> "$T/err"
expect_rc "panic gives the no-status code" 123 $?
check "panic reported on stderr" grep -q "Kernel panic" "$T/err"
check "stderr says no status was reported" grep -q "without reporting an exit status" "$T/err"
check "no qemu left running" no_test_qemu
done_testing
