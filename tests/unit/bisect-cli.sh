#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bisect-cli.sh: ./bisect's input checks, without a boot: usage errors
# exit 2; no KERNEL_SRC, not a git tree, an unknown REV, good not an
# ancestor of bad, a dirty tree, a build command that is not executable,
# a bisection already running: each refused with a clear error, before
# anything changed. A git bisect start that fails, and a bad commit that
# does not build, are undone: no git bisect left, the tree on its branch,
# no state directory. tests/boot/bisect.sh bisects with real boots.
. "$(dirname "$0")/../tap.sh"
bin=$TOP/bisect
if [ ! -x "$bin" ]; then
	echo "SKIP: $bin is not built (run make)"
	exit 77
fi
export RAPIDO_CONF=$T/rapido.conf VM_STATE_DIR=$T/state RAPIDO_RUN_DIR=$T/run
export CUT_CACHE_DIR=$T/cache DRACUT_OUT=$T/image
: > "$RAPIDO_CONF"
unset KERNEL_SRC KERNEL_INSTALL_MOD_PATH
TAP_ON_FAIL=show_run

src=$T/linux
git init -q -b main "$src" && git -C "$src" config user.email rapido@test &&
	git -C "$src" config user.name rapido || { echo "Bail out! git init failed"; exit 1; }
for i in 0 1 2; do
	echo "$i" > "$src/file" && git -C "$src" add file && git -C "$src" commit -q -m "c$i" &&
		git -C "$src" tag "c$i" || { echo "Bail out! git commit failed"; exit 1; }
done
git -C "$src" checkout -q -b side c0 && echo side > "$src/other" && git -C "$src" add other &&
	git -C "$src" commit -q -m side && git -C "$src" checkout -q main ||
	{ echo "Bail out! git branch failed"; exit 1; }
printf '#!/bin/sh\nexit 0\n' > "$T/build-ok"
chmod +x "$T/build-ok"
state=$src/.git/rapido-bisect

# untouched: git is not bisecting, the tree on main, no state
untouched() {
	[ ! -e "$src/.git/BISECT_START" ] && [ ! -e "$state" ] &&
		[ "$(git -C "$src" symbolic-ref --short HEAD)" = main ]
}
# refused DESCRIPTION STATUS TEXT COMMAND...: exit STATUS, TEXT on stderr, nothing changed
refused() {
	local d=$1 want=$2 text=$3
	shift 3
	run "$@"
	check "$d" eval '[ $rc -eq '"$want"' ] && grep -qF -- "$text" "$T/err" && untouched'
}

run "$bin" --help
check "--help: usage on stdout, exit 0" eval '[ $rc -eq 0 ] && grep -q "^Usage:" "$T/out" && [ ! -s "$T/err" ]'
check "--help documents exit 3" grep -q "^ 3  the bisection could not go on" "$T/out"
export KERNEL_SRC=$src
refused "no --good: exit 2" 2 "--good REV and --bad REV are both needed" "$bin" --bad c2 simple
refused "no PROFILE: exit 2" 2 "no PROFILE" "$bin" --good c0 --bad c2
# an empty path: a usage error naming the option, before anything is made
for o in -O --build-dir --state --build-cmd --fragment; do
	refused "$o '': exit 2, named" 2 "$o: an empty path" \
		"$bin" --build-cmd "$T/build-ok" --good c0 --bad c2 "$o" '' simple
done
refused "--flaky maybe: exit 2" 2 "--flaky 'maybe': expected fail, skip or pass" \
	"$bin" --flaky maybe --good c0 --bad c2 simple
# --flaky means what ./vm's does; the old words still work, said to be old
for w in bad:fail good:pass; do
	refused "--flaky ${w%:*} (an old word) is taken, with a warning" 2 \
		"bisect: --flaky=${w%:*} is deprecated: say --flaky=${w#*:}" \
		"$bin" --flaky "${w%:*}" --good c0 --bad c2
	check "  and taken: it went on to the missing PROFILE" grep -q "no PROFILE" "$T/err"
done
for w in fail skip pass; do
	refused "--flaky $w: taken without a warning" 2 "no PROFILE" "$bin" --flaky $w --good c0 --bad c2
	check "  no warning" eval '! grep -q deprecated "$T/err"'
done
run "$bin" --help
check "--help says --flaky's words, and that bad and good still work" \
	eval 'grep -q -- "--flaky=fail|skip|pass" "$T/out" && grep -q "bad and good, the old" "$T/out"'
refused "--runs 0: exit 2" 2 "--runs: expected a number from 1 to 1000, got '0'" \
	"$bin" --runs 0 --good c0 --bad c2 simple
refused "--continue with arguments: exit 2" 2 "--continue takes no REV" "$bin" --continue simple
refused "an unknown option: exit 2" 2 "Try 'bisect --help'" "$bin" --bogus
refused "--match with a bad regex: exit 2" 2 "--match '(': " "$bin" --match '(' --good c0 --bad c2 simple

KERNEL_SRC= refused "no KERNEL_SRC: exit 2" 2 "no KERNEL_SRC: set it to the kernel git tree" \
	"$bin" --good c0 --bad c2 simple
mkdir -p "$T/notgit"
KERNEL_SRC=$T/notgit refused "KERNEL_SRC not a git tree: exit 2" 2 "KERNEL_SRC=$T/notgit: not a git tree" \
	"$bin" --good c0 --bad c2 simple
refused "an unknown --good: exit 2" 2 "--good v9.9: no such commit in $src" \
	"$bin" --build-cmd "$T/build-ok" --good v9.9 --bad c2 simple
refused "an unknown --bad: exit 2" 2 "--bad nosuch: no such commit" \
	"$bin" --build-cmd "$T/build-ok" --good c0 --bad nosuch simple
refused "good not an ancestor of bad: exit 2" 2 "--good side is not an ancestor of --bad c2" \
	"$bin" --build-cmd "$T/build-ok" --good side --bad c2 simple
refused "good and bad the same commit: exit 2" 2 "are the same commit" \
	"$bin" --build-cmd "$T/build-ok" --good c2 --bad main simple
printf 'exit 0\n' > "$T/build-noexec"
refused "a build command that is not executable: exit 2" 2 "--build-cmd $T/build-noexec: not an executable file" \
	"$bin" --build-cmd "$T/build-noexec" --good c0 --bad c2 simple
refused "  nor one not in PATH" 2 "--build-cmd no-such-build: not an executable file in PATH" \
	"$bin" --build-cmd no-such-build --good c0 --bad c2 simple
echo dirty >> "$src/file"
refused "a dirty tree: exit 2" 2 "has uncommitted changes" \
	"$bin" --build-cmd "$T/build-ok" --good c0 --bad c2 simple
git -C "$src" checkout -q file
mkdir "$state" && touch "$state/rapido-bisect.state"
run "$bin" --build-cmd "$T/build-ok" --good c0 --bad c2 simple
check "a bisection in progress: exit 2, the way on named" \
	eval '[ $rc -eq 2 ] && grep -q "a bisection is in progress.*--continue resumes it, ./bisect --reset ends it" "$T/err"'
# issue 40, item 15: state files are read as regular files of a bounded size
mkfifo "$state/args"
run timeout 20 "$bin" --continue
check "--continue on a FIFO state file: exit 2, named, no hang" \
	eval '[ $rc -eq 2 ] && grep -qF "$state/args: not a regular file but a FIFO" "$T/err"'
rm "$state/args" && ln -s /dev/zero "$state/args"
run timeout 20 "$bin" --continue
check "  a link to /dev/zero: exit 2, named, not read" \
	eval '[ $rc -eq 2 ] && grep -qF "$state/args: not a regular file but a symbolic link" "$T/err"'
rm "$state/args" && truncate -s 17M "$state/args"
run timeout 20 "$bin" --continue
check "  one of 17 MiB: exit 2, the cap named" \
	eval '[ $rc -eq 2 ] && grep -qF "$state/args: larger than 16 MiB" "$T/err"'
rm -r "$state"
refused "--reset without a bisection: exit 2" 2 "no bisection here" "$bin" --reset
# issue 40: the usage-error status for both
refused "--continue without a bisection: exit 2" 2 "no bisection to continue here" "$bin" --continue

# issue 40, item 10: --reset and --continue touch only a directory ./bisect marked as its state
mkdir "$T/data" && echo precious > "$T/data/keep" && echo precious > "$T/plain"
for what in data plain; do
	kept=$T/$what && [ -d "$kept" ] && kept=$kept/keep
	refused "--reset --state naming $what: exit 2, refused by name" 2 \
		"$T/$what is not a ./bisect state directory" "$bin" --reset --state "$T/$what"
	check "  and left alone" grep -q precious "$kept"
	refused "--continue --state naming $what: exit 2" 2 \
		"$T/$what is not a ./bisect state directory" "$bin" --continue --state "$T/$what"
	refused "a start with --state naming $what: exit 2" 2 \
		"$T/$what is not a ./bisect state directory" \
		"$bin" --state "$T/$what" --build-cmd "$T/build-ok" --good c0 --bad c2 simple
	run "$bin" --compare --state "$T/$what" --build-cmd "$T/build-ok" c0 c2 simple
	check "--compare --state naming $what: exit 2, left alone" eval '[ $rc -eq 2 ] &&
		grep -qF "$T/$what is not a ./bisect state directory" "$T/err" && grep -q precious "$kept"'
done

# issue 40: KERNEL_SRC, the profile, the fragments and a kernel tree are checked
# before git bisect starts
KERNEL_SRC=$T/nosuch refused "a KERNEL_SRC that does not exist: exit 2" 2 "KERNEL_SRC=$T/nosuch" \
	"$bin" --build-cmd "$T/build-ok" --good c0 --bad c2 simple
mkdir "$src/sub"
KERNEL_SRC=$src/sub refused "a KERNEL_SRC inside another git tree: exit 2, refused by name" 2 \
	"KERNEL_SRC=$src/sub: not a git tree of its own, but a directory inside $src" \
	"$bin" --build-cmd "$T/build-ok" --good c0 --bad c2 simple
check "  nothing claimed git bisect started" eval '! grep -q "git bisect reset failed" "$T/err"'
rmdir "$src/sub"
refused "an unknown profile: exit 2, before git bisect starts" 2 "unknown profile 'nosuchprofile'" \
	"$bin" --build-cmd "$T/build-ok" --good c0 --bad c2 nosuchprofile
refused "a --fragment that does not exist: exit 2" 2 "--fragment $T/nofrag: No such file or directory" \
	"$bin" --build-cmd "$T/build-ok" --fragment "$T/nofrag" --good c0 --bad c2 simple
refused "without --build-cmd, a tree that is not a kernel's: exit 2" 2 \
	"has no Kconfig and Makefile at its top: not a kernel tree" "$bin" --good c0 --bad c2 simple

# git bisect start failing (a git that refuses it): undone by git bisect reset
mkdir -p "$T/fakegit"
cat > "$T/fakegit/git" <<EOF
#!/bin/bash
# the real git, but "bisect start" fails after it started
if [ "\$3" = bisect ] && [ "\$4" = start ]; then
	$(command -v git) "\$@"
	echo "fatal: refused for the test" >&2
	exit 1
fi
exec $(command -v git) "\$@"
EOF
chmod +x "$T/fakegit/git"
PATH=$T/fakegit:$PATH refused "git bisect start failing: exit 2, undone (git bisect reset, no state)" 2 \
	"git bisect start failed" "$bin" --build-cmd "$T/build-ok" --good c0 --bad c2 simple
check "  the fake git did start a bisection (so the reset undid something)" \
	grep -q "Bisecting:\|is the first bad commit" "$T/out"

# a link left in the state dir (here by git, as a build command could):
# the state files are written anew, never through it
mkdir -p "$T/planter"
echo precious > "$T/victim"
cat > "$T/planter/git" <<EOF
#!/bin/bash
if [ "\$3" = bisect ] && [ "\$4" = start ]; then
	ln -s "$T/victim" "$state/next"
fi
exec $(command -v git) "\$@"
EOF
chmod +x "$T/planter/git"
printf '#!/bin/sh\nexit 2\n' > "$T/build-fails"
chmod +x "$T/build-fails"
PATH=$T/planter:$PATH run "$bin" --build-cmd "$T/build-fails" --good c0 --bad c2 simple
check "a link at STATE/next: not written through" test "$(cat "$T/victim")" = precious

# the bad commit does not build: nothing to bisect against, undone
printf '#!/bin/sh\necho "error: the compiler broke"\nexit 2\n' > "$T/build-fails"
chmod +x "$T/build-fails"
refused "a bad commit that does not build: exit 3, undone" 3 \
	"the bad commit" "$bin" --build-cmd "$T/build-fails" --good c0 --bad c2 simple
check "  saying why, with the build's last line" \
	grep -qF "exited 2: error: the compiler broke" "$T/err"

# issue 40: the compiler's error is the reason, not make's last line, and the log is kept
cat > "$T/build-make" <<'EOF'
#!/bin/sh
echo "make: Entering directory '/src'"
echo "  CC      kernel/fork.o"
echo "kernel/fork.c:12:3: error: expected ';' before 'return'"
echo "kernel/fork.c:20:1: error: control reaches end of non-void function"
echo "make[2]: *** [scripts/Makefile.build:250: kernel/fork.o] Error 1"
echo "make: Leaving directory '/src'"
exit 2
EOF
chmod +x "$T/build-make"
refused "a bad commit whose build fails in the compiler: exit 3, undone" 3 \
	"exited 2: kernel/fork.c:12:3: error: expected ';' before 'return'" \
	"$bin" --build-cmd "$T/build-make" --good c0 --bad c2 simple
check "  its first error lines printed" \
	grep -qF "    kernel/fork.c:20:1: error: control reaches end of non-void function" "$T/err"
check "  and its build.log kept where it says" \
	eval 'log=$(sed -n "s/^bisect: the failed step.s logs are kept in //p" "$T/err") &&
		grep -q "Leaving directory" "$log/build.log"'
done_testing
