#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bisect.sh: ./bisect on a small git history with real boots. Each commit
# changes checks.sh, the tests the image runs (cut -f), and --build-cmd
# "builds" a commit by checking that checks.sh parses (the commit that
# does not, does not build) and installing the host's Debian kernel as a
# built tree (read-only: /boot and /lib/modules are only linked to):
#   c0 good  c1 good  c2 good  c3 good  c4 breaks proc/filesystems  c5 does
#   not build  c6 half fixed: proc/filesystems fails one run in two (a
#   counter on the --share)  c7 broken again
# With --runs 2 --results, ./bisect must take c7's failure as the one to
# find, skip c5 (not built) and c6 (flaky, 1 of 2 runs), name c4 as the
# first bad commit in at most ceil(log2 7) = 3 decisive steps, and report
# each step's verdict, times and logs. It is interrupted in the middle of a
# step (its build command kills it) and resumed with --continue; --reset
# ends it, leaving the tree on its branch. --compare c3 c4 names the one
# test that differs. git bisect's way around skipped commits depends on
# the commit ids: the history is made (fixed dates and names, a salt in a
# comment) so that it visits both c5 and c6 (tests/boot/lib.sh's
# bisect_walk says which it visits). tests/long/kernel-tree-bisect.sh
# does this on a real kernel tree.
. "$(dirname "$0")/lib.sh"

installed_kernel_or_skip
BISECT=$TOP/bisect
start=$(date +%s)

src=$T/linux
mkdir -p "$T/share"
# fixed dates and names: the same commit ids on every run
n=0
commit() {	# commit NAME CHECKS: checks.sh as CHECKS, committed as NAME, tagged NAME
	printf '%s\n' "$2" > "$src/checks.sh"
	n=$((n + 1))
	local d="@$((1700000000 + n * 60)) +0000"
	git -C "$src" add checks.sh && GIT_AUTHOR_DATE=$d GIT_COMMITTER_DATE=$d \
		git -C "$src" commit -q -m "$1" && git -C "$src" tag "$1"
}
base='rapido_test kernel/release grep -qF "$(uname -r)" /proc/version
rapido_test proc/filesystems grep -qw proc /proc/filesystems'
broken=${base/grep -qw proc/grep -qw nosuchfs}
history() {	# history SALT: the commits, c1 with SALT in a comment
	rm -rf "$src" && n=0 && git init -q -b main "$src" &&
		git -C "$src" config user.email rapido@test && git -C "$src" config user.name rapido ||
		{ echo "Bail out! git init failed"; exit 1; }
	commit c0 "$base"
	commit c1 "$base
# $1
rapido_test proc/cmdline grep -q console= /proc/cmdline"
	commit c2 "$base
# the console is on the kernel command line
rapido_test proc/cmdline grep -q console= /proc/cmdline"
	commit c3 "$base"
	commit c4 "$broken"
	commit c5 "$broken
if then"
	commit c6 'n=$(cat /host/count 2> /dev/null || echo 0); echo $((n + 1)) > /host/count
if [ $((n % 2)) = 1 ]; then
'"$base"'
else
'"$broken"'
fi'
	commit c7 "$broken
rapido_test proc/cmdline grep -q console= /proc/cmdline"
}
# git bisect's way around skipped commits depends on the ids: the first
# salt whose history has it visit both c5 and c6 (1, with git 2.39)
bisect_history history "$src" c0 c7 "c5 c6" c4=bad c5=skip c6=skip c7=bad
check "a history whose bisection visits c5 and c6 (salt $salt:$walk)" test $? = 0

# the build command: the interruption first, then "make", then modules_install
cat > "$T/build" <<EOF
#!/bin/bash
if [ -e "$T/interrupt" ] && [ "\$(git -C "\$RAPIDO_BISECT_SRC" describe --tags)" = c6 ]; then
	rm "$T/interrupt"
	kill -TERM \$PPID
	exit 1
fi
bash -n "\$RAPIDO_BISECT_SRC/checks.sh" || exit 2
# a link in the place of the kernel's copy (the state dir's kernel/.config)
if [ -e "$T/plant" ]; then
	for d in "\$RAPIDO_BISECT_SRC"/.git/rapido-compare/*/; do
		mkdir -p "\$d/kernel" && ln -sfn "$T/victim" "\$d/kernel/.config"
	done
fi
o=\$RAPIDO_BISECT_OBJ
mkdir -p "\$o/arch/x86/boot" "\$o/include/config" "\$RAPIDO_BISECT_MODS/lib/modules" &&
ln -sfn "/boot/vmlinuz-$rel" "\$o/arch/x86/boot/bzImage" &&
cp "/boot/config-$rel" "\$o/.config" &&
cp "/lib/modules/$rel/modules.builtin" "\$o/modules.builtin" &&
echo "$rel" > "\$o/include/config/kernel.release" &&
ln -sfn "/lib/modules/$rel" "\$RAPIDO_BISECT_MODS/lib/modules/$rel"
EOF
chmod +x "$T/build"
export KERNEL_SRC=$src
state=$src/.git/rapido-bisect
bisect_args=(--runs 2 --results --build-cmd "$T/build" -O "$T/obj" --good c0 --bad c7
	simple -f "$src/checks.sh" -- --timeout 300 --share "$T/share")

# 1. interrupted in c6's build
touch "$T/interrupt"
(cd "$src" && "$BISECT" "${bisect_args[@]}") > "$T/out1" 2>&1
expect_rc "./bisect killed by its build command in the middle of a step" 143 $?
check "  the bisection is left to resume: its state and git's" \
	test -d "$state" -a -e "$src/.git/BISECT_START"
check "  the bad commit's failure was taken first, as the reference" \
	grep -q "^bisect: the bad commit (its failure is the one bisected) [0-9a-f]* c7$" "$T/out1"
check "  its 2 runs failed proc/filesystems with exit 1" \
	grep -q "every run failed as the bad commit .*run 2: exit 1 (a test failed), failing proc/filesystems as the bad commit" "$T/out1"

# 2. resumed
(cd "$src" && "$BISECT" --continue) > "$T/out" 2>&1
rc=$?
cat "$T/out1" "$T/out" > "$T/all"
expect_rc "./bisect --continue finds the first bad commit" 0 $rc
grep -E '^bisect: (the bad|step)|^  (verdict|times):' "$T/all" | sed 's/^/# /'
[ $rc = 0 ] || sed 's/^/# /' "$T/all"
check "  it is c4, with git show --stat's summary" \
	bash -c "grep -A6 '^bisect: the first bad commit:' '$T/out' | grep -q '^    c4\$' &&
		grep -q 'checks.sh | 2 +-' '$T/out'"
check "  c5 was skipped: not built (the build command's status)" \
	grep -q "^  [0-9a-f]* c5: not built: --build-cmd $T/build exited 2" "$T/out"
check "  c6 was reported flaky, 1 of 2 runs failed, and skipped" \
	grep -q "^  [0-9a-f]* c6: flaky: flaky, skipped (--flaky=skip): 1 of 2 runs failed (50%)" "$T/out"
check "  c6's runs: one failed as the bad commit, one passed" \
	bash -c "grep '^  [0-9a-f]* c6: flaky' '$T/out' |
		grep -q 'run 1: exit 1 (a test failed), failing proc/filesystems as the bad commit; run 2: passed'"
decisive=$(sed -n '/^bisect: the decisive steps:/,/^$/p' "$T/out" | grep -cE '^  (good|bad) +[0-9a-f]')
check "  $decisive decisive steps, at most ceil(log2 7) = 3" test "$decisive" -ge 1 -a "$decisive" -le 3
check "  c3 was good and c4 bad, each on 2 runs" \
	bash -c "grep -qE '^  good +[0-9a-f]+ c3: 2 runs: every run passed' '$T/out' &&
		grep -qE '^  bad +[0-9a-f]+ c4: 2 runs: every run failed as the bad commit' '$T/out'"
check "  every step printed its build and boot times" \
	test "$(grep -c '^  times: build [0-9.]* s, cut [0-9.]* s, 2 boots [0-9.]* s$' "$T/all")" -ge 4
check "  and where its logs are" grep -q "^  logs: $state/[0-9]*-step-[0-9a-f]* (build.log, cut.log, run-N/console.log, run-N/results/)" "$T/all"
c4log=$(sed -n "s|^  bad .* c4: .*(logs \(.*\))\$|\1|p" "$T/out")
check "  c4's logs hold each run's console and results" \
	bash -c "grep -q 'Linux version' '$c4log/run-2/console.log' && grep -q 'fail proc/filesystems' '$c4log/run-1/results/results.txt'"
check "  a confidence statement" grep -q "^bisect: confidence: high: [0-9] decisive steps, each booted 2 times" "$T/out"

# 3. ended
(cd "$src" && "$BISECT" --reset) > "$T/out" 2>&1
expect_rc "./bisect --reset" 0 $?
check "  git bisect has ended and the tree is on its branch again" \
	bash -c "[ ! -e '$src/.git/BISECT_START' ] && [ \"\$(git -C '$src' symbolic-ref --short HEAD)\" = main ]"
check "  the state is gone" test ! -e "$state"

# 4. A/B: the last good and the first bad commit; the kernel's files are
# copied into the state dir through a new file and a rename, never through
# a link found in their place
echo "precious" > "$T/victim"
touch "$T/plant"
(cd "$src" && "$BISECT" --compare --runs 1 --results --build-cmd "$T/build" -O "$T/obj" c3 c4 \
	simple -f "$src/checks.sh" -- --timeout 300) > "$T/out" 2>&1
expect_rc "./bisect --compare c3 c4: a difference held (exit 1)" 1 $?
check "  the one test that differs, and how" \
	bash -c "[ \"\$(grep -c '^  [a-z/]*: A ' '$T/out')\" = 1 ] && grep -q '^  proc/filesystems: A pass, B fail\$' '$T/out'"
check "  the tree is back on its branch" \
	test "$(git -C "$src" symbolic-ref --short HEAD)" = main
check "  a link in the place of the kernel's .config copy: not written through" \
	test "$(cat "$T/victim")" = precious
rm -f "$T/plant"
grep '^bisect: \|^  [a-z/]*: A ' "$T/out" | sed 's/^/# /'
echo "# wall time $(( $(date +%s) - start )) s"
done_testing
