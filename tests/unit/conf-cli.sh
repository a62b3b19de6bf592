#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# conf-cli.sh: rapido.conf as ./cut and ./netsetup see it (no dracut, no
# qemu, no root): the environment wins in ${KEY} of later lines, messages
# say where a value came from, unknown keys are warned about once.
. "$(dirname "$0")/../boot/lib.sh"
for b in "$CUT" "$TOP/netsetup" "$TOP/vmctl"; do
	if [ ! -x "$b" ]; then
		echo "SKIP: $b not built (make)"
		exit 77
	fi
done
NETSETUP=$TOP/netsetup
unset KERNEL_SRC KERNEL_INSTALL_MOD_PATH KERNEL_RELEASE BR_ADDR
TAP_ON_FAIL=show_run

# 10. KERNEL_SRC from the environment reaches "${KERNEL_SRC}/mods" too: the
# tree the file names is not even built, the environment's is, and its
# module directory (which lacks modules.dep) is the one cut complains about.
mkdir -p "$T/file" "$T/env/arch/x86/boot" "$T/env/include/config" \
	"$T/env/mods/lib/modules/9.9.9-rapido"
: > "$T/env/arch/x86/boot/bzImage"
echo 9.9.9-rapido > "$T/env/include/config/kernel.release"
echo CONFIG_BLOCK=y > "$T/env/.config"
printf 'KERNEL_SRC=%s\nKERNEL_INSTALL_MOD_PATH="${KERNEL_SRC}/mods"\n' "$T/file" > "$RAPIDO_CONF"
KERNEL_SRC=$T/env run "$CUT" -n simple
check "cut fails: the module directory has no modules.dep" test $rc -ne 0
check "  modules are looked for under the environment's KERNEL_SRC" \
	contains "$T/err" "$T/env/mods/lib/modules/9.9.9-rapido/modules.dep: No such file"
check "  the file's KERNEL_SRC is used nowhere" eval '! contains "$T/err" "$T/file"'

# 11. where a bad value came from
KERNEL_SRC=$T/nonexistent run "$CUT" -n simple
check "a key from the environment is said to come from the environment" \
	contains "$T/err" "cut: environment: KERNEL_SRC=$T/nonexistent: not a directory"
check "  not from line 0" eval '! contains "$T/err" :0:'
printf 'A=1\nBR_ADDR=10.1.2/24\n' > "$RAPIDO_CONF"
run "$NETSETUP" -n up
check "a key from the file: FILE:LINE" contains "$T/err" "netsetup: $RAPIDO_CONF:2: BR_ADDR: expected an IPv4 address"
BR_ADDR=10.9/8 run "$NETSETUP" -n up
check "the same key overridden by the environment: environment" \
	contains "$T/err" "netsetup: environment: BR_ADDR: expected an IPv4 address"
: > "$T/not-a-dir"
VM_STATE_DIR=$T/not-a-dir run "$TOP/vmctl" 1 paths
check "the state directory's origin is named" \
	contains "$T/err" "vmctl: environment: VM_STATE_DIR: state directory $T/not-a-dir is not a directory"

# 13. unknown keys: warned about once each, with the nearest known key; a
# helper key that later lines expand and a profile's key are not unknown
cat > "$RAPIDO_CONF" <<EOC
VM_MEMRY=2G
TOP=$T
FSTESTS_SRC="\${TOP}/xfstests"
VM_MEMRY=4G
VM2_IP1=10.0.0.2/24
EOC
run "$NETSETUP" -n up
check "an unknown key does not fail the command" test $rc -eq 0
check "  one warning" test "$(grep -c 'warning: unknown key' "$T/err")" = 1
check "  naming FILE:LINE and the nearest key" contains "$T/err" "netsetup: $RAPIDO_CONF:4: warning: unknown key VM_MEMRY: no program or profile reads it (did you mean VM_MEMORY?)"
run "$CUT" -n simple
check "cut warns too" contains "$T/err" "cut: $RAPIDO_CONF:4: warning: unknown key VM_MEMRY"
done_testing
