#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ltp-lib.sh: autorun/lib/ltp.sh without a VM: a runtest file's lines
# become tests named FILE/NAME, selected by LTP_TESTS and LTP_SKIP (names,
# FILE/NAME, globs), and each one's exit status is read as LTP's result
# bits (include/tst_res_flags.h): 0 pass, TCONF (32) alone a skip with its
# TCONF line as the reason, TBROK 2 without TFAIL an error (no verdict:
# a JUnit <error>, never re-run), TFAIL 1 / TWARN 4 or a signal a
# failure naming them; a mistyped LTP_TESTS word or runtest file fails
# the run. The commands here print what LTP's library prints and exit as
# it exits; tests/boot/ltp-real.sh runs the real LTP in a guest.
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/guest-lib.inc"
# the tree in $tmp/ltp, its tests on PATH
in_lib_env=(PATH="$tmp/ltp/testcases/bin:$PATH" TMPDIR="$tmp/tmp")
in_lib_pre='_ltp_root=$2/ltp'

mkdir -p "$tmp/ltp/runtest" "$tmp/ltp/testcases/bin" "$tmp/tmp" || exit 1
# lt NAME STATUS LINE: a test command that prints LINE and LTP's summary, then exits STATUS
lt() {
	printf '#!/bin/sh\necho "%s"\nprintf "\\nSummary:\\npassed   0\\n" >&2\nexit %s\n' "$3" "$2" \
		> "$tmp/ltp/testcases/bin/$1" && chmod +x "$tmp/ltp/testcases/bin/$1"
}
lt open01 0 "open01.c:56: TPASS: sticky bit is set as expected"
lt read01 1 "read01.c:30: TFAIL: read() returned 0"
lt write01 2 "tst_test.c:1950: TBROK: Test killed! (timeout?)"
lt stat01 32 "stat01.c:90: TCONF: no quota support"
lt warn01 4 "warn01.c:9: TWARN: cleanup failed"
lt mixed01 33 "mixed01.c:3: TFAIL: old   1  TFAIL  :  x"
lt old01 1 "old01       1  TFAIL  :  old01.c:40: expected 1"
lt broke01 34 "broke01.c:7: TBROK: mmap() failed"
lt both01 3 "both01.c:5: TFAIL: wrong size"
printf '#!/bin/sh\nkill -9 $$\n' > "$tmp/ltp/testcases/bin/killed01" && chmod +x "$tmp/ltp/testcases/bin/killed01"
cat > "$tmp/ltp/runtest/syscalls" <<'EOF'
#DESCRIPTION:a comment line
open01 open01
read01 read01

write01 write01 -i 1
stat01 stat01
warn01 warn01
mixed01 mixed01
old01 old01
killed01 killed01
broke01 broke01
both01 both01
EOF
printf 'open02 open01\n' > "$tmp/ltp/runtest/fs"

in_lib 'ltp_run; echo "run=$?"; rapido_tests_done; echo "done=$?"'
check "a failed test fails the run" grep -qx 'run=1' "$tmp/out"
check "the totals count the errors among the failures" \
	grep -qxF 'rapido: results: 1 passed, 8 failed (2 errors), 1 skipped' "$tmp/out"
records > "$tmp/got"
check "each runtest line is a test, FILE/NAME, LTP's exit status its verdict" same_file - "$tmp/got" <<'EOF'
pass syscalls/open01
fail syscalls/read01 exit status 1
error syscalls/write01 ltp: syscalls/write01: TBROK (LTP exit status 2): tst_test.c:1950: TBROK: Test killed! (timeout?)
skip syscalls/stat01 ltp: syscalls/stat01: TCONF: stat01.c:90: TCONF: no quota support
fail syscalls/warn01 exit status 4
fail syscalls/mixed01 exit status 33
fail syscalls/old01 exit status 1
fail syscalls/killed01 exit status 137
error syscalls/broke01 ltp: syscalls/broke01: TBROK (LTP exit status 34): broke01.c:7: TBROK: mmap() failed
fail syscalls/both01 exit status 3
EOF
check "  TBROK (with TCONF too) an error, said on the console" \
	grep -qF 'rapido: test syscalls/broke01: ERROR: ltp: syscalls/broke01: TBROK (LTP exit status 34)' "$tmp/out"
check "a failure says LTP's words and its first TFAIL line" \
	grep -qxF 'ltp: syscalls/read01: TFAIL (LTP exit status 1): read01.c:30: TFAIL: read() returned 0' "$tmp/out"
check "TBROK (LTP's own timeout) is said" \
	grep -qxF 'ltp: syscalls/write01: TBROK (LTP exit status 2): tst_test.c:1950: TBROK: Test killed! (timeout?)' "$tmp/out"
check "TWARN is said" grep -qF 'ltp: syscalls/warn01: TWARN (LTP exit status 4)' "$tmp/out"
check "TFAIL with TCONF: a failure" grep -qF 'ltp: syscalls/mixed01: TFAIL (LTP exit status 33)' "$tmp/out"
check "the old library's TFAIL line is found" \
	grep -qF 'ltp: syscalls/old01: TFAIL (LTP exit status 1): old01       1  TFAIL  :  old01.c:40' "$tmp/out"
check "a signal is said" grep -qF 'ltp: syscalls/killed01: killed by signal 9' "$tmp/out"
check "the tests were planned first" test "$(grep -c ' plan ' "$tmp/rec")" = 10
check "LTP's output is the test's output" grep -qF 'read01.c:30:%20TFAIL:%20read()%20returned%200' "$tmp/rec"

in_lib 'LTP_RUNTEST="syscalls,fs" LTP_TESTS="open0* syscalls/stat01 fs/open02" LTP_SKIP="syscalls/open01"
	ltp_run; echo "run=$?"'
records > "$tmp/got"
check "LTP_TESTS and LTP_SKIP select by name, FILE/NAME and glob, over LTP_RUNTEST's files" \
	same_file - "$tmp/got" <<'EOF'
skip syscalls/stat01 ltp: syscalls/stat01: TCONF: stat01.c:90: TCONF: no quota support
pass fs/open02
EOF
check "  and the run passes" grep -qx 'run=0' "$tmp/out"

in_lib 'LTP_TESTS="open01 opne01" LTP_RUNTEST="syscalls nosuch"; ltp_run; echo "run=$?"'
check "a mistyped test name fails the run, named" \
	grep -qxF 'ltp: LTP_TESTS: no test named opne01 in runtest syscalls nosuch' "$tmp/out"
check "a missing runtest file fails the run, named" \
	grep -qF "ltp: LTP_RUNTEST: no runtest file $tmp/ltp/runtest/nosuch" "$tmp/out"
records > "$tmp/got"
check "  each a failed testcase, open01 still run" same_file - "$tmp/got" <<EOF
fail ltp/nosuch LTP_RUNTEST: no runtest file $tmp/ltp/runtest/nosuch
fail ltp/opne01 LTP_TESTS: no test of this name in syscalls nosuch
pass syscalls/open01
EOF
check "  and the run fails" grep -qx 'run=1' "$tmp/out"

# a selection of no test is no passing run of no testcase
printf '#DESCRIPTION:comments only\n\n' > "$tmp/ltp/runtest/comments"
for sel in 'LTP_RUNTEST=fs LTP_SKIP="open0*"' 'LTP_RUNTEST=comments' 'LTP_RUNTEST=","'; do
	in_lib "$sel; ltp_run; echo \"not reached\""
	check "no test selected ($sel): the profile fails, naming the keys" sh -c \
		"grep -qF 'rapido: FAILED: selected no test (LTP_TESTS/LTP_SKIP/LTP_RUNTEST)' '$tmp/out' &&
		! grep -q 'not reached' '$tmp/out' && grep -q '^1 ' '$tmp/run/rapido.status'"
done

in_lib 'LTP_TESTS="open01 read01"; RAPIDO_SHARD=1/2 ltp_run; RAPIDO_SHARD=2/2 ltp_run'
check "--shard: each test in exactly one shard" test "$(records | sort | tr '\n' ' ')" = \
	"fail syscalls/read01 exit status 1 pass syscalls/open01 "
# taints NAME BITS STATUS RUNTEST: a test NAME that adds BITS to the
# kernel's taint (here: a file standing for /proc/sys/kernel/tainted) and
# exits STATUS, the line of runtest file RUNTEST; the taint is 1 before it
taints() {
	printf '#!/bin/sh\necho $(($(cat "%s") | %s)) > "%s"\nexit %s\n' "$tmp/tainted" "$2" "$tmp/tainted" "$3" \
		> "$tmp/ltp/testcases/bin/$1" && chmod +x "$tmp/ltp/testcases/bin/$1" &&
		printf '%s %s\n' "$1" "$1" > "$tmp/ltp/runtest/$4" && echo 1 > "$tmp/tainted" || exit 1
}
# a test that taints the kernel fails though LTP passed it; an old taint does not
taints taint01 512 0 taint
in_lib '_ltp_taint_file=$2/tainted; LTP_RUNTEST="taint syscalls" LTP_TESTS="taint01 open01"; ltp_run'
records > "$tmp/got"
check "a new kernel taint fails the test, an old one does not" same_file - "$tmp/got" <<'EOF'
fail taint/taint01 exit status 1
pass syscalls/open01
EOF
check "  said with the taint" grep -qxF 'ltp: taint/taint01: the kernel is now tainted (513, was 1)' "$tmp/out"
echo 1 > "$tmp/tainted"
in_lib '_ltp_taint_file=$2/tainted; RAPIDO_RERUN_FAILURES=2 LTP_RUNTEST="taint" LTP_TESTS="taint01"; ltp_run; echo "run=$?"'
records > "$tmp/got"
check "--rerun-failures: a test's taint stays its failure on each re-run (not flaky)" same_file - "$tmp/got" <<'EOF'
fail taint/taint01 exit status 1
fail taint/taint01 exit status 1
fail taint/taint01 exit status 1
EOF
check "  and the run fails" grep -qx 'run=1' "$tmp/out"
# an error is no failure a re-run could turn into a pass: run once
in_lib 'RAPIDO_RERUN_FAILURES=2 LTP_TESTS=write01; ltp_run; echo "run=$?"'
records > "$tmp/got"
check "--rerun-failures: a TBROK is not run again" same_file - "$tmp/got" <<'EOF'
error syscalls/write01 ltp: syscalls/write01: TBROK (LTP exit status 2): tst_test.c:1950: TBROK: Test killed! (timeout?)
EOF
check "  and the run fails" grep -qx 'run=1' "$tmp/out"
# a TBROK test that taints the kernel: the taint is a verdict, a failure
taints taint02 512 2 taint2
in_lib '_ltp_taint_file=$2/tainted; LTP_RUNTEST=taint2; ltp_run'
records > "$tmp/got"
check "a TBROK that taints the kernel: a failure" same_file - "$tmp/got" <<'EOF'
fail taint2/taint02 exit status 1
EOF
# LTP's module tests load out-of-tree, unsigned test modules: O (4096) and E (8192)
taints init_module01 '4096 | 8192' 0 mod
in_lib '_ltp_taint_file=$2/tainted; LTP_RUNTEST=mod; ltp_run'
records > "$tmp/got"
check "taint O and E (a module test's own module) are no failure" same_file - "$tmp/got" <<'EOF'
pass mod/init_module01
EOF

mkdir -p "$tmp/src/testcases/kernel/syscalls/open" "$tmp/src/testcases/lib" "$tmp/src/testcases/data" &&
	touch "$tmp/src/testcases/kernel/syscalls/open/Makefile" "$tmp/src/testcases/lib/Makefile" || exit 1
in_lib '_ltp_path "$2/src"; echo "src=$REPLY"; _ltp_path "$2/ltp"; echo "inst=$REPLY"'
check "a tree built in place: its test directories are PATH" grep -qxF \
	"src=$tmp/src/testcases/kernel/syscalls/open:$tmp/src/testcases/lib" "$tmp/out"
check "an installed tree: its testcases/bin" grep -qxF "inst=$tmp/ltp/testcases/bin" "$tmp/out"
# the profile without an LTP tree: a shell interactively, a failure in a batch run
in_lib 'unset RAPIDO_RESULTS_PORT; _ltp_root=$2/none; _rapido_autorun_dir=$2/none; source "$1/autorun/ltp.sh"; echo "rc=$?"'
check "no LTP tree, interactive: said, no failure" sh -c \
	"grep -qxF 'ltp: LTP not included (LTP_SRC unset)' '$tmp/out' && grep -qx 'rc=0' '$tmp/out'"
in_lib 'unset RAPIDO_RESULTS_PORT; _ltp_root=$2/none; _rapido_autorun_dir=$2/none; RAPIDO_BATCH=1; source "$1/autorun/ltp.sh"; echo "not reached"'
check "no LTP tree, batch: a failure naming the keys" sh -c \
	"grep -qF 'rapido: FAILED: LTP_SRC/LTP_DIR unset: the suite is not in the image' '$tmp/out' &&
		! grep -q 'not reached' '$tmp/out'"

# a command that is no LTP test exiting 77 (64+8+4+1) or 99 (64+32+2+1):
# a failure, not rapido_test's skip or error
lt odd01 77 "odd01: not an LTP test"
lt odd02 99 "odd02: not an LTP test"
printf 'odd01 odd01\nodd02 odd02\n' > "$tmp/ltp/runtest/odd"
in_lib 'LTP_RUNTEST=odd; ltp_run; echo "run=$?"'
records > "$tmp/got"
check "exit status 77 or 99 is a failure, status 1" same_file - "$tmp/got" <<'EOF'
fail odd/odd01 exit status 1
fail odd/odd02 exit status 1
EOF
check "  its words kept" grep -qF 'ltp: odd/odd01: TFAIL TWARN exit status 77 (LTP exit status 77)' "$tmp/out"
check "  and the run fails" grep -qx 'run=1' "$tmp/out"

# a glob word is a test-name glob, not a file name of the current directory
mkdir -p "$tmp/cwd" && : > "$tmp/cwd/open0x" || exit 1
in_lib 'cd "$2/cwd" && LTP_TESTS="open0*" ltp_run; echo "run=$?"; case $- in *f*) echo "noglob left on" ;; esac'
records > "$tmp/got"
check "LTP_TESTS=open0*: not expanded against the current directory" same_file - "$tmp/got" <<'EOF'
pass syscalls/open01
EOF
check "  the caller's globbing left as it was" sh -c "grep -qx 'run=0' '$tmp/out' && ! grep -q 'noglob' '$tmp/out'"

done_testing
