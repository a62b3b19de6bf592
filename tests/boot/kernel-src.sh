#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-src.sh: KERNEL_SRC mode without building a kernel. A fake built
# tree is made from the installed Debian kernel (its vmlinuz as bzImage, its
# config as .config, its release in include/config/kernel.release), so cut
# and vm take the KERNEL_SRC paths: modules from KERNEL_INSTALL_MOD_PATH
# (dracut --kmoddir), no module dir at all (built-in modules from the tree's
# modules.builtin), kconfig symbols refused before dracut runs, and clear
# errors for a tree that is not built or whose modules are for another release.
# tests/slow/kernel-src.sh does the same with a kernel it builds.
. "$(dirname "$0")/lib.sh"

installed_kernel_or_skip

# a tree as `make` leaves it (in-tree or O=): only what cut and vm read
tree=$T/linux
mkdir -p "$tree/arch/x86/boot" "$tree/include/config"
ln -s "/boot/vmlinuz-$rel" "$tree/arch/x86/boot/bzImage"
cp "/boot/config-$rel" "$tree/.config"
echo "$rel" > "$tree/include/config/kernel.release"
# what kbuild writes next to vmlinux.o; one fake entry to tell it apart
{ cat "/lib/modules/$rel/modules.builtin"; echo "kernel/drivers/rapido/rapido_test_builtin.ko"; } \
	> "$tree/modules.builtin"
# modules_install INSTALL_MOD_PATH=$T/mods, borrowed from the installed kernel
mkdir -p "$T/mods/lib/modules"
ln -s "/lib/modules/$rel" "$T/mods/lib/modules/$rel"
export KERNEL_SRC=$tree

# run_err (lib.sh) also checks that no image was left
run_err_also() { [ ! -e "$DRACUT_OUT" ]; }

# 1. no KERNEL_INSTALL_MOD_PATH: a kernel used without modules
"$CUT" -n simple > "$T/argv" 2>&1
expect_rc "cut -n simple with KERNEL_SRC and no module path" 0 $?
check "  dracut gets the tree's release" bash -c "grep -A1 -x -- --kver '$T/argv' | grep -qx '$rel'"
check "  and --no-kernel" grep -qx -- "--no-kernel" "$T/argv"
"$CUT" -n needs-builtin-module > "$T/argv" 2>&1
expect_rc "a module listed in the tree's modules.builtin is accepted without a module dir" 0 $?
check "  and not passed to dracut" grep -qx -- "--no-kernel" "$T/argv"
run_err "a loadable module without KERNEL_INSTALL_MOD_PATH is named, with the fix" \
	"kernel module 'zram' not found for kernel $rel: not built in .*KERNEL_INSTALL_MOD_PATH is not set" \
	"$CUT" needs-zram-module

"$CUT" simple -x 'echo "uname=$(uname -r)"' > "$T/out" 2>&1
expect_rc "cut simple" 0 $?
check "  reports the tree's release" grep -q "kernel $rel\$" "$T/out"
"$VM" --batch --timeout 300 > "$T/console" 2>&1
expect_rc "vm boots the tree's bzImage" 0 $?
check "  the guest runs the tree's release" grep -q "^uname=$rel" "$T/console"
check "  kernel console clean" console_clean "$T/console"
rm -f "$DRACUT_OUT"

# 2. KERNEL_INSTALL_MOD_PATH: modules come from there (dracut --kmoddir)
export KERNEL_INSTALL_MOD_PATH=$T/mods
"$CUT" -n needs-zram-module > "$T/argv" 2>&1
expect_rc "cut -n with KERNEL_INSTALL_MOD_PATH" 0 $?
check "  dracut --kmoddir is the installed module dir" \
	bash -c "grep -A1 -x -- --kmoddir '$T/argv' | grep -qx '$T/mods/lib/modules/$rel'"
"$CUT" needs-zram-module > "$T/out" 2>&1
expect_rc "cut a profile that loads zram" 0 $?
"$VM" --batch --timeout 300 > "$T/console" 2>&1
expect_rc "vm: zram loaded from the image and used" 0 $?
check "  the module was loaded on the tree's release" \
	grep -q "rapido: zram module live, zram0 16777216 bytes on $rel" "$T/console"
check "  kernel console clean" console_clean "$T/console"
rm -f "$DRACUT_OUT"

# 3. kconfig: refused before dracut runs, every symbol named, --ignore-kconfig goes on
printf '#!/bin/sh\ntouch %s/dracut-ran\nexit 1\n' "$T" > "$T/fake-dracut"
chmod +x "$T/fake-dracut"
DRACUT=$T/fake-dracut run_err "a symbol missing from .config refuses the profile" \
	"$tree/.config: CONFIG_RAPIDO_NO_SUCH_SYMBOL is not set" "$CUT" needs-kconfig
check "  a module where built-in is needed is named as such" \
	grep -q "CONFIG_ZRAM=m, but built-in (=y) is needed" "$T/out"
check "  a symbol that is there is not named" bash -c "! grep -q CONFIG_BLOCK '$T/out'"
check "  dracut did not run" test ! -e "$T/dracut-ran"
"$CUT" -n --ignore-kconfig needs-kconfig > "$T/out" 2>&1
expect_rc "--ignore-kconfig goes on" 0 $?
check "  but still warns by name" grep -q "CONFIG_RAPIDO_NO_SUCH_SYMBOL is not set.*(ignored)" "$T/out"
KERNEL_SRC= KERNEL_RELEASE=$rel run_err "installed kernels are checked against /boot/config-REL" \
	"/boot/config-$rel: CONFIG_RAPIDO_NO_SUCH_SYMBOL is not set" "$CUT" needs-kconfig

# 4. trees that cannot be used say what is missing
mkdir -p "$T/mods-other/lib/modules/0.0.0-other"
KERNEL_INSTALL_MOD_PATH=$T/mods-other run_err "modules for another release" \
	"has no modules for release $rel (found: 0.0.0-other)" "$CUT" simple
mkdir -p "$T/mods-nodep/lib/modules/$rel"
KERNEL_INSTALL_MOD_PATH=$T/mods-nodep run_err "module dir without modules.dep" \
	"$T/mods-nodep/lib/modules/$rel/modules.dep: No such file.*depmod" "$CUT" simple
mv "$tree/include/config/kernel.release" "$T/kernel.release"
run_err "tree without include/config/kernel.release" \
	"is not built: $tree/include/config/kernel.release" "$CUT" simple
mv "$T/kernel.release" "$tree/include/config/kernel.release"
mv "$tree/.config" "$T/config"
run_err "tree without .config" "$tree/.config is missing" "$CUT" simple
mv "$T/config" "$tree/.config"
rm "$tree/arch/x86/boot/bzImage"
run_err "tree that is configured but not built" \
	"is not built for amd64: $tree/arch/x86/boot/bzImage is missing" "$CUT" simple
done_testing
