#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-tree-bisect.sh: ./bisect on a real kernel history, built for real:
# the slow tier's tree (tests/slow/kbuild.inc: Debian's linux-source and
# its build, which kernel-src.sh made; tests/run runs this test after it,
# as their names sort) made a git repository, then seven commits to
# fs/proc/version.c, the text of /proc/version, which the test script
# checks (cut -f):
#   c1, c2 comments  c3 /proc/version wrong when the domain name, which the
#   test sets from a run counter on the --share, is odd: one run in two
#   c4 fixed  c5 /proc/version says "Lunix"  c6 does not build  c7 a comment
# ./bisect --runs 2 --results (each step configured as make kernel-config
# does for the profile, built incrementally, cut, booted twice) must find
# c5 in at most ceil(log2 7) = 3 decisive steps, skip c6 (not built) and
# report c3 as flaky, 1 of 2 runs failed; then --compare c4 c5 must name
# proc/version as the one test that differs. Each step's build and boot
# times are printed. The cache is never written: the tree is hard links
# of the cached source (git's checkouts replace a file, never write into
# it), the build a copy of the cached one with its paths moved to the copy
# (so the first step rebuilds one file, not the kernel).
# tests/run timeout: 1800s
. "$(dirname "$0")/../boot/lib.sh"
start=$(date +%s)

if [ "$(uname -m)" != x86_64 ]; then
	echo "SKIP: builds an x86_64 kernel natively; this host is $(uname -m)"
	exit 77
fi
# pkg, pkgver, cache, jobs, frags, key, src_root, obj
. "$TOP/tests/slow/kbuild.inc"
exec 9> "$cache/.lock" && flock 9 || { echo "Bail out! cannot lock $cache"; exit 1; }
if [ ! -e "$obj/.rapido-built" ] || [ ! -e "$src_root/.unpacked" ]; then
	echo "SKIP: no cached kernel build in $cache for $pkg $pkgver ($key): tests/slow/kernel-src.sh makes it (run tests/run --slow first)"
	exit 77
fi
csrc=$(find "$src_root" -mindepth 2 -maxdepth 2 -name Makefile -printf '%h\n' | head -n 1)
# beside the cache: hard links need its file system ($T may be a tmpfs)
work=$(mktemp -d "$cache/bisect-test.XXXXXX") || { echo "Bail out! mktemp in $cache failed"; exit 1; }
trap '[ -n "${KEEP_TEST_DIR:-}" ] || rm -rf "$T" "$work"' EXIT
src=$work/linux
bobj=$work/obj
cp -al "$csrc" "$src" && cp -a "$obj" "$bobj" || { echo "Bail out! cannot copy the cached tree and build"; exit 1; }
# kbuild's command lines (.*.cmd) and dependency lists name the source and
# build directories by their absolute paths: moved, nothing looks changed
grep -rlIZ -e "$csrc" -e "$obj" "$bobj" | xargs -0 -r sed -i -e "s|$csrc|$src|g" -e "s|$obj|$bobj|g" ||
	{ echo "Bail out! cannot move the build's paths"; exit 1; }
rm -rf "$bobj/mods"
echo "# tree and build copied in $(( $(date +%s) - start )) s"

# only fs/proc is tracked: git bisect checks out what the commits change,
# and the rest of the tree is left as it is (untracked, which is not dirty)
v=$src/fs/proc/version.c
orig=$(cat "$v")
n=0
commit() {	# commit NAME: what the caller changed in fs/proc/version.c, committed and tagged NAME
	n=$((n + 1))
	local d="@$((1700000000 + n * 60)) +0000"
	# (-f: Debian's linux-source .gitignore ignores every top-level path, "/*")
	git -C "$src" add -f fs/proc && GIT_AUTHOR_DATE=$d GIT_COMMITTER_DATE=$d \
		git -C "$src" commit -q -m "$1" && git -C "$src" tag "$1" ||
		{ echo "Bail out! git commit $1 failed"; exit 1; }
}
edit() {	# edit PERL: version.c as first committed, changed by PERL (-0pe)
	printf '%s\n' "$orig" | perl -0pe "$1" > "$v.new" && mv "$v.new" "$v"
}
history() {	# history SALT: c0 to c7, c1's comment with SALT
	rm -rf "$src/.git" && n=0 && printf '%s\n' "$orig" > "$v.new" && mv "$v.new" "$v" &&
		git -C "$src" init -q -b main && git -C "$src" config user.email rapido@test &&
		git -C "$src" config user.name rapido || { echo "Bail out! git init failed"; exit 1; }
	commit c0
	edit 's|#include "internal.h"\n|#include "internal.h"\n\n/* /proc/version: the banner ('"$1"') */\n|'
	commit c1
	edit 's|#include "internal.h"\n|#include "internal.h"\n\n/* /proc/version: the banner, as uname -a prints it */\n|'
	commit c2
	edit 's|\tseq_printf\(m, linux_proc_banner,|\tif (utsname()->domainname[0] & 1)\n\t\tseq_puts(m, "Lunix ");\n\tseq_printf(m, linux_proc_banner,|'
	commit c3
	edit 's|#include "internal.h"\n|#include "internal.h"\n\n/* /proc/version: the banner, as uname -a prints it */\n|'
	commit c4
	edit "$broken"
	commit c5
	edit "$broken; s|\\z|#error this commit does not build\n|"
	commit c6
	edit "$broken; s|#include \"internal.h\"\n|#include \"internal.h\"\n\n/* the banner */\n|"
	commit c7
}
broken='s|\tseq_printf\(m, linux_proc_banner,|\tseq_puts(m, "Lunix ");\n\tseq_printf(m, linux_proc_banner,|'
# git bisect's way around skipped commits depends on the commit ids (here
# on the source's fs/proc too): the first salt whose history has it visit
# both c3 and c6 (tests/boot/lib.sh)
bisect_history history "$src" c0 c7 "c3 c6" c3=skip c5=bad c6=skip c7=bad
check "a history whose bisection visits c3 and c6 (salt $salt:$walk)" test $? = 0
grep -q Lunix "$csrc/fs/proc/version.c" && { echo "Bail out! the cached source was written"; exit 1; }

# the test: /proc/version starts "Linux version", with the domain name
# set from the run counter first (what c3 trips over one run in two)
mkdir -p "$T/share"
cat > "$T/checks.sh" <<'EOF'
n=$(cat /host/count 2> /dev/null || echo 0)
echo $((n + 1)) > /host/count
echo "$n" > /proc/sys/kernel/domainname
rapido_test proc/version grep -q '^Linux version' /proc/version
EOF
export KERNEL_SRC=$src
cut_args=(simple -f "$T/checks.sh")
# the profile's fragment is fstests_local's as the cached build has it
"$CUT" --kconfig fstests_local > "$T/fstests_local.config" ||
	{ echo "Bail out! cut --kconfig fstests_local failed"; exit 1; }
# --base keep: the copied .config is tinyconfig's already (kernel-src.sh
# made it so), which saves each step's make tinyconfig
build_args=(-O "$bobj" -j "$jobs" --base keep --fragment "$T/fstests_local.config"
	--fragment "$TOP/tests/slow/quick.config" --fragment "$TOP/tests/slow/debug.config")
(cd "$src" && "$TOP/bisect" --runs 2 --results "${build_args[@]}" --good c0 --bad c7 "${cut_args[@]}" \
	-- --timeout 600 --share "$T/share") > "$T/out" 2>&1
rc=$?
grep -E '^bisect: (the bad|step)|^  (verdict|times):' "$T/out" | sed 's/^/# /'
expect_rc "./bisect --runs 2 --results c0..c7 finds the first bad commit" 0 $rc
[ $rc = 0 ] || tail -n 60 "$T/out" | sed 's/^/# /'
check "  it is c5, with git show --stat's summary" \
	bash -c "grep -A6 '^bisect: the first bad commit:' '$T/out' | grep -q '^    c5\$' &&
		grep -q 'fs/proc/version.c | ' '$T/out'"
check "  c6 was skipped: not built (make's status)" \
	grep -q "^  [0-9a-f]* c6: not built: make exited 2" "$T/out"
check "  c3 was reported flaky, 1 of 2 runs failed, and skipped" \
	grep -q "^  [0-9a-f]* c3: flaky: flaky, skipped (--flaky=skip): 1 of 2 runs failed (50%)" "$T/out"
decisive=$(sed -n '/^bisect: the decisive steps:/,/^$/p' "$T/out" | grep -cE '^  (good|bad) +[0-9a-f]')
check "  $decisive decisive steps, at most ceil(log2 7) = 3" test "$decisive" -ge 1 -a "$decisive" -le 3
check "  the bad commit's failure: proc/version, exit 1, on both runs" \
	grep -q "every run failed as the bad commit .*run 2: exit 1 (a test failed), failing proc/version as the bad commit" "$T/out"
# incremental: no step's build took as long as the cached one from scratch
full=$(sed -n 's/^[0-9a-f]* [^ ]* \([0-9]*\)s wall.*/\1/p' "$obj/.rapido-built")
slowest=$(sed -n 's/^  times: build \([0-9]*\)\.[0-9] s.*/\1/p' "$T/out" | sort -n | tail -n 1)
check "  incremental builds: the slowest step's ${slowest:-?} s, the full build's ${full:-?} s" \
	test "${slowest:-999999}" -lt "$(( ${full:-0} / 2 ))"
(cd "$src" && "$TOP/bisect" --reset) > "$T/reset" 2>&1
expect_rc "./bisect --reset" 0 $?

(cd "$src" && "$TOP/bisect" --compare --runs 1 "${build_args[@]}" c4 c5 "${cut_args[@]}" \
	-- --timeout 600 --share "$T/share") > "$T/out" 2>&1
expect_rc "./bisect --compare c4 c5: a difference held (exit 1)" 1 $?
grep '^bisect: \|^  [a-z/]*: A ' "$T/out" | sed 's/^/# /'
check "  proc/version, the one test that differs" \
	bash -c "[ \"\$(grep -c '^  [a-z/]*: A ' '$T/out')\" = 1 ] && grep -q '^  proc/version: A pass, B fail\$' '$T/out'"
echo "# wall time $(( $(date +%s) - start )) s"
done_testing
