#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install.sh: make install DESTDIR=... PREFIX=/usr installs every program
# (ceph-local too; bisect in lib/rapido, with the kernel-config it runs)
# as rapido-NAME with its man page under that name (the page says
# rapido-cut), and no file that a Debian package owns on this
# system (dpkg -S of each installed path); an unprefixed system install
# (PROGRAM_PREFIX=) is refused, naming coreutils' cut, with nothing
# written. Then the installed rapido-cut and rapido-vm, run from another
# directory with no RAPIDO_DIR, find their profiles and helpers in
# PREFIX/lib/rapido, read rapido.conf from $XDG_CONFIG_HOME, write the
# image to $XDG_CACHE_HOME (nothing in the prefix), and boot simple.
. "$(dirname "$0")/lib.sh"

unset RAPIDO_DIR RAPIDO_CONF DRACUT_OUT
export HOME=$T/home XDG_CONFIG_HOME=$T/config XDG_CACHE_HOME=$T/cache
mkdir -p "$HOME" "$XDG_CONFIG_HOME/rapido"
# a key whose effect is visible: the console log lands there
echo "VM_LOG_DIR=$T/logs" > "$XDG_CONFIG_HOME/rapido/rapido.conf"

R=$T/root
make -C "$TOP" --no-print-directory -s install DESTDIR="$R" PREFIX=/usr > "$T/install.log" 2>&1
expect_rc "make install DESTDIR PREFIX=/usr" 0 $?
[ $fails = 0 ] || sed 's/^/#   /' "$T/install.log"
for f in usr/bin/rapido-cut usr/bin/rapido-vm usr/bin/rapido-vmctl usr/bin/rapido-netsetup \
	usr/bin/rapido-ceph-local usr/bin/rapido usr/share/man/man1/rapido.1 \
	usr/lib/rapido/autorun/simple.sh usr/lib/rapido/autorun/lib/rapido.sh \
	usr/lib/rapido/dracut.conf.d/00-rapido.conf usr/lib/rapido/dracut.conf.d/10-no-pkgconfig.conf \
	usr/lib/rapido/build/guest/rapido-init usr/lib/rapido/build/rapido-ldd \
	usr/share/man/man1/rapido-cut.1 usr/share/man/man1/rapido-vm.1 \
	usr/share/man/man1/rapido-vmctl.1 usr/share/man/man5/rapido.conf.5 \
	usr/share/man/man8/rapido-netsetup.8 usr/share/man/man8/rapido-ceph-local.8 \
	usr/share/bash-completion/completions/rapido-cut \
	usr/share/bash-completion/completions/rapido-vmctl \
	usr/lib/rapido/bisect usr/share/man/man1/rapido-bisect.1 \
	usr/lib/rapido/host/kernel-config usr/lib/rapido/kernel/base.config; do
	check "installed $f" test -s "$R/$f"
done
# every page is named, titled and introduced as its installed program
. "$TOP/tests/man.inc"
for pg in "$R"/usr/share/man/man*/rapido-*.[18]; do
	p=$(basename "$pg"); p=${p%.*}
	check "man page $(basename "$pg"): titled and named $p" page_named "$pg" "$p"
	check "  no bare ${p#rapido-} as a command in it" eval '! bare_in "$pg" "${p#rapido-}"'
done
if command -v man > /dev/null; then
	MANPATH=$R/usr/share/man man -w rapido-cut > "$T/manw" 2>&1
	check "man rapido-cut finds the installed page" grep -qx "$R/usr/share/man/man1/rapido-cut.1" "$T/manw"
fi
# no installed file is one a package of this system owns
if command -v dpkg-query > /dev/null; then
	owned=
	while IFS= read -r f; do
		s=${f#"$R"}
		for a in "$s" "$s.gz" "${s#/usr}"; do
			o=$(dpkg-query -S "$a" 2> /dev/null | awk -F': ' -v f="$a" '$2 == f { print $1; exit }')
			[ -z "$o" ] || owned="$owned $a($o)"
		done
	done < <(find "$R" -path "$R/usr/lib/rapido" -prune -o ! -type d -print)
	check "no installed file belongs to a Debian package (dpkg -S)${owned:+:$owned}" test -z "$owned"
else
	skip "no installed file belongs to a Debian package" "no dpkg-query"
fi
# unprefixed into /usr: refused, naming the package, nothing installed
R2=$T/root2
make -C "$TOP" --no-print-directory -s install DESTDIR="$R2" PREFIX=/usr PROGRAM_PREFIX= \
	> "$T/install2.log" 2>&1
r=$?
check "make install PROGRAM_PREFIX= PREFIX=/usr is refused (exit $r)" test $r != 0
check "  naming /usr/bin/cut and coreutils" \
	grep -q '/usr/bin/cut: .* belongs to the package coreutils' "$T/install2.log"
check "  naming cut.1 (coreutils' cut.1.gz)" grep -q 'man1/cut.1: .*cut.1.gz belongs to the package coreutils' "$T/install2.log"
check "  and writes nothing" test ! -e "$R2"
touch "$T/installed"

cd "$T/home" || exit 1
"$R/usr/bin/rapido-cut" --list > "$T/list" 2>&1
expect_rc "installed cut --list" 0 $?
check "cut --list shows the installed profiles" grep -q '^simple' "$T/list"
# a missing program: its package, and rapido deps (no host/ here) to install it
RAPIDO_PROFILE_PATH=$TOP/tests/fixtures/profiles "$R/usr/bin/rapido-cut" missing-package \
	> "$T/missing" 2>&1
check "installed cut: a missing program's package, and rapido deps --install PROFILE" \
	grep -qF "Debian package rapido-fixture-pkg: apt-get install rapido-fixture-pkg, or rapido deps --install missing-package)" "$T/missing"

if command -v strace > /dev/null; then
	# (LeakSanitizer cannot run under ptrace)
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq --seccomp-bpf -e trace=execve -o "$T/cut.trace" \
		"$R/usr/bin/rapido-cut" simple > "$T/cut.out" 2>&1
	expect_rc "installed cut simple" 0 $?
	check "  dracut ran the installed rapido-ldd" \
		grep -q "execve(\"$R/usr/lib/rapido/build/rapido-ldd\"" "$T/cut.trace"
else
	"$R/usr/bin/rapido-cut" simple > "$T/cut.out" 2>&1
	expect_rc "installed cut simple" 0 $?
fi
img=$XDG_CACHE_HOME/rapido/initrds/myinitrd
check "image written to \$XDG_CACHE_HOME/rapido/initrds/myinitrd" test -s "$img"
rel=$(sed -n 's/.*kernel \(.*\)$/\1/p' "$T/cut.out")

"$R/usr/bin/rapido-vm" --batch --timeout 300 > "$T/console" 2>&1
expect_rc "installed vm --batch boots that image" 0 $?
check "profile ran: kernel release and hostname rapido1" \
	guest_says "$T/console" "rapido: $rel up on rapido1"
check "rapido.conf of \$XDG_CONFIG_HOME read (VM_LOG_DIR)" \
	grep -q "rapido: $rel up on rapido1" "$T/logs/vm1.log"
check "kernel console clean" console_clean "$T/console"
check "nothing written in the installed prefix" test -z "$(find "$R" -newer "$T/installed")"
done_testing
