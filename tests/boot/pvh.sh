#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# pvh.sh: ./vm boots an x86 kernel at its PVH entry (src/vm/pvh.c): the
# ELF unpacked from Debian's bzImage (xz on Debian 12, zstd on 13) into
# CUT_CACHE_DIR/kernels is what qemu really gets (its execve, seen by
# strace), the guest runs and exits 0; VM_KERNEL_ENTRY=bzimage boots the
# bzImage; a damaged cached ELF is unpacked again; where the unpacker
# fails or stops short the bzImage boots, with a warning; a kernel
# replaced in place gets an ELF of its own.
. "$(dirname "$0")/lib.sh"
installed_kernel_or_skip
[ "$(dpkg --print-architecture)" = amd64 ] || { echo "SKIP: PVH is x86's"; exit 77; }
STRACE=$(command -v strace) || { echo "SKIP: no strace (make deps)"; exit 77; }

# qemu_kernel LOG: the -kernel of the qemu execve strace logged
qemu_kernel() {
	grep 'execve(".*qemu-system' "$1" | grep -o '"-kernel", "[^"]*"' | head -n 1 |
		sed 's/"-kernel", "\(.*\)"/\1/'
}
# boot NAME [ENV...]: ./vm --batch under strace, its console in $T/NAME, its status in rc
boot() {
	local name=$1
	shift
	# LeakSanitizer cannot run under ptrace (a SANITIZE=1 ./vm would exit 1 for it)
	env ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} "$@" "$STRACE" -f -qq -e trace=execve -s 1024 -o "$T/$name.strace" \
		"$VM" --batch --timeout 300 > "$T/$name" 2>&1
	rc=$?
}

"$CUT" simple > /dev/null 2>&1
expect_rc "cut simple" 0 $?
elf=$("$VM" --dry-run 2> /dev/null | sed -n '/^-kernel$/{n;p;q}')
check "--dry-run: -kernel is an ELF in CUT_CACHE_DIR/kernels" \
	bash -c "[[ '$elf' == '$CUT_CACHE_DIR'/kernels/*.elf ]] && [ -s '$elf' ]"
check "  an x86-64 executable with Xen's PVH entry note (type 0x12)" \
	bash -c "readelf -h '$elf' | grep -q 'Advanced Micro Devices X86-64' &&
		 readelf -n '$elf' | grep -A1 -w Xen | grep -q '0x00000012'"
size=$(stat -c %s "$elf")

boot pvh
expect_rc "vm --batch" 0 "$rc"
check "qemu booted the ELF (its execve)" test "$(qemu_kernel "$T/pvh.strace")" = "$elf"
check "  and the guest ran" grep -q "rapido: $rel up on rapido1" "$T/pvh"
check "  console clean" console_clean "$T/pvh"
# the unpackers of kimage.c's payloads
unpackers='(gzip|bzip2|lzma|xz|lzop|lz4|zstd)'
check "  no unpacker on the second boot: the ELF is cached" \
	bash -c "! grep -qE 'execve\\(\"[^\"]*/$unpackers\"' '$T/pvh.strace'"

boot bz VM_KERNEL_ENTRY=bzimage
expect_rc "VM_KERNEL_ENTRY=bzimage: vm --batch" 0 "$rc"
check "  qemu booted the bzImage" test "$(qemu_kernel "$T/bz.strace")" = "/boot/vmlinuz-$rel"
check "  and the guest ran" grep -q "rapido: $rel up on rapido1" "$T/bz"

truncate -s $((size / 2)) "$elf"
boot damaged
expect_rc "a cached ELF cut short: vm --batch" 0 "$rc"
check "  said so" grep -q "cached kernel $elf is damaged (a segment lies past the end" "$T/damaged"
# the kernel's payload's unpacker, as ./vm ran it
tool=$(grep -oE "execve\(\"[^\"]*/$unpackers\"" "$T/damaged.strace" | head -n 1 | sed 's|.*/||; s|"$||')
check "  unpacked it again (${tool:-no unpacker} ran), whole" \
	bash -c "[ -n '$tool' ] && [ \$(stat -c %s '$elf') = $size ]"
check "  and booted it" test "$(qemu_kernel "$T/damaged.strace")" = "$elf"

# an unpacker that fails, then one that stops short: each warned, the bzImage booted
tool=${tool:-xz}
mkdir -p "$T/bin"
real=$(command -v "$tool")
printf '#!/bin/sh\nexit 1\n' > "$T/bin/$tool"
chmod +x "$T/bin/$tool"
boot xzfails PATH="$T/bin:$PATH" CUT_CACHE_DIR="$T/cache2"
expect_rc "a $tool that fails: vm --batch" 0 "$rc"
check "  warned" grep -q "^vm: $tool -dc[a-z]* could not unpack the payload of kernel /boot/vmlinuz-$rel (it failed): it boots as a bzImage" "$T/xzfails"
check "  and booted the bzImage" test "$(qemu_kernel "$T/xzfails.strace")" = "/boot/vmlinuz-$rel"
check "  nothing left in its kernels/" test -z "$(ls -A "$T/cache2/kernels")"
printf '#!/bin/sh\n"%s" "$@" | head -c 1000000\n' "$real" > "$T/bin/$tool"
boot xzshort PATH="$T/bin:$PATH" CUT_CACHE_DIR="$T/cache2"
expect_rc "a $tool that stops short: vm --batch" 0 "$rc"
check "  warned, with both sizes" grep -q "^vm: kernel /boot/vmlinuz-$rel: its payload unpacked to 1000000 bytes, its trailer says [0-9]*: it boots as a bzImage" "$T/xzshort"
check "  and booted the bzImage" test "$(qemu_kernel "$T/xzshort.strace")" = "/boot/vmlinuz-$rel"

# a kernel rebuilt in place (a KERNEL_SRC tree's bzImage copied anew): its own ELF
installed_kernel_tree "$T/k"
rm "$KERNEL_SRC/arch/x86/boot/bzImage"
cp "/boot/vmlinuz-$rel" "$KERNEL_SRC/arch/x86/boot/bzImage"
"$CUT" simple > /dev/null 2>&1
expect_rc "cut simple from a KERNEL_SRC tree" 0 $?
e1=$("$VM" --dry-run 2> /dev/null | sed -n '/^-kernel$/{n;p;q}')
cp "/boot/vmlinuz-$rel" "$KERNEL_SRC/arch/x86/boot/bzImage.new"
mv "$KERNEL_SRC/arch/x86/boot/bzImage.new" "$KERNEL_SRC/arch/x86/boot/bzImage"
e2=$("$VM" --dry-run 2> /dev/null | sed -n '/^-kernel$/{n;p;q}')
check "the rebuilt kernel gets an ELF of its own" \
	bash -c "[ -s '$e1' ] && [ -s '$e2' ] && [ '$e1' != '$e2' ]"
unset KERNEL_SRC KERNEL_INSTALL_MOD_PATH

run_err "VM_KERNEL_ENTRY=elf is refused, naming the key and its words" \
	"VM_KERNEL_ENTRY.*pvh.*bzimage" env VM_KERNEL_ENTRY=elf "$VM" --dry-run
check "no qemu left running" no_test_qemu
done_testing
