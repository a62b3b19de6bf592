#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# arm64.sh: a foreign-architecture guest on this host. ARCH=arm64 ./cut
# simple builds from the arm64 sysroot (make deps ARCHES=arm64) with the
# cross-built init; ./vm boots Debian's arm64 kernel under TCG on the virt
# machine: uname -m says aarch64, and the guest's exit status (0, and 7
# from a failing command) comes back over the virtio status port. KVM is
# refused for it; a program or library missing from the sysroot is named
# at cut time with the Debian package to unpack; an unknown ARCH is named.
. "$(dirname "$0")/lib.sh"

need_arm64

# ---- boot ------------------------------------------------------------------
out=$(ARCH=arm64 "$CUT" simple -x 'echo "arch: $(uname -m)"' 2>&1)
expect_rc "ARCH=arm64 cut simple" 0 $? || echo "$out" | sed 's/^/# /'
rel=$(echo "$out" | sed -n 's/.*kernel \(.*\)$/\1/p')
check "the kernel is the sysroot's arm64 one ($rel)" test -e "$SYSROOT/boot/vmlinuz-$rel"
check "dry run: qemu-system-aarch64 on virt, console on ttyAMA0" \
	eval '"$VM" --dry-run | tr "\n" " " | grep -q "^qemu-system-aarch64 .*-machine virt.*console=ttyAMA0"'
start=$EPOCHREALTIME
"$VM" --batch --timeout 600 > "$T/console" 2>&1
rc=$?
echo "# vm --batch simple (arm64, TCG) took $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.1f", b - a}')s"
expect_rc "vm --batch boots the arm64 guest" 0 $rc
check "profile printed the arm64 kernel release and hostname rapido1" \
	guest_says "$T/console" "rapido: $rel up on rapido1"
check "uname -m in the guest: aarch64" grep -q "^arch: aarch64" <(guest_text "$T/console")
check "kernel console clean" console_clean "$T/console"
check "clean power-off" grep -q "reboot: Power down" "$T/console"

ARCH=arm64 "$CUT" simple -x 'uname -m; false; exit 7' > "$T/cut.out" 2>&1
expect_rc "cut with a failing command" 0 $? || sed 's/^/# /' "$T/cut.out"
"$VM" --batch --timeout 600 > "$T/console" 2>&1
expect_rc "the guest's exit status 7 flows back from arm64" 7 $?
check "it ran there (aarch64 printed)" grep -q "^aarch64" <(guest_text "$T/console")

# ---- refused ----------------------------------------------------------------
run_err "KVM is refused for an arm64 image on this host" \
	"kvm: the image .* is for arm64, this host is $(dpkg --print-architecture); KVM runs only" \
	"$VM" --dry-run --accel kvm
run_err "unknown ARCH named with the known ones" \
	"ARCH=sparc64: unknown architecture (known: amd64, arm64)" env ARCH=sparc64 "$CUT" simple

# ---- missing programs and libraries name their packages -----------------------
# a sysroot with the kernel's module list and an arm64 bash without its libtinfo
F=$T/sysroot
mkdir -p "$F/boot" "$F/lib/modules/$rel" "$F/bin" "$F/lib/aarch64-linux-gnu"
: > "$F/boot/vmlinuz-$rel"
cp "$SYSROOT/lib/modules/$rel/modules.dep" "$SYSROOT/lib/modules/$rel/modules.builtin" "$F/lib/modules/$rel/"
cp "$SYSROOT/bin/bash" "$F/bin/bash"
cp -L "$SYSROOT/lib/ld-linux-aarch64.so.1" "$F/lib/"
cp -L "$SYSROOT/lib/aarch64-linux-gnu/libc.so.6" "$F/lib/aarch64-linux-gnu/"
run_err_also() { test ! -e "$T/missing.img"; }
run_err "a program missing from the sysroot is named with its package (coreutils)" \
	"arm64 binary 'uname' is not in the sysroot $F (needed by profile afalg; Debian package coreutils has it: host/sysroot arm64 $F coreutils)" \
	env ARCH=arm64 SYSROOT="$F" "$CUT" -o "$T/missing.img" afalg
check "  and a library missing for a program there, with its package (libtinfo6)" \
	grep -q "program /bin/bash needs the library libtinfo.so.6, which is not in the arm64 sysroot $F (Debian package libtinfo6 has it" "$T/out"
# afalg's own programs (#@ bins)
check "  and every problem at once (uname, cat, rm, od)" eval \
	'(for p in uname cat rm od; do grep -q "binary '"'"'$p'"'"' is not in the sysroot $F" "$T/out" || exit 1; done)'
# simple's uname, cat, rm, sleep and dmesg are #@ shell-bins: a foreign
# ARCH's image (no busybox) gets the sysroot's, and one missing there is
# no problem: the only one left is bash's library
ARCH=arm64 SYSROOT="$F" "$CUT" --ignore-kconfig -o "$T/missing.img" simple > "$T/out" 2>&1
expect_rc "simple from a sysroot without its shell-bins: refused for bash's library alone" 1 $?
check "  1 problem, none a shell-bins program" sh -c 'grep -q "^cut: 1 problem found" "$1" &&
	grep -q "needs the library libtinfo.so.6" "$1" &&
	! grep -qE "binary .(uname|cat|rm|sleep|dmesg). is not in the sysroot" "$1"' sh "$T/out"
run_err "a missing sysroot says how to fill it" \
	"ARCH=arm64: sysroot $T/none: does not exist; unpack .*host/sysroot arm64 $T/none bash coreutils kmod" \
	env ARCH=arm64 SYSROOT="$T/none" "$CUT" -o "$T/missing.img" simple
unset -f run_err_also

done_testing
