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
#     TPASS made a TFAIL, given as upstream Rapido's LTP_DIR: ./vm
#     exits 1, syscalls/open01 is a failure of junit.xml carrying LTP's
#     TFAIL line, read01 still passes; booted again with
#     --known-failures naming syscalls/open01, ./vm exits 0.
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
# printed: "NAME STATE" from the verdict line the profile printed after
# LTP's own summary, for each test
printed() {
	guest_text "$T/console" | perl -ne '
		next unless m{^ltp: (syscalls/\S+): (passed|TCONF|.*\(LTP exit status \d+\))};
		print "$1 ", {"passed" => "pass", "TCONF" => "skipped"}->{$2} // "failure", "\n"' |
		LC_ALL=C sort
}
printed > "$T/printed"
check "junit.xml holds every verdict LTP gave, and no other ($(wc -l < "$T/printed") tests)" \
	same_file "$T/printed" "$T/got"
check "as many tests as LTP printed summaries" \
	test "$(guest_text "$T/console" | grep -c '^Summary:$')" -ge "$(wc -l < "$T/got")"
check "kernel console clean" console_clean "$T/console"
[ $rc = 0 ] || guest_text "$T/console" | tail -n 40 | sed 's/^/# /'

# 2. open01 made to TFAIL: its source edited, built against the tree's libltp
BAD=$T/ltp-bad
tree_copy "$SUITE" "$BAD" && rm "$BAD/testcases/bin/open01" &&
	sed 's/tst_res(TPASS, /tst_res(TFAIL, /' "$SRC/testcases/kernel/syscalls/open/open01.c" \
		> "$T/open01.c" && grep -q 'tst_res(TFAIL, "%s is set as expected"' "$T/open01.c" &&
	(cd "$T" && gcc -O2 -I"$SRC/include" -I"$SRC/include/old" -o "$BAD/testcases/bin/open01" \
		open01.c -L"$SRC/lib" -lltp) || { echo "Bail out! cannot build a failing open01"; exit 1; }
# upstream Rapido's key for the tree
printf 'LTP_DIR=%s\nLTP_TESTS="open01 read01"\n' "$BAD" > "$RAPIDO_CONF"
"$CUT" ltp > "$T/cut.out" 2>&1
expect_rc "cut ltp, the failing copy" 0 $? || sed 's/^/# /' "$T/cut.out"
start=$(date +%s)
"$VM" --batch --timeout 600 --results "$T/bad" > "$T/console" 2> "$T/err"
rc=$?
expect_rc "open01's TFAIL is ./vm's exit status ($(( $(date +%s) - start ))s)" 1 $rc
testcases "$T/bad/junit.xml" > "$T/got"
check "open01 is junit.xml's failure, read01 passed" same_file - "$T/got" <<'EOF'
syscalls/open01 failure
syscalls/read01 pass
EOF
check "  with LTP's TFAIL line" grep -qF 'open01.c:56: TFAIL: sticky bit is set as expected' "$T/bad/junit.xml"
check "the guest said TFAIL and LTP's exit status" \
	guest_matches "$T/console" '^ltp: syscalls/open01: TFAIL (LTP exit status 1): open01.c:56: TFAIL'
check "kernel console clean" console_clean "$T/console"
[ $rc = 1 ] || guest_text "$T/console" | tail -n 40 | sed 's/^/# /'
# the same image again, open01 a known failure by its junit.xml name
printf 'syscalls/open01 * # made to fail on purpose\n' > "$T/known"
"$VM" --batch --timeout 600 --results "$T/known-res" --known-failures "$T/known" \
	> "$T/console" 2> "$T/err"
expect_rc "--known-failures names syscalls/open01: ./vm exits 0" 0 $?
check "  open01 is the known failure, its reason said" \
	grep -qF 'known failure: made to fail on purpose' "$T/known-res/junit.xml"
done_testing
