#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# uring-real.sh: the uring profile with the real liburing (tests/suite-tree
# liburing, built once and cached), its test/ programs on a zram xfs:
#  1. LIBURING_TESTS a handful that pass on this kernel, one of them also in
#     LIBURING_SKIP: ./vm exits 0, each test a passing testcase of
#     junit.xml, the skipped one not run.
#  2. A copy of the tree whose nop.c is edited to fail (exit 1 before its
#     first check) and nop.t rebuilt from it: ./vm exits 1, nop a failure of
#     junit.xml with the line it printed, the other test a pass; every
#     verdict the guest printed is the one junit.xml holds.
# Also (no boot): a bad URING_FS is refused by ./cut; Rapido's uring_btrfs
# is taken, cutting uring with URING_FS=btrfs.
# tests/run timeout: 600s
. "$(dirname "$0")/lib.sh"

installed_kernel_or_skip
suite_tree liburing
L=$SUITE
BAD=$T/liburing-bad
# nop.c replaced whole (the copy's files are the cache's hard links), with
# a failure before its first check; make rebuilds nop.t alone from it
tree_copy "$L" "$BAD" && rm "$BAD/test/nop.c" &&
	sed 's/^\tif (argc > 1)$/\tfprintf(stderr, "nop: made to fail by uring-real.sh\\n");\n\treturn 1;\n&/' \
		"$L/test/nop.c" > "$BAD/test/nop.c" && rm "$BAD/test/nop.t" &&
	make -s -C "$BAD/test" nop.t > "$T/make.out" 2>&1 &&
	grep -q 'made to fail' "$BAD/test/nop.t" || { sed 's/^/# /' "$T/make.out"; exit 1; }

printf 'LIBURING_SRC=%s\nURING_FS=ext4\n' "$L" > "$RAPIDO_CONF"
run_err "a bad URING_FS is refused before a boot" "URING_FS: expected xfs or btrfs, got 'ext4'" "$CUT" uring
printf 'LIBURING_SRC=%s\n' "$L" > "$RAPIDO_CONF"
"$CUT" uring_btrfs > "$T/out" 2>&1
expect_rc "Rapido's uring_btrfs cuts uring" 0 $?
check "  with URING_FS=btrfs" grep -qF "uring with URING_FS=btrfs" "$T/out"

# boot N WANT: cut uring, boot with --results $T/resN, expect WANT
boot() {
	local start rc
	start=$(date +%s)
	"$CUT" uring > "$T/cut.out" 2>&1
	rc=$?	# (the $(...) below sets $? too)
	expect_rc "$1: cut uring ($(( $(date +%s) - start ))s)" 0 $rc || sed 's/^/# /' "$T/cut.out"
	start=$(date +%s)
	"$VM" --batch --timeout 500 --results "$T/res$1" > "$T/console" 2> "$T/err"
	rc=$?
	expect_rc "$1: ./vm's exit status ($(( $(date +%s) - start ))s)" "$2" $rc
	testcases "$T/res$1/junit.xml" | LC_ALL=C sort > "$T/got$1"
	check "$1: junit.xml holds every verdict the guest printed ($(wc -l < "$T/got$1") tests)" \
		same_file <(console_verdicts "$T/console") "$T/got$1"
	check "$1: kernel console clean" console_clean "$T/console"
	[ "$rc" = "$2" ] || guest_text "$T/console" | tail -n 40 | sed 's/^/# /'
}

# 1. a handful that pass on this kernel (poll's lazy polling test fails
# on 6.1: it is left out, as are the slow ones)
cat > "$RAPIDO_CONF" <<EOF
LIBURING_SRC=$L
URING_FS=xfs
LIBURING_TESTS="nop.t fsync send_recvmsg statx eventfd cq-full poll"
LIBURING_SKIP=poll
EOF
boot 1 0
check "1: xfs on the zram disk" guest_says "$T/console" "uring: xfs on /dev/zram0 at /mnt"
check "1: the six tests passed" same_file - "$T/got1" <<'EOF'
cq-full pass
eventfd pass
fsync pass
nop pass
send_recvmsg pass
statx pass
EOF
check "1: LIBURING_SKIP's poll did not run" sh -c "! grep -q 'Running test poll' '$T/console'"

# 2. nop edited to fail
printf 'LIBURING_SRC=%s\nLIBURING_TESTS="nop fsync"\n' "$BAD" > "$RAPIDO_CONF"
boot 2 1
check "2: nop failed, fsync passed" same_file - "$T/got2" <<'EOF'
fsync pass
nop failure
EOF
check "2: the failure says its exit status" grep -qF '<failure message="exit status 1"' "$T/res2/junit.xml"
check "2: and holds what nop printed" grep -qF 'nop: made to fail by uring-real.sh' "$T/res2/junit.xml"
done_testing
