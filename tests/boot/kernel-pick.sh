#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-pick.sh: the boot tests' installed_kernel_or_skip (lib.sh) picks
# the kernel ./cut picks: with 6.1.0-9 and 6.1.0-10 installed, where
# string order and version order disagree, both take 6.1.0-10. In a
# private mount namespace, /boot and /lib/modules show the two (the real
# kernel's files under both names). Cut-only: no VM boots.
. "$(dirname "$0")/lib.sh"

# The mounts live in the namespace only, under the outer test's directory
# ($K): it is removed by the outer test once the namespace is gone, so no
# removal ever runs through a bind mount of the real /lib/modules (which
# would empty it). The binds are read-only besides.
if [ "${1:-}" != --inside ]; then
	installed_kernel_or_skip
	may_mount || { echo "SKIP: $why_no_mount"; exit 77; }
	unshare -m --propagation private true 2> /dev/null ||
		{ echo "SKIP: cannot make a private mount namespace (unshare -m)"; exit 77; }
	mkdir "$T/k"
	K=$T/k REAL_REL=$rel unshare -m --propagation private "$0" --inside
	exit
fi
# bind_ro FROM TO: a read-only bind mount
bind_ro() {
	mount --bind "$1" "$2" && mount -o remount,bind,ro "$2"
}
mkdir -p "$K/boot" "$K/mods"
for v in 6.1.0-9-amd64 6.1.0-10-amd64; do
	touch "$K/boot/vmlinuz-$v" "$K/boot/config-$v"
	mkdir "$K/mods/$v"
	bind_ro "/boot/vmlinuz-$REAL_REL" "$K/boot/vmlinuz-$v" &&
		bind_ro "/boot/config-$REAL_REL" "$K/boot/config-$v" &&
		bind_ro "/lib/modules/$REAL_REL" "$K/mods/$v" ||
		{ not_ok "bind mounts of kernel $REAL_REL"; done_testing; }
done
mount --rbind "$K/boot" /boot && mount --rbind "$K/mods" /lib/modules ||
	{ not_ok "mount the two kernels on /boot and /lib/modules"; done_testing; }

(installed_kernel_or_skip && echo "$rel") > "$T/lib-pick" 2>&1
lib_pick=$(cat "$T/lib-pick")
"$CUT" -n simple > "$T/out" 2>&1
expect_rc "cut -n simple with the two kernels" 0 $?
cut_pick=$(grep -A1 -x -- --kver "$T/out" | tail -n 1)
check "cut picks 6.1.0-10-amd64 (${cut_pick:-none})" test "$cut_pick" = 6.1.0-10-amd64
check "lib.sh picks the same (${lib_pick:-none})" test "$lib_pick" = "$cut_pick"
done_testing
