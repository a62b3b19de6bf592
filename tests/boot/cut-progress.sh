#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cut-progress.sh: a cut that takes time says what it is doing when stderr
# is a terminal (a pty from script(1)): checking, the tree being copied,
# the modules layer ./cut writes, which layer dracut builds, cache hits,
# the size written. Nothing when stderr is not a terminal (even with
# stdout on one), nothing at all with -q. Real dracut; no VM boots.
. "$(dirname "$0")/lib.sh"

if ! command -v script > /dev/null; then
	echo "SKIP: script(1) is not installed (util-linux)"
	exit 77
fi

# A profile with a modules, a bins and a tree layer; the tree is big
# enough (a 9 MiB file) that copying it is a step that takes time, so
# touching it makes a re-cut that speaks without running dracut.
cp -r "$TOP/tests/fixtures/xfstests" "$T/tree"
head -c $((9 << 20)) /dev/zero > "$T/tree/big"
cat > "$RD/autorun/progtest.sh" <<EOP
#!/bin/bash
#@ description: progress test profile
#@ bins: cat
#@ modules: zram
#@ files: $T/tree:/tree
EOP

# on_pty NAME CMD: run the shell command CMD with stdin, stdout and stderr on
# a pty; what the terminal showed goes to $T/NAME (carriage returns
# dropped), CMD's exit status is returned
on_pty() {
	local rc
	script -qefc "$2" /dev/null < /dev/null > "$T/$1.raw" 2>&1
	rc=$?
	tr -d '\r' < "$T/$1.raw" > "$T/$1"
	return $rc
}
# says FILE TEXT: FILE has the progress line starting "cut: TEXT"
says() {
	grep -qF -- "cut: $2" "$1"
}
# progress lines in FILE (warnings and errors also start "cut: ", these do not)
progress_lines() {
	grep -cE '^cut: (checking|tree |modules layer|bins layer|busybox layer|helpers layer|dracut: |wrote )' "$1"
}
show() {
	sed 's/^/# /' "$1"
}

on_pty cold "'$CUT' progtest"
expect_rc "a cold cut on a terminal" 0 $?
check "  says it is checking" says "$T/cold" "checking progtest: "
check "  which tree it copies" says "$T/cold" "tree /tree: copying "
check "  the modules layers ./cut writes (every boot's, on-demand), their files, size and time" \
	grep -qE '^cut: modules layers: [0-9]+ files \([0-9.]+ [KM]iB\) in [0-9.]+ s, stored in the cache$' "$T/cold"
check "  which layer dracut builds" says "$T/cold" "dracut: building the bins layer"
check "  when dracut is done, with its size" \
	grep -qE '^cut: dracut: done in [0-9.]+ s: bins layer [0-9.]+ [KM]iB, stored in the cache$' "$T/cold"
check "  the helpers layer, its files and size" \
	grep -qE '^cut: helpers layer: [0-9]+ files \([0-9.]+ [KM]iB\), stored in the cache$' "$T/cold"
check "  the busybox layer, its applets' directory and size" \
	grep -qE "^cut: busybox layer: .*busybox's applets in /usr/lib/rapido/busybox \([0-9.]+ [KM]iB\), stored in the cache$" "$T/cold"
check "  and the size written" grep -qE "^cut: wrote $T/image: [0-9.]+ [KM]iB in [0-9.]+ s \(its 7 layers" "$T/cold"
check "  then the line it always prints" grep -qF "$T/image: profile progtest" "$T/cold"
[ $fails = 0 ] || show "$T/cold"

touch "$T/tree/README"
on_pty hits "'$CUT' progtest"
expect_rc "a re-cut with the tree touched, on a terminal" 0 $?
check "  says which layers came from the cache" \
	bash -c "grep -qE '^cut: modules layers: in the cache \([0-9.]+ [KM]iB\)$' '$T/hits' &&
		 grep -qE '^cut: bins layer: in the cache \([0-9.]+ [KM]iB\)$' '$T/hits'"
check "  that the tree is copied again" says "$T/hits" "tree /tree: copying "
check "  and that dracut did not run" test -z "$(grep -F 'cut: dracut' "$T/hits")"
[ $fails = 0 ] || show "$T/hits"

touch "$T/tree/README"
on_pty errfile "'$CUT' progtest 2> '$T/errfile.err'"
expect_rc "stdout on a terminal, stderr to a file" 0 $?
check "  no progress line in the file" test "$(progress_lines "$T/errfile.err")" = 0
check "  nor on the terminal" test "$(progress_lines "$T/errfile")" = 0
check "  the closing line still on stdout" grep -qF "$T/image: profile progtest" "$T/errfile"
[ $fails = 0 ] || { show "$T/errfile"; show "$T/errfile.err"; }

touch "$T/tree/README"
"$CUT" progtest > "$T/plain.out" 2> "$T/plain.err"
expect_rc "no terminal at all" 0 $?
check "  no progress line" test "$(progress_lines "$T/plain.err") $(progress_lines "$T/plain.out")" = "0 0"
[ $fails = 0 ] || show "$T/plain.err"

touch "$T/tree/README"
rm -f "$T/image"
on_pty quiet "'$CUT' -q progtest"
expect_rc "-q on a terminal" 0 $?
check "  prints nothing" test ! -s "$T/quiet"
check "  and writes the image" test -s "$T/image"
[ $fails = 0 ] || show "$T/quiet"
done_testing
