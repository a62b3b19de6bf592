#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-splat.sh: the real xfstests (fstests_local, ext4): a hung-task
# report the kernel makes during generic/001 fails generic/001 only,
# named by the report's first line and its console.log lines, while
# generic/002 passes; ./check itself passed, so ./vm exits 121. The
# report is real: once check says "run fstests generic/001" in the
# kernel log, the test file system is frozen for 6 s with the hung-task
# timeout at 1 s, so generic/001's writers block in the kernel.
# tests/run timeout: 1200s
. "$(dirname "$0")/lib.sh"

suite_tree xfstests
X=$SUITE
D=$T/res
# the freeze, in the background, then the two tests; the command's status is check's
cmd='( grep -q -m1 "run fstests generic/001 at" /dev/kmsg; sleep 2;'
cmd+=' echo 1 > /proc/sys/kernel/hung_task_timeout_secs; xfs_io -x -c freeze /mnt/test; sleep 6;'
cmd+=' xfs_io -x -c thaw /mnt/test; echo 120 > /proc/sys/kernel/hung_task_timeout_secs ) &'
cmd+=' rapido_fstests_check generic/001 generic/002; rc=$?; wait; (exit $rc)'
printf 'FSTESTS_FS=ext4\nFSTESTS_ZRAM_SIZE=512M\nFSTESTS_LOGWRITES_SIZE=0\nFSTESTS_SRC=%s\n' "$X" > "$RAPIDO_CONF"
printf "FSTESTS_AUTORUN_CMD='%s'\n" "$cmd" >> "$RAPIDO_CONF"
start=$(date +%s)
"$CUT" fstests_local > "$T/cut.out" 2>&1
expect_rc "cut fstests_local" 0 $?
"$VM" --batch --timeout 1000 --results "$D" > "$T/console" 2> "$T/err"
expect_rc "check passed, the kernel reported a hung task: 121 ($(( $(date +%s) - start )) s)" 121 $?
check "junit.xml is valid against the JUnit schema" \
	xmllint --noout --schema "$TOP/tests/fixtures/junit.xsd" "$D/junit.xml"
g1=$(perl -0ne 'print $1 if m{(<testcase [^>]*name="generic/001".*?</testcase>)}s' "$D/junit.xml" | tr '\n' ' ')
check "generic/001 fails with the hung-task report's first line and its console.log lines" \
	grep -qE '<failure message="kernel hung-task: INFO: task [^ ]+:[0-9]+ blocked for more than [0-9]+ seconds?\. \(console\.log lines [0-9]+-[0-9]+\)' <<< "$g1"
check "its output holds the report" grep -q -- '--- kernel hung-task report, console.log lines' <<< "$g1"
check "generic/002 passed" grep -qE '<testcase [^>]*name="generic/002" time="[0-9.]+"/>' "$D/junit.xml"
printed_pass() { guest_text "$T/console" | grep -qE '^generic/001 +[0-9]+s'; }
check "check itself printed generic/001 as passed (the report is ./vm's finding)" printed_pass
check "stderr ties the report to generic/001" grep -qE "kernel hung-task: INFO: task .* \(during test generic/001, console.log lines" "$T/err"
diag
done_testing
