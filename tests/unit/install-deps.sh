#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install-deps.sh: host/install-deps' package resolution against a fake
# apt-cache and dpkg-query answering as Debian 12 (bookworm) and 13
# (trixie) would: the lean, --tests, --all and PROFILE sets, per-release
# names (clang's runtime, linux-source-X.Y of the kernel), the failure that
# names the release and the package before anything is installed, and a
# host without apt listing the missing commands; the README lists the lean
# set as it is. Profile names as ./cut takes them (upstream Rapido's, a
# user's, the nearest for a wrong one); rapido deps, from a checkout and
# installed; every profile's programs have their package named.
# Minutes of work: over the unit tier's 300 s on a loaded 2-core machine
# (the Debian 13 chroot under CI load), so:
# tests/run timeout: 900s
. "$(dirname "$0")/../tap.sh"
# the selection install-deps makes depends on ARCHES and SYSROOT too: `make
# check ARCHES=arm64` (.ci/run) exports them to the tests; each case here
# says what it sets
unset ARCHES SYSROOT

# fake_release NAME VERSION KERNEL-IN-BOOT PACKAGE...: a root (os-release,
# boot/) and the names its apt knows, in $T/NAME
fake_release() {
	local d=$T/$1
	mkdir -p "$d/root/etc" "$d/root/boot" "$d/root/lib/modules"
	printf 'PRETTY_NAME="Debian GNU/Linux %s (%s)"\nVERSION_CODENAME=%s\n' "$2" "$1" "$1" \
		> "$d/root/etc/os-release"
	if [ "$3" != - ]; then
		: > "$d/root/boot/vmlinuz-$3"
		mkdir -p "$d/root/lib/modules/$3"
	fi
	shift 3
	printf '%s\n' "$@" > "$d/available"
}
# the stubs: apt-cache policy answers from $FAKE/available (linux-image-amd64
# at $FAKE_KVER), dpkg-query finds nothing installed, apt-get only logs
mkdir -p "$T/bin"
cat > "$T/bin/apt-cache" <<'EOS'
#!/bin/bash
[ "$1" = policy ] || exit 100
shift
for n; do
	grep -qx "$n" "$FAKE/available" || continue
	v=1.0
	[ "$n" = linux-image-amd64 ] && v=$FAKE_KVER
	printf '%s:\n  Installed: (none)\n  Candidate: %s\n  Version table:\n' "$n" "$v"
done
EOS
printf '#!/bin/sh\nexit 1\n' > "$T/bin/dpkg-query"
printf '#!/bin/sh\necho "apt-get $*" >> "$FAKE/apt-get.log"\n' > "$T/bin/apt-get"
chmod +x "$T"/bin/*

# every name of the table, as each release spells the per-release ones,
# and of the profiles' own #@ packages: BIN=PACKAGE
names=$( (awk '!/^#/ && NF == 3 { print $2 }' "$TOP/autorun/packages"
	sed -n 's/^#@ packages://p' "$TOP"/autorun/*.sh "$TOP"/autorun/include/*.inc | tr ' ' '\n' |
		sed -n 's/^[^=]*=//p') | tr '|' '\n' | sort -u |
	grep -v -x -e linux-source -e 'libclang-rt-.*')
fake_release bookworm 12 6.1.0-28-amd64 $names libclang-rt-14-dev linux-source-6.1
fake_release trixie 13 - $names libclang-rt-dev linux-source-6.12 linux-image-amd64

deps() {	# deps RELEASE ARGS...
	local r=$1
	shift
	FAKE=$T/$r FAKE_KVER=6.12.117-1 INSTALL_DEPS_ROOT=$T/$r/root PATH=$T/bin:$PATH \
		run "$TOP/host/install-deps" "$@"
}
has() { grep -qx "$1" "$T/out"; }
lean="gcc make libc6-dev libjansson-dev liblzma-dev libzstd-dev zlib1g-dev cpio kmod dracut-core busybox-static bash-static qemu-system-x86 xz-utils zstd"

for r in bookworm trixie; do
	deps $r --list
	check "$r: no argument: the lean set" out_is "$(printf '%s\n' $lean $([ $r = trixie ] && echo linux-image-amd64))"
	check "$r:   never a server" eval '! grep -q -e samba -e nfs -e ceph -e multipath "$T/out"'
	deps $r --list --tests
	check "$r: --tests: exit 0" exits 0 || show_run
	check "$r:   the lean set, git, strace and zstd" eval '(for p in $lean git strace zstd; do has $p || exit 1; done)'
	check "$r:   every profile's (samba, nfs-kernel-server, fio)" eval 'has samba && has nfs-kernel-server && has fio'
	check "$r:   gdb and readelf's binutils (debug.sh, pvh.sh)" eval 'has gdb && has binutils'
	check "$r:   blktests' blktrace (only in its profile's #@ packages)" has blktrace
	check "$r:   not --all's qemu-system-arm, nor ksmbd-tools (Conflicts: samba)" \
		eval '! has qemu-system-arm && ! has ksmbd-tools'
	deps $r --list --all
	check "$r: --all: arm64's qemu-system-arm too, not ksmbd-tools" eval 'has qemu-system-arm && ! has ksmbd-tools'
	deps $r --list fstests_local
	# every configuration's: FSTESTS_SRC's, and each FSTESTS_FS's mkfs and
	# fsck (bins-if FSTESTS_FS=f2fs ...)
	check "$r: fstests_local: the lean set and its programs' mount, awk, bc, xfsprogs, fio, f2fs-tools..." \
		out_is "$(printf '%s\n' $lean mount f2fs-tools exfatprogs udftools ntfs-3g mawk bc xfsprogs fio \
			$([ $r = trixie ] && echo linux-image-amd64))"
	deps $r --list ksmbd_local
	check "$r: ksmbd_local: ksmbd-tools (its include's #@ packages)" has ksmbd-tools
	# no rapido.conf here: a suite profile's programs whatever LTP_SRC says
	deps $r --list ltp
	check "$r: ltp: what LTP's tests run (mkfs of each file system, useradd, quotacheck, parted)" \
		eval '(for p in e2fsprogs xfsprogs btrfs-progs dosfstools passwd quota parted; do has $p || exit 1; done)'
	deps $r --list nosuchprofile
	check "$r: an unknown profile: exit 1, nothing listed" eval '[ $rc = 1 ] && [ ! -s "$T/out" ]'
	check "  named" contains "$T/err" "unknown profile 'nosuchprofile'"
done
deps bookworm --list
check "the README lists the lean set as it is: \`$(echo $(cat "$T/out"))\`" \
	grep -qF "\`$(echo $(cat "$T/out"))\`" "$TOP/README.md"
deps bookworm --list --tests
check "bookworm: clang's runtime: libclang-rt-14-dev, its name there" has libclang-rt-14-dev
check "bookworm: the installed kernel's source: linux-source-6.1" has linux-source-6.1
deps trixie --list --tests
check "trixie: clang's runtime: libclang-rt-dev" has libclang-rt-dev
check "trixie: no kernel: linux-image-amd64 and its source, linux-source-6.12" \
	eval 'has linux-image-amd64 && has linux-source-6.12 && ! has linux-source-6.1'

# a user's PATH (Debian's has no sbin): a program there (blkzone, util-linux's,
# Essential) is found where ./cut finds it, not taken for an unknown one
PATH=/usr/local/bin:/usr/bin:/bin deps bookworm --list fstests_local
check "a PATH without sbin: fstests_local's blkzone found in /usr/sbin (exit 0)" exits 0

# a name the release does not have: fails naming both, installs nothing
grep -v -x -e zstd -e git "$T/trixie/available" > "$T/avail" && mv "$T/avail" "$T/trixie/available"
rm -f "$T/trixie/apt-get.log"
deps trixie --tests
check "trixie without zstd and git: --tests fails" exits 1
check "  naming the release and each package" eval 'grep -qx "install-deps: Debian GNU/Linux 13 (trixie): apt knows no package" "$T/err" &&
	grep -qx "  zstd (for zstd)" "$T/err" && grep -qx "  git (for git)" "$T/err"'
check "  before apt-get ran at all" test ! -e "$T/trixie/apt-get.log"
deps trixie --check
check "  --check too" exits 1

# the .deb: Depends the lean set an installed rapido runs, no compiler, no server
run "$TOP/host/install-deps" --deb-depends
check "--deb-depends: the lean set but the build's" out_is "$(printf '%s\n' cpio kmod dracut-core busybox-static bash-static qemu-system-x86 xz-utils zstd)"
run "$TOP/host/install-deps" --deb-suggests
check "--deb-suggests: the servers (samba), ksmbd-tools, arm64's qemu" eval 'has samba && has ksmbd-tools && has qemu-system-arm && ! has gcc-aarch64-linux-gnu'
check "  not what every Debian root has (mount, mawk, libc6: dpkg-gencontrol drops those)" \
	eval '! grep -q -e "^mount\$" -e mawk -e "^libc6\$" "$T/out"'

# Rapido's profile names, as ./cut takes them (./cut --locate: no second
# copy of src/conf/profalias.c's table): upstream Rapido's, a user's own
# profile (RAPIDO_PROFILE_PATH, its includes beside it), the nearest name
# for a wrong one
export HOME=$T/home
unset XDG_CONFIG_HOME RAPIDO_PROFILE_PATH RAPIDO_DIR
if [ -x "$TOP/cut" ] && [ -x "$TOP/rapido" ]; then
	deps bookworm --list fstests_local
	cp "$T/out" "$T/fstests_local.list"
	deps bookworm --list fstests_xfs
	check "fstests_xfs (upstream Rapido's name): fstests_local's packages" same_file "$T/fstests_local.list" "$T/out"
	deps bookworm --list fstest_local
	check "fstest_local: exit 1, nothing listed" eval '[ $rc = 1 ] && [ ! -s "$T/out" ]'
	check "  did you mean fstests_local?" contains "$T/err" "unknown profile 'fstest_local' (did you mean fstests_local?)"
	mkdir -p "$T/profiles/include"
	printf '#@ description: mine\n#@ include: mine\n' > "$T/profiles/mine.sh"
	printf '#@ bins: mkfs.btrfs\n' > "$T/profiles/include/mine.inc"
	export RAPIDO_PROFILE_PATH=$T/profiles
	deps bookworm --list mine
	unset RAPIDO_PROFILE_PATH
	check "a profile of RAPIDO_PROFILE_PATH: its include's btrfs-progs" has btrfs-progs

	# rapido deps: install-deps itself (the same output), run with this
	# rapido; --install and --check are its modes
	deps bookworm --list --tests fstests_xfs
	cp "$T/out" "$T/want"
	deps bookworm --list --tests fstests_local
	FAKE=$T/bookworm FAKE_KVER=6.12.117-1 INSTALL_DEPS_ROOT=$T/bookworm/root PATH=$T/bin:$PATH \
		run "$TOP/rapido" deps --tests fstests_xfs
	check "rapido deps --tests fstests_xfs: exit 0" exits 0
	check "  install-deps --list's packages" same_file "$T/want" "$T/out"
	check "  those not installed, on stderr" contains "$T/err" "rapido deps: not installed: gcc make"
	check "  and how to install them" contains "$T/err" "rapido deps: install them, no service started: rapido deps --install --tests fstests_xfs"
	check "  or with apt-get alone" contains "$T/err" "rapido deps: (or: apt-get install --no-install-recommends gcc make"
	run "$TOP/rapido" deps fstest_xfs
	check "rapido deps fstest_xfs: exit 1" exits 1
	check "  did you mean fstests_xfs?" contains "$T/err" "(did you mean fstests_xfs?)"
	run "$TOP/rapido" deps --frob
	check "rapido deps --frob: exit 1, named" eval '[ $rc = 1 ] && grep -qF "unknown option '"'"'--frob'"'"'" "$T/err"'
	run "$TOP/rapido" deps --help
	check "rapido deps --help: exit 0, its usage" eval '[ $rc = 0 ] && grep -q "^ rapido deps \[--install|--check\]" "$T/out"'
	# the modes, as install-deps receives them (a RAPIDO_DIR whose
	# install-deps says what it was given)
	mkdir -p "$T/fakedir/host"
	printf '#!/bin/sh\necho "$*|$INSTALL_DEPS_AS|$RAPIDO_FRONT"\n' > "$T/fakedir/host/install-deps"
	chmod +x "$T/fakedir/host/install-deps"
	for m in "|--list a b" "--install|a b" "--check|--check a b" "--install --tests|--tests a b"; do
		RAPIDO_DIR=$T/fakedir run "$TOP/rapido" deps ${m%%|*} a b
		check "rapido deps ${m%%|*} a b: install-deps ${m#*|}, with this rapido" \
			out_is "${m#*|}|rapido deps|$(readlink -f "$TOP/rapido")"
	done
	# installed: install-lib's layout (PREFIX/lib/rapido) and the one command
	make -C "$TOP" --no-print-directory -s install-lib DESTDIR="$T/inst" PREFIX=/usr > "$T/install.log" 2>&1
	expect_rc "make install-lib DESTDIR PREFIX=/usr" 0 $?
	install -D -m 755 "$TOP/rapido" "$T/inst/usr/bin/rapido"
	check "  installs lib/rapido/host/install-deps" test -x "$T/inst/usr/lib/rapido/host/install-deps"
	FAKE=$T/bookworm FAKE_KVER=6.12.117-1 INSTALL_DEPS_ROOT=$T/bookworm/root PATH=$T/bin:$PATH \
		run "$T/inst/usr/bin/rapido" deps --tests fstests_xfs
	check "  the installed rapido deps --tests fstests_xfs: the same packages" same_file "$T/want" "$T/out"
	FAKE=$T/bookworm FAKE_KVER=6.12.117-1 INSTALL_DEPS_ROOT=$T/bookworm/root PATH=$T/bin:$PATH \
		run "$T/inst/usr/lib/rapido/host/install-deps" --list --tests fstests_xfs
	check "  its install-deps, run by hand, asks the installed rapido: the same" same_file "$T/want" "$T/out"
else
	skip "profile names through ./cut --locate, rapido deps" "./cut or ./rapido is not built (run make)"
fi

# Every program of every profile (#@ bins, bins-if, their includes') has
# its Debian package named, for install-deps PROFILE and ./cut's message:
# a line of autorun/packages or the profile's #@ packages, unless an
# Essential package has it (on every Debian). unnamed TOPDIR: those that
# have none, with why
unnamed() {
	local b p prof f
	"$1/host/install-deps" --bins $(cd "$1/autorun" && ls *.sh | sed 's/\.sh$//') > "$T/bins" ||
		{ echo "install-deps --bins failed"; return; }
	# each program once, with the first profile naming it, and its file as
	# found, /usr-merged and as its link's target: "PROGRAM FILE"
	: > "$T/files"
	while read -r b p prof; do
		case $b in /*) f=$b ;; *) f=$(type -P "$b") ;; esac
		if [ -z "$f" ] || [ ! -e "$f" ]; then
			echo "$b ($prof): no line, and not on this host"
			continue
		fi
		printf '%s %s\n' "$b" "$f" "$b" "${f#/usr}" "$b" "$(readlink -f "$f")" >> "$T/files"
	done < <(awk '$2 == "-" && !seen[$1]++' "$T/bins")
	# one dpkg -S for them all (it is slow): "PKG[:ARCH][, PKG]: FILE"
	dpkg-query -W -f='${Package} ${Essential}\n' | awk '$2 == "yes" { print $1 }' > "$T/essential"
	dpkg -S $(awk '{ print $2 }' "$T/files" | sort -u) 2> /dev/null | grep -v '^diversion' > "$T/owners"
	awk 'FILENAME == ARGV[1] { ess[$1] = 1; next }
	FILENAME == ARGV[2] {
		i = index($0, ": /"); n = split(substr($0, 1, i - 1), pk, ", ")
		for (j = 1; j <= n; j++) { sub(/:.*/, "", pk[j]); if (pk[j] in ess) e[substr($0, i + 2)] = 1 }
		next
	}
	{ if (!($1 in seen)) { seen[$1] = 1; order[++m] = $1 } if ($2 in e) ok[$1] = 1 }
	END { for (k = 1; k <= m; k++) if (!(order[k] in ok)) print order[k] }' \
		"$T/essential" "$T/owners" "$T/files" |
		while read -r b; do
			echo "$b ($(awk -v b="$b" '$1 == b { print $3; exit }' "$T/bins")): no line, and not Essential"
		done
}
if command -v dpkg-query > /dev/null; then
	unnamed "$TOP" > "$T/unnamed"
	check "every profile's programs: a Debian package named for each not Essential" test ! -s "$T/unnamed"
	sed 's/^/#   /' "$T/unnamed"
	# the check itself: one line of the table less (bc), and it says so
	mkdir -p "$T/copy" && cp -R "$TOP/host" "$TOP/autorun" "$T/copy/" &&
		sed -i '/^bc[[:space:]]/d' "$T/copy/autorun/packages"
	unnamed "$T/copy" > "$T/unnamed"
	check "  without autorun/packages' bc line: bc is named" grep -q "^bc ([a-z_]*): no line" "$T/unnamed"
else
	skip "every profile's programs have a Debian package" "no dpkg-query (not Debian)"
fi

# a host without apt: the missing commands, exit 1
mkdir -p "$T/noapt"
for c in bash dirname sed grep awk sort cat mkdir; do ln -s "$(command -v $c)" "$T/noapt/$c"; done
PATH=$T/noapt run "$TOP/host/install-deps" fstests_local
check "no apt: exit 1" exits 1
check "  says so" contains "$T/err" "install-deps: no apt on this host: install these commands"
# (those in PATH only: a program in /usr/sbin is found there, as ./cut does)
check "  listing the commands (gcc, dracut, zstd, fio, bc)" eval '(for c in gcc dracut zstd fio bc; do grep -qx "  $c" "$T/err" || exit 1; done)'
if [ -x "$TOP/rapido" ]; then
	PATH=$T/noapt run "$TOP/rapido" deps fstests_xfs
	check "no apt: rapido deps fstests_xfs: exit 1, the same list" eval '[ $rc = 1 ] && grep -qx "  fio" "$T/err"'
fi
# the kernel looked for in the target root (INSTALL_DEPS_ROOT), not the host's /boot
mkdir -p "$T/noroot" "$T/kroot/boot" "$T/kroot/lib/modules/1.0-fixture"
: > "$T/kroot/boot/vmlinuz-1.0-fixture"
INSTALL_DEPS_ROOT=$T/noroot PATH=$T/noapt run "$TOP/host/install-deps" fstests_local
check "no apt, a root without a kernel: its kernel listed as missing" \
	contains "$T/err" "  $T/noroot/boot/vmlinuz-RELEASE (a kernel, with $T/noroot/lib/modules/RELEASE)"
INSTALL_DEPS_ROOT=$T/kroot PATH=$T/noapt run "$TOP/host/install-deps" fstests_local
check "no apt, a root with a kernel and its modules: none missing" \
	eval '! grep -q "vmlinuz-RELEASE" "$T/err"'
done_testing
