#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cut-output-dir.sh: an -o in a directory where no file can be created
# (/proc, /sys: root may "write" there by permission bits, yet mkdir fails)
# is refused by the pre-check, in a dry run too, naming the directory, the
# reason and its file system, before dracut runs; nothing is left there.
# A fake kernel tree, so no built kernel is needed. The other bad -o cases
# (a directory, a fifo, a read-only mount) are in tests/boot/cut-output.sh.
. "$(dirname "$0")/../boot/lib.sh"
if [ ! -x "$CUT" ]; then
	echo "SKIP: $CUT not built (make)"
	exit 77
fi
unset KERNEL_SRC KERNEL_INSTALL_MOD_PATH KERNEL_RELEASE
TAP_ON_FAIL=show_run

# a kernel tree with just what the pre-check of profile simple reads
export KERNEL_SRC=$T/linux
mkdir -p "$KERNEL_SRC/arch/x86/boot" "$KERNEL_SRC/include/config"
: > "$KERNEL_SRC/arch/x86/boot/bzImage"
echo 9.9.9-rapido > "$KERNEL_SRC/include/config/kernel.release"
printf 'CONFIG_%s=y\n' BLOCK BLK_DEV_INITRD BINFMT_ELF DEVTMPFS SERIAL_8250_CONSOLE > "$KERNEL_SRC/.config"
# a dracut that only records that it ran
printf '#!/bin/sh\necho ran >> "%s/dracut-ran"\nexit 1\n' "$T" > "$T/fake-dracut"
chmod +x "$T/fake-dracut"
export DRACUT=$T/fake-dracut

run "$CUT" -n -o "$T/ok.img" simple
check "control: -o in a writable directory passes the dry run" test $rc -eq 0

# refused_in DIR FSTYPE: -o DIR/foo.img is refused, dry run and real run
refused_in() {
	local dir=$1 fstype=$2 mode
	for mode in -n ""; do
		rm -f "$T/dracut-ran"
		run timeout 60 "$CUT" $mode -o "$dir/foo.img" simple
		check "-o $dir/foo.img${mode:+ (dry run)}: refused" test $rc -eq 1
		check "  the directory, why and its file system named" \
			eval 'grep -q "^cut: cannot write in $dir: .*, on $fstype (mounted at $dir, .*); the image $dir/foo.img cannot go there" "$T/err"'
		check "  before dracut" test ! -e "$T/dracut-ran"
		check "  by the pre-check" contains "$T/err" "problem found; no image written"
	done
}
refused_in /proc proc
refused_in /sys sysfs
check "nothing left behind" eval '[ -z "$(ls -d /proc/foo.img* /sys/foo.img* 2> /dev/null)" ]'
done_testing
