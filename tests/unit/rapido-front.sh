#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rapido-front.sh: the one command. rapido COMMAND runs the program of
# that name (its --help is the program's own), as does a link named
# COMMAND or rapido-COMMAND; rapido list is cut --list; rapido bisect runs
# RAPIDO_DIR/bisect when there and names it when not; an unknown command
# or none is an error; rapido results merge|compare|known are ./vm
# --merge-results, --compare-results and its known-failure options without a
# boot. --version of every program and command: the build's
# git describe, then the dracut and qemu that DRACUT and QEMU_BIN name.
# make install-rapido installs rapido(1), rapido-cut(1), ... each named as
# its page and saying "rapido cut" for the command, and rapido.conf(5).
. "$(dirname "$0")/../tap.sh"
. "$TOP/tests/man.inc"
R=$TOP/rapido
# out_has LINE: the last run printed LINE
out_has() { grep -qxF -- "$1" "$T/out"; }
for p in rapido cut vm vmctl netsetup ceph-local; do
	if [ ! -x "$TOP/$p" ]; then
		echo "SKIP: $TOP/$p is not built (run make)"
		exit 77
	fi
done
export RAPIDO_CONF=$T/rapido.conf VM_STATE_DIR=$T/state RAPIDO_RUN_DIR=$T/run HOME=$T/home
unset XDG_CONFIG_HOME RAPIDO_PROFILE_PATH RAPIDO_DIR
: > "$RAPIDO_CONF"
mkdir -p "$HOME" && mkdir -p -m 0700 "$VM_STATE_DIR"

run "$R"
check "rapido alone: exit 1" exits 1
check "  the usage on stderr" contains "$T/err" " rapido COMMAND [ARGS]"
run "$R" --help
check "rapido --help: exit 0" exits 0
cmds=$(sed -n '/^Commands:$/,/^$/s/^ \([a-z][a-z-]*\) .*/\1/p' "$T/out" | tr '\n' ' ')
check "  lists the commands (got: $cmds)" test "$cmds" = "run cut boot vm vmctl results list deps netsetup ceph-local bisect "
for p in cut vm vmctl netsetup ceph-local; do
	"$TOP/$p" --help > "$T/want" 2>&1
	"$R" "$p" --help > "$T/got" 2>&1
	check "rapido $p --help is $p --help" same_file "$T/want" "$T/got"
	ln -s "$R" "$T/rapido-$p"
	"$T/rapido-$p" --help > "$T/got" 2>&1
	check "  and a link named rapido-$p runs $p" same_file "$T/want" "$T/got"
done
ln -s "$R" "$T/cut"
"$T/cut" --help > "$T/got" 2>&1
"$TOP/cut" --help > "$T/want" 2>&1
check "a link named cut runs cut" same_file "$T/want" "$T/got"
"$R" help vm > "$T/got" 2>&1
"$TOP/vm" --help > "$T/want" 2>&1
check "rapido help vm is vm --help" same_file "$T/want" "$T/got"
"$TOP/cut" --list > "$T/want" 2>&1
"$R" list > "$T/got" 2>&1
check "rapido list is cut --list" same_file "$T/want" "$T/got"
check "  which lists simple" grep -q '^simple ' "$T/got"
run "$R" frobnicate
check "rapido frobnicate: exit 1" exits 1
check "  unknown command named" contains "$T/err" "unknown command 'frobnicate'"
run "$R" --verbose cut
check "an option before the command: exit 1" exits 1
# rapido run whose cut fails: cut's status, no crash (a double free
# aborted it, 134), and no boot
run "$R" run nosuch_profile_here
check "rapido run of an unknown profile: cut's exit 1" exits 1
check "  cut says why" contains "$T/err" "nosuch_profile_here"

# rapido results merge|compare|known: the verdict verbs, and ./vm's
# --merge-results and --compare-results their aliases: the same output and
# exit status (1 for a failed run or a regression), the same files written
# mkres DIR LINE...: DIR/results.txt holding the record lines
mkres() { local d=$1; shift; mkdir -p "$d"; printf '%s\n' "$@" > "$d/results.txt"; }
mkres "$T/ra" "R1 meta suite p" "R1 pass t1 1 -" "R1 pass t2 1 -" "R1 meta exit 0"
mkres "$T/rb" "R1 meta suite p" "R1 pass t1 1 -" "R1 fail t2 1 broken -" "R1 meta tests-only 1" \
	"R1 meta exit 1"
run "$R" results --help
check "rapido results --help: exit 0" exits 0
verbs=$(sed -n '/^Verbs:$/,/^$/s/^ \([a-z][a-z]*\) .*/\1/p' "$T/out" | tr '\n' ' ')
check "  lists its verbs (got: $verbs)" test "$verbs" = "merge compare known "
"$R" results merge --help > "$T/got" 2>&1
check "rapido results merge --help is rapido results --help" same_file "$T/out" "$T/got"
run "$R" results
check "rapido results alone: exit 125" exits 125
check "  a verb is needed" contains "$T/err" "a verb is needed"
run "$R" results frob
check "rapido results frob: exit 125" exits 125
check "  unknown verb named" contains "$T/err" "unknown verb 'frob'"
run "$R" results compare "$T/ra"
check "rapido results compare A: exit 125" exits 125
check "  its usage" contains "$T/err" "Usage: rapido results compare A B"
run "$TOP/vm" --help
check "vm --help: --merge-results an alias" contains "$T/out" "alias of rapido results merge (kept for a"
check "  --compare-results too" contains "$T/out" "alias of rapido results compare (kept for a while)"
# same_run NAME RC CMD...: CMD exits RC and prints what the last run printed
same_run() {
	local name=$1 rc=$2
	shift 2
	cp "$T/out" "$T/want"
	"$@" > "$T/got" 2> "$T/got.err"
	expect_rc "$name" "$rc" $?
	check "  the same output" same_file "$T/want" "$T/got"
}
for pair in "ra rb 1" "rb ra 0" "ra ra 0"; do
	read -r a b rc <<< "$pair"
	run "$TOP/vm" --compare-results "$T/$a" "$T/$b"
	check "vm --compare-results $a $b: exit $rc" exits "$rc"
	same_run "rapido results compare $a $b: exit $rc" "$rc" "$R" results compare "$T/$a" "$T/$b"
done
run "$TOP/vm" --merge-results "$T/m1" "$T/ra" "$T/rb"
check "vm --merge-results of a failed run: exit 1" exits 1
same_run "rapido results merge: exit 1" 1 "$R" results merge "$T/m2" "$T/ra" "$T/rb"
for f in summary.txt results.tap junit.xml; do
	check "  the same $f" same_file "$T/m1/$f" "$T/m2/$f"
done
printf 't2 # tracked\n' > "$T/known"
printf '# mine\n' > "$T/k1"
cp "$T/k1" "$T/k2"
run "$TOP/vm" --merge-results --known-failures "$T/known" --write-known-failures "$T/k1" "$T/m1" "$T/rb"
check "vm --merge-results with t2 known: exit 0" exits 0
same_run "rapido results known with t2 known: exit 0" 0 \
	"$R" results known --known-failures "$T/known" --write-known-failures "$T/k2" "$T/rb"
check "  the same known-failures file written" same_file "$T/k1" "$T/k2"
check "  and no OUT: nothing merged into a dir" test ! -e "$T/rb/summary.txt"
run "$TOP/vm" --merge-results --write-known-failures "$T/k1" "$T/m1" "$T/rb"
check "vm --merge-results, nothing known: exit 1" exits 1
same_run "rapido results known, nothing known: exit 1" 1 \
	"$R" results known --write-known-failures "$T/k2" "$T/rb"
check "  the same known-failures file written" same_file "$T/k1" "$T/k2"
check "  which names t2" grep -q '^t2' "$T/k2"
run "$R" results known --rerun-failures 1 "$T/rb"
check "rapido results known --rerun-failures: exit 125" exits 125
check "  a run's option" contains "$T/err" "known: --rerun-failures is a run's option"

# the user's profiles: RAPIDO_PROFILE_PATH's directories, then
# ~/.config/rapido/profiles, then the shipped ones; the first of a name wins
mkdir -p "$T/p1" "$T/p2" "$HOME/.config/rapido/profiles"
printf '#@ description: p1 simple\n#@ kconfig: CONFIG_P1\n' > "$T/p1/simple.sh"
printf '#@ description: p2 only\n' > "$T/p2/only2.sh"
printf '#@ description: p2 simple\n' > "$T/p2/simple.sh"
printf '#@ description: home one\n#@ kconfig: CONFIG_HOME\n' > "$HOME/.config/rapido/profiles/homeone.sh"
RAPIDO_PROFILE_PATH=$T/p1:$T/p2:$T/none run "$R" list
check "rapido list with RAPIDO_PROFILE_PATH (a missing dir in it too): exit 0" exits 0
check "  the first directory's simple, with where it is" out_has "simple           p1 simple ($T/p1)"
check "  p2's own profile" out_has "only2            p2 only ($T/p2)"
check "  ~/.config/rapido/profiles' profile" out_has "homeone          home one ($HOME/.config/rapido/profiles)"
check "  each name once" test "$(grep -c '^simple ' "$T/out")" = 1
# issue 40: a helper the profiles source, without '#@ description:', is no error
printf '#!/bin/bash\nhelper_fn() { :; }\n' > "$T/p2/helper.sh"
RAPIDO_PROFILE_PATH=$T/p1:$T/p2 run "$R" list
check "rapido list with a helper .sh beside the profiles: exit 0" exits 0
check "  the helper named as no profile" \
	out_has "helper           (not a profile: no '#@ description:' in $T/p2/helper.sh)"
check "  the profiles still listed" out_has "only2            p2 only ($T/p2)"
rm "$T/p2/helper.sh"
# shipped NAME: the last run listed NAME without a directory (autorun's)
shipped() { grep "^$1 " "$T/out" | grep -qvE '\(/[^()]*\)$'; }
check "  the shipped ones still (afalg), without a directory" shipped afalg
RAPIDO_PROFILE_PATH=$T/p1 run "$R" cut --kconfig simple
check "cut --kconfig simple reads RAPIDO_PROFILE_PATH's simple" out_has "CONFIG_P1=y"
run "$R" cut --kconfig homeone
check "cut --kconfig homeone reads ~/.config/rapido/profiles'" out_has "CONFIG_HOME=y"
rm -r "$HOME/.config/rapido/profiles"

# bisect: a program of its own, run from the rapido directory
mkdir -p "$T/rd"
ln -s "$TOP/autorun" "$T/rd/autorun"
RAPIDO_DIR=$T/rd run "$R" bisect good
check "rapido bisect without it: exit 1" exits 1
check "  names where it looked" contains "$T/err" "bisect is not installed in this rapido ($T/rd/bisect)"
printf '#!/bin/sh\necho "bisect $# $*"\nexit 7\n' > "$T/rd/bisect"
chmod +x "$T/rd/bisect"
RAPIDO_DIR=$T/rd run "$R" bisect good 'a b'
check "rapido bisect ARGS runs RAPIDO_DIR/bisect ARGS (its status)" exits 7
check "  with its arguments" out_is "bisect 2 good a b"

# --version: ours, then the dracut and qemu found
ver=$(cat "$TOP/build/version")
printf '#!/bin/sh\necho "dracut 059-9"\nexit 1\n' > "$T/dracut"
printf '#!/bin/sh\necho "QEMU emulator version 9.8.7 (test)"\necho "Copyright"\n' > "$T/qemu"
chmod +x "$T/dracut" "$T/qemu"
for p in cut vm vmctl netsetup ceph-local rapido "rapido cut" "rapido vm"; do
	read -r -a argv <<< "$p"
	DRACUT=$T/dracut QEMU_BIN=$T/qemu run "$TOP/${argv[0]}" "${argv[@]:1}" --version
	check "$p --version: exit 0" exits 0
	check "  $p (rapido) $ver, dracut's and qemu's version and path" out_is \
		"${argv[-1]} (rapido) $ver
dracut 059-9 ($T/dracut)
qemu 9.8.7 (test) ($T/qemu)"
done
DRACUT=no-such-dracut QEMU_BIN=$T/qemu run "$R" --version
check "a dracut not found: said, exit 0" exits 0
check "  dracut: not found (DRACUT=no-such-dracut)" contains "$T/out" "dracut: not found (DRACUT=no-such-dracut)"
echo "QEMU_BIN=$T/qemu" > "$RAPIDO_CONF"
DRACUT=$T/dracut run "$R" --version
check "QEMU_BIN of rapido.conf is read" contains "$T/out" "qemu 9.8.7 (test) ($T/qemu)"
: > "$RAPIDO_CONF"

# the pages of the one-command layout
if ! command -v "${HELP2MAN:-help2man}" > /dev/null; then
	skip "make install-rapido's man pages" "help2man is not installed"
	done_testing
fi
make -C "$TOP" --no-print-directory -s install-rapido DESTDIR="$T/root" PREFIX=/usr > "$T/install.log" 2>&1
expect_rc "make install-rapido DESTDIR PREFIX=/usr" 0 $?
[ $fails = 0 ] || sed 's/^/#   /' "$T/install.log"
M=$T/root/usr/share/man
# page_cmd PAGE NAME: NAME stands in PAGE as a command (.B NAME, a line
# starting "NAME ", \fBNAME\fR), not as the page's name (its NAME line,
# a reference \fBNAME\fR(1))
page_cmd() {
	sed '/^\.SH NAME/{n;d}' "$1" | grep -qE "^\.B $2( |\$)|^$2 |\\\\fB$2\\\\fR[^(]"
}
for f in usr/bin/rapido usr/lib/rapido/autorun/simple.sh usr/lib/rapido/build/guest/rapido-init \
	usr/lib/rapido/dracut.conf.d/00-rapido.conf usr/share/bash-completion/completions/rapido \
	usr/share/zsh/vendor-completions/_rapido; do
	check "installed $f" test -s "$T/root/$f"
done
# the init's program once: ./cut writes links for the names that are links
for f in rapido-ktap rapido-exec; do
	check "installed build/guest/$f: a link to rapido-init" \
		test "$(readlink "$T/root/usr/lib/rapido/build/guest/$f")" = rapido-init
done
check "  and no other program in usr/bin" test "$(ls "$T/root/usr/bin")" = rapido
# the pointers in errors name the commands of the layout in use: ./cut in a
# checkout, rapido cut once installed (there is no cut on PATH)
run "$TOP/cut" nosuchprofile
check "checkout, unknown profile: './cut --list shows the profiles'" contains "$T/err" "(./cut --list shows the profiles)"
run "$TOP/vm" --batch "$T/no-image"
check "checkout, no image: 'run ./cut PROFILE first'" contains "$T/err" "(run ./cut PROFILE first)"
run "$T/root/usr/bin/rapido" cut nosuchprofile
check "installed, unknown profile: 'rapido cut --list shows the profiles'" contains "$T/err" "(rapido cut --list shows the profiles)"
run "$T/root/usr/bin/rapido" vm --batch "$T/no-image"
check "installed, no image: 'run rapido cut PROFILE first'" contains "$T/err" "(run rapido cut PROFILE first)"
for pg in man1/rapido.1 man1/rapido-cut.1 man1/rapido-vm.1 man1/rapido-vmctl.1 \
	man8/rapido-netsetup.8 man8/rapido-ceph-local.8 man5/rapido.conf.5; do
	p=$(basename "$pg"); p=${p%.[158]}
	[ "$p" = rapido.conf ] && continue
	check "man $pg: titled and named $p" page_named "$M/$pg" "$p"
	[ "$p" = rapido ] && continue
	check "  the command is rapido ${p#rapido-}" grep -qE "^\\.B rapido ${p#rapido-}( |\$)" "$M/$pg"
	check "  never bare ${p#rapido-} as a command" eval '! bare_in "$M/$pg" "${p#rapido-}"'
	check "  nor $p" eval '! page_cmd "$M/$pg" "$p"'
done
# a usage error's hint names the command as it was typed: "vm --help" is
# no command in a checkout (./vm) nor installed (rapido vm)
for c in "./vm" "./cut" "./vmctl" "./run" "rapido vm" "rapido boot" "rapido cut" "rapido run"; do
	(cd "$TOP" && PATH=$TOP:$PATH && eval "$c --no-such-option") > "$T/out" 2> "$T/err"
	check "$c --no-such-option: the hint says '$c --help'" contains "$T/err" "Try '$c --help' for more information."
done
(cd "$TOP" && ./cut simple extra) > "$T/out" 2> "$T/err"
check "./cut with two profiles: the hint says './cut --help'" contains "$T/err" "Try './cut --help' for more information."
check "man5/rapido.conf.5 installed" test -s "$M/man5/rapido.conf.5"
check "rapido-cut.1 refers to rapido-vm(1)" grep -qF '\fBrapido-vm\fR(1)' "$M/man1/rapido-cut.1"
if command -v man > /dev/null; then
	MANPATH=$M man rapido-cut > "$T/man.txt" 2> "$T/man.err"
	expect_rc "man rapido-cut renders" 0 $?
	check "  its synopsis says rapido cut" grep -qE '^ +rapido cut \[options\] PROFILE' "$T/man.txt"
fi
done_testing
