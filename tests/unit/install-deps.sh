#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install-deps.sh: host/install-deps' package resolution against a fake
# apt-cache and dpkg-query answering as Debian 12 (bookworm) and 13
# (trixie) would: the lean, --tests, --all and PROFILE sets, per-release
# names (clang's runtime, linux-source-X.Y of the kernel), the failure that
# names the release and the package before anything is installed, and a
# host without apt listing the missing commands; the README lists the lean
# set as it is.
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

# every name of the table, as each release spells the per-release ones
names=$(awk '!/^#/ && NF == 3 { print $2 }' "$TOP/autorun/packages" | tr '|' '\n' |
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
lean="gcc make libc6-dev libjansson-dev liblzma-dev libzstd-dev zlib1g-dev cpio kmod dracut-core busybox-static qemu-system-x86 xz-utils zstd"

for r in bookworm trixie; do
	deps $r --list
	check "$r: no argument: the lean set" out_is "$(printf '%s\n' $lean $([ $r = trixie ] && echo linux-image-amd64))"
	check "$r:   never a server" eval '! grep -q -e samba -e nfs -e ceph -e multipath "$T/out"'
	deps $r --list --tests
	check "$r: --tests: exit 0" exits 0
	check "$r:   the lean set, git, strace and zstd" eval 'for p in $lean git strace zstd; do has $p || exit 1; done'
	check "$r:   every profile's (samba, nfs-kernel-server, fio)" eval 'has samba && has nfs-kernel-server && has fio'
	check "$r:   gdb and readelf's binutils (debug.sh, pvh.sh)" eval 'has gdb && has binutils'
	check "$r:   not --all's qemu-system-arm, nor ksmbd-tools (Conflicts: samba)" \
		eval '! has qemu-system-arm && ! has ksmbd-tools'
	deps $r --list --all
	check "$r: --all: arm64's qemu-system-arm too, not ksmbd-tools" eval 'has qemu-system-arm && ! has ksmbd-tools'
	deps $r --list fstests_local
	check "$r: fstests_local: the lean set and its programs' bc, xfsprogs, fio" \
		out_is "$(printf '%s\n' $lean bc xfsprogs fio $([ $r = trixie ] && echo linux-image-amd64))"
	deps $r --list ksmbd_local
	check "$r: ksmbd_local: ksmbd-tools (its include's #@ packages)" has ksmbd-tools
	deps $r --list nosuchprofile
	check "$r: an unknown profile" fails_with 1 "install-deps: no profile 'nosuchprofile' (autorun/nosuchprofile.sh; ./cut --list names them)"
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
check "--deb-depends: the lean set but the build's" out_is "$(printf '%s\n' cpio kmod dracut-core busybox-static qemu-system-x86 xz-utils zstd)"
run "$TOP/host/install-deps" --deb-suggests
check "--deb-suggests: the servers (samba), ksmbd-tools, arm64's qemu" eval 'has samba && has ksmbd-tools && has qemu-system-arm && ! has gcc-aarch64-linux-gnu'

# a host without apt: the missing commands, exit 1
mkdir -p "$T/noapt"
for c in bash dirname sed grep awk sort cat mkdir; do ln -s "$(command -v $c)" "$T/noapt/$c"; done
PATH=$T/noapt run "$TOP/host/install-deps" fstests_local
check "no apt: exit 1" exits 1
check "  says so" contains "$T/err" "install-deps: no apt on this host: install these commands"
check "  listing the commands (gcc, dracut, zstd, fio, mkfs.xfs)" eval 'for c in gcc dracut zstd fio mkfs.xfs; do grep -qx "  $c" "$T/err" || exit 1; done'
done_testing
