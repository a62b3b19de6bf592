#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ltp-real.sh: the ltp profile with the real LTP (tests/suite-tree ltp:
# its library and the syscalls directories open read write stat close
# getpid, built once, installed and cached). Two boots:
#  1. the runtest syscalls' lines of those directories (LTP_TESTS, globs;
#     LTP_SKIP leaves one out): ./vm exits 0, each a testcase of
#     junit.xml named syscalls/NAME, with the verdict LTP's summary gave
#     it (passed, or skipped for a TCONF), and nothing LTP_SKIP named.
#  2. a copy of the tree whose open01 is built from its source with its
#     TPASS made a TFAIL, and write01 with its TPASS made a TBROK, given
#     as upstream Rapido's LTP_DIR: ./vm exits 1, syscalls/open01 is a
#     failure of junit.xml carrying LTP's TFAIL line, syscalls/write01 an
#     <error> (no verdict) with its TBROK line, read01 still passes;
#     booted again with --known-failures naming both, ./vm still exits 1
#     (an error is no failure to excuse), open01 the known failure; cut
#     without write01 and booted with them, ./vm exits 0.
# Also (no boot): ./cut names LTP_SRC that is not there.
# tests/run timeout: 900s
. "$(dirname "$0")/lib.sh"

installed_kernel_or_skip
suite_tree ltp
# the build tree beside the install prefix (tests/suite-tree's ltp recipe)
SRC=${SUITE%/install}/ltp
[ -r "$SRC/lib/libltp.a" ] || { echo "Bail out! no $SRC/lib/libltp.a beside $SUITE"; exit 1; }

printf 'LTP_SRC=%s\n' "$T/nosuch" > "$RAPIDO_CONF"
run_err "a missing LTP_SRC is refused before a boot" "$T/nosuch" "$CUT" ltp

# 1. the boot tier's subset of runtest syscalls, all that was built
tests=$(awk '!/^#/ && NF { print $1, $2 }' "$SUITE/runtest/syscalls" |
	while read -r n c; do [ -x "$SUITE/testcases/bin/$c" ] && printf '%s ' "$n"; done)
cat > "$RAPIDO_CONF" <<EOF
LTP_SRC=$SUITE
LTP_RUNTEST=syscalls
LTP_TESTS="$tests"
LTP_SKIP="syscalls/getpid02"
LTP_TIMEOUT_MUL=4
EOF
start=$(date +%s)
"$CUT" ltp > "$T/cut.out" 2>&1
rc=$?	# (the $(...) below sets $? too)
expect_rc "cut ltp ($(( $(date +%s) - start ))s)" 0 $rc || sed 's/^/# /' "$T/cut.out"
start=$(date +%s)
"$VM" --batch --timeout 600 --results "$T/res" > "$T/console" 2> "$T/err"
rc=$?
expect_rc "LTP's syscalls subset passes ($(( $(date +%s) - start ))s)" 0 $rc
testcases "$T/res/junit.xml" | LC_ALL=C sort > "$T/got"
has() { grep -qxF "$1 $2" "$T/got"; }
for t in open01 read01 write01 stat01 close01 getpid01; do
	check "syscalls/$t passed" has "syscalls/$t" pass
done
check "LTP_SKIP's getpid02 did not run" sh -c '! grep -q "^syscalls/getpid02 " "$0"' "$T/got"
console_verdicts "$T/console" > "$T/printed"
check "junit.xml holds every verdict the guest printed, and no other ($(wc -l < "$T/printed") tests)" \
	same_file "$T/printed" "$T/got"
check "as many tests as LTP printed summaries" \
	test "$(guest_text "$T/console" | grep -c '^Summary:$')" -ge "$(wc -l < "$T/got")"
check "kernel console clean" console_clean "$T/console"
[ $rc = 0 ] || guest_text "$T/console" | tail -n 40 | sed 's/^/# /'

# 2. open01 made to TFAIL, write01 to TBROK: their sources edited, built
# against the tree's libltp
BAD=$T/ltp-bad
# edited DIR NAME FROM TO: the copy's NAME built from DIR/NAME.c with FROM made TO
edited() {
	rm "$BAD/testcases/bin/$2" &&
		sed "s/$3/$4/" "$SRC/testcases/kernel/syscalls/$1/$2.c" > "$T/$2.c" &&
		grep -q "$4" "$T/$2.c" &&
		(cd "$T" && gcc -O2 -I"$SRC/include" -I"$SRC/include/old" -o "$BAD/testcases/bin/$2" \
			"$2.c" -L"$SRC/lib" -lltp)
}
tree_copy "$SUITE" "$BAD" && edited open open01 'tst_res(TPASS, ' 'tst_res(TFAIL, ' &&
	edited write write01 'tst_res(TPASS, "write() passed")' 'tst_brk(TBROK, "write() broken on purpose")' ||
	{ echo "Bail out! cannot build a failing open01 and a broken write01"; exit 1; }
# upstream Rapido's key for the tree
printf 'LTP_DIR=%s\nLTP_TESTS="open01 read01 write01"\n' "$BAD" > "$RAPIDO_CONF"
"$CUT" ltp > "$T/cut.out" 2>&1
expect_rc "cut ltp, the failing copy" 0 $? || sed 's/^/# /' "$T/cut.out"
start=$(date +%s)
"$VM" --batch --timeout 600 --results "$T/bad" > "$T/console" 2> "$T/err"
rc=$?
expect_rc "open01's TFAIL and write01's TBROK are ./vm's exit status ($(( $(date +%s) - start ))s)" 1 $rc
testcases "$T/bad/junit.xml" > "$T/got"
check "open01 is junit.xml's failure, write01 its error, read01 passed" same_file - "$T/got" <<'EOF'
syscalls/open01 failure
syscalls/read01 pass
syscalls/write01 error
EOF
check "  with LTP's TFAIL line" grep -qF 'open01.c:56: TFAIL: sticky bit is set as expected' "$T/bad/junit.xml"
check "  and its TBROK line, an <error> of the counts" sh -c 'grep -qE "<error message=\"ltp: syscalls/write01: TBROK \(LTP exit status 2\): write01.c:[0-9]+: TBROK: write\(\) broken on purpose\"" "$0" &&
	grep -q "failures=\"1\" errors=\"1\"" "$0"' "$T/bad/junit.xml"
check "  the guest's summary counts the error" guest_matches "$T/console" \
	'^rapido: results: 1 passed, 2 failed (1 error), 0 skipped'
check "  and ./vm's" grep -q "3 tests, 1 passed, 2 failed (1 error), 0 skipped" "$T/err"
check "the guest said TFAIL and LTP's exit status" \
	guest_matches "$T/console" '^ltp: syscalls/open01: TFAIL (LTP exit status 1): open01.c:56: TFAIL'
check "kernel console clean" console_clean "$T/console"
[ $rc = 1 ] || guest_text "$T/console" | tail -n 40 | sed 's/^/# /'
# the same image again, open01 and write01 known failures by their junit.xml names
printf 'syscalls/open01 * # made to fail on purpose\nsyscalls/write01 * # broken on purpose\n' > "$T/known"
"$VM" --batch --timeout 600 --results "$T/known-res" --known-failures "$T/known" \
	> "$T/console" 2> "$T/err"
expect_rc "--known-failures names syscalls/open01 and write01: write01's error still fails (1)" 1 $?
testcases "$T/known-res/junit.xml" > "$T/got"
check "  open01 is the known failure, write01 still the error" same_file - "$T/got" <<'EOF'
syscalls/open01 skipped
syscalls/read01 pass
syscalls/write01 error
EOF
check "  open01's reason said" grep -qF 'known failure: made to fail on purpose' "$T/known-res/junit.xml"
# without write01 (the same tree), open01 known: 0
printf 'LTP_DIR=%s\nLTP_TESTS="open01 read01"\n' "$BAD" > "$RAPIDO_CONF"
"$CUT" ltp > "$T/cut.out" 2>&1
expect_rc "cut ltp, open01 and read01 of the failing copy" 0 $? || sed 's/^/# /' "$T/cut.out"
"$VM" --batch --timeout 600 --results "$T/known-res2" --known-failures "$T/known" \
	> "$T/console" 2> "$T/err"
expect_rc "--known-failures names syscalls/open01: ./vm exits 0" 0 $?
check "  open01 is the known failure, its reason said" \
	grep -qF 'known failure: made to fail on purpose' "$T/known-res2/junit.xml"
done_testing
