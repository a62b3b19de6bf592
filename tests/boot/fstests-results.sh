#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-results.sh: rapido_fstests_check under ./vm --results: every
# generic/NNN a testcase of junit.xml (a failure with its .out.bad), the
# xfstests results in DIR/files/fstests; FSTESTS_AUTORUN_CMD with a plain
# ./check gets its testcases from result.xml; two shards split the list
# ./check -n gives and merge back to it.
. "$(dirname "$0")/lib.sh"

FIX=$TOP/tests/fixtures/xfstests
XSD=$TOP/tests/fixtures/junit.xsd
testcases() {
	perl -ne 'if (/<testcase [^>]*name="([^"]*)"/) { $n = $1; print "$n pass\n" if m{/>\s*$}; next }
		if (defined $n && /<(failure|skipped)/) { print "$n $1\n"; undef $n; next }
		if (defined $n && m{</testcase>}) { print "$n pass\n"; undef $n }' "$1"
}

printf 'FSTESTS_FS=btrfs\nFSTESTS_ZRAM_SIZE=256M\nFSTESTS_SRC=%s\n' "$FIX" > "$RAPIDO_CONF"
"$CUT" fstests_local -x 'rapido_fstests_check generic/001 generic/002 generic/900' > "$T/cut.out" 2>&1
expect_rc "cut fstests_local" 0 $?
"$VM" --batch --timeout 900 --results "$T/res" > "$T/console" 2> "$T/err"
expect_rc "check's status: generic/900 failed" 1 $?
check "junit.xml valid" xmllint --noout --schema "$XSD" "$T/res/junit.xml"
check "generic/001 and generic/002 passed, generic/900 failed" test "$(testcases "$T/res/junit.xml")" = \
"generic/001 pass
generic/002 pass
generic/900 failure"
check "the failure carries 900.out.bad" grep -q "generic/900.out.bad &lt;==" "$T/res/junit.xml"
check "xfstests' results are in files/fstests" test -s "$T/res/files/fstests/result.xml"
diag

# a plain ./check from FSTESTS_AUTORUN_CMD: testcases from result.xml
printf 'FSTESTS_FS=btrfs\nFSTESTS_ZRAM_SIZE=256M\nFSTESTS_SRC=%s\n' "$FIX" > "$RAPIDO_CONF"
echo "FSTESTS_AUTORUN_CMD='./check generic/001 generic/002'" >> "$RAPIDO_CONF"
"$CUT" fstests_local > "$T/cut.out" 2>&1
expect_rc "cut fstests_local (autorun cmd)" 0 $?
"$VM" --batch --timeout 900 --results "$T/res2" > "$T/console" 2> "$T/err"
expect_rc "plain ./check" 0 $?
check "result.xml import: generic/001 and generic/002 passed" test "$(testcases "$T/res2/junit.xml")" = \
"generic/001 pass
generic/002 pass"
diag
done_testing
