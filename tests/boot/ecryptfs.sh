#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ecryptfs.sh: the ecryptfs_local profile's built-in check and its errors.
# ./cut names, before dracut runs and leaving no image, an ECRYPTFS_SRC that
# does not exist, a tree without tests/run_tests.sh, and a kernel without
# the ecryptfs module and CONFIG_ECRYPT_FS (a fake KERNEL_SRC tree around
# the installed kernel, with eCryptfs taken out of its module list and
# config). The guest names every bad setting at once (an unknown and a
# repeated lower file system, a bad size, a category and a test the tree
# lacks, a tree that is not built: the real ecryptfs-utils with a test
# program removed), makes no disk and exits 1. The built-in
# check passes on ext4 and xfs lower file systems (exit 0, every check in
# the share's builtin.txt), and the encrypted lower copies it leaves in the
# share are checked here, on the host: eCryptfs marker, size, no plaintext.
. "$(dirname "$0")/lib.sh"

SHARE=$T/share
# run_err (lib.sh) also checks that no image was left
run_err_also() { [ ! -e "$DRACUT_OUT" ]; }

# 1. at cut time
run_err "ECRYPTFS_SRC that does not exist: cut names it" \
	"$T/no-such-tree: No such file or directory" \
	env ECRYPTFS_SRC="$T/no-such-tree" "$CUT" ecryptfs_local
mkdir -p "$T/not-a-suite/tests"
run_err "ECRYPTFS_SRC without tests/run_tests.sh: cut names the file" \
	"$T/not-a-suite/tests/run_tests.sh: No such file or directory" \
	env ECRYPTFS_SRC="$T/not-a-suite" "$CUT" ecryptfs_local

# the installed kernel cut picks (dracut's --kver in cut -n's argv)
rel=$("$CUT" -n simple 2>/dev/null | grep -A1 -x -- --kver | tail -n 1)
if [ -z "$rel" ] || [ ! -f "/boot/config-$rel" ] || [ ! -f "/lib/modules/$rel/modules.dep" ]; then
	not_ok "no installed kernel with a config and modules.dep (make deps): '$rel'"
else
	# the installed kernel as a built tree, eCryptfs taken out
	tree=$T/linux
	mods=$T/mods/lib/modules/$rel
	mkdir -p "$tree/arch/x86/boot" "$tree/include/config" "$mods"
	ln -s "/boot/vmlinuz-$rel" "$tree/arch/x86/boot/bzImage"
	grep -v '^CONFIG_ECRYPT_FS' "/boot/config-$rel" > "$tree/.config"
	echo "$rel" > "$tree/include/config/kernel.release"
	cp "/lib/modules/$rel/modules.builtin" "$tree/modules.builtin"
	for f in "/lib/modules/$rel"/*; do
		[ "${f##*/}" = modules.dep ] || ln -s "$f" "$mods/"
	done
	grep -v '/ecryptfs\.ko' "/lib/modules/$rel/modules.dep" > "$mods/modules.dep"
	run_err "a kernel without the ecryptfs module: cut names it" \
		"kernel module 'ecryptfs' not found for kernel $rel" \
		env KERNEL_SRC="$tree" KERNEL_INSTALL_MOD_PATH="$T/mods" "$CUT" ecryptfs_local
	check "  and CONFIG_ECRYPT_FS, missing from its config" grep -q "CONFIG_ECRYPT_FS" "$T/out"
	check "  and nothing else" test "$(grep -c "CONFIG_\|kernel module" "$T/out")" = 2
fi

# 2. in the guest: every bad setting named at once, before any disk is
# made; the tree: a hardlinked copy of the real built ecryptfs-utils
# (tests/suite-tree) with one test program removed
ecr=$("$TOP/tests/suite-tree" ecryptfs-utils)
ecr_rc=$?
if [ $ecr_rc -eq 77 ]; then
	skip "bad settings in the guest" "${ecr#SKIP: }"
elif [ $ecr_rc -ne 0 ]; then
	not_ok "tests/suite-tree ecryptfs-utils: exit $ecr_rc"
else
	tree_copy "$ecr" "$T/unbuilt" &&
		rm "$T/unbuilt/tests/kernel/extend-file-random/test"
	cat > "$RAPIDO_CONF" <<EOF
ECRYPTFS_LOWER_FS=ext4,ntfs,ext4
ECRYPTFS_ZRAM_SIZE=12Q
ECRYPTFS_SRC=$T/unbuilt
ECRYPTFS_TEST_CATEGORY=safe,quick
ECRYPTFS_TESTS=no-such.sh
EOF
	"$CUT" ecryptfs_local -x 'echo extras-ran' > "$T/out" 2>&1
	expect_rc "cut with bad ecryptfs settings" 0 $?
	start=$(date +%s)
	"$VM" --batch --timeout 300 > "$T/console" 2>&1
	rc=$?
	expect_rc "bad settings: the guest stops with status 1 ($(( $(date +%s) - start ))s)" 1 $rc
	for msg in \
		"ECRYPTFS_LOWER_FS: 'ntfs' is not supported: use one or more of: ext2, ext3, ext4, xfs, btrfs" \
		"ECRYPTFS_LOWER_FS='ext4,ntfs,ext4': ext4 is listed twice" \
		"ECRYPTFS_ZRAM_SIZE='12Q': expected a size of 1M or more" \
		"is not built: tests/kernel/extend-file-random/test is missing" \
		"ECRYPTFS_TEST_CATEGORY='safe,quick': 'quick' is not a category of tests/kernel/tests.rc (it has: destructive safe)" \
		"ECRYPTFS_TESTS='no-such.sh': 'no-such.sh' is not an executable test in tests/kernel" \
		"rapido: FAILED: ecryptfs_local: 6 problem(s) in the settings above; nothing was run"; do
		check "  names: $msg" guest_says "$T/console" "$msg"
	done
	check "  before any zram disk is made" bash -c "! grep -q 'zram0: detected capacity' '$T/console'"
	check "  and before the extras" bash -c "! grep -q 'extras-ran' '$T/console'"
	check "  kernel console clean" console_clean "$T/console"
	diag
fi

# 3. the built-in check on ext4 and xfs (mkfs.xfs wants 300M)
printf 'ECRYPTFS_LOWER_FS=ext4,xfs\nECRYPTFS_ZRAM_SIZE=320M\n' > "$RAPIDO_CONF"
"$CUT" ecryptfs_local -x 'echo "extras-ran status=$?"' > "$T/out" 2>&1
expect_rc "cut ecryptfs_local (ext4,xfs)" 0 $?
mkdir -p "$SHARE"
start=$(date +%s)
"$VM" --batch --timeout 600 --share "$SHARE" > "$T/console" 2>&1
rc=$?
expect_rc "built-in check on ext4 and xfs passes ($(( $(date +%s) - start ))s)" 0 $rc
res=$SHARE/ecryptfs/builtin.txt
check "  builtin.txt: 34 checks, all ok" \
	test "$(grep -c '^ok ' "$res" 2>/dev/null)/$(grep -c '^not ok' "$res" 2>/dev/null)/$(tail -n 1 "$res" 2>/dev/null)" = "34/0/1..34"
for fs in ext4 xfs; do
	for what in "mounted on /lower" "eCryptfs mounted on /upper over /lower" \
		"bytes written through /upper read back the same" \
		"one lower file, with an encrypted name (ECRYPTFS_FNEK_ENCRYPTED." \
		"the lower file holds none of the plaintext" \
		"the lower file has an eCryptfs header: size 21600, marker, version" \
		"a mount with a key not in the keyring is refused" \
		"after umount and remount with the passphrase, secret.txt reads back the same" \
		"with another passphrase (mounted: ecryptfs) secret.txt cannot be opened" \
		"with another passphrase (mounted: ecryptfs, no filename key) the lower file cannot be read" \
		"-n /dev/zram0: clean"; do
		check "  $fs: $what" grep -qF -- "- $fs: " <(grep -F -- "$what" "$res")
	done
	# the lower copy, seen from the host: the header's size and marker
	# (bytes 0-7, and two words at 8-15 whose XOR is 0x3c81b7f5), no plaintext
	bin=$SHARE/ecryptfs/lower-$fs.bin
	read -r -a h < <(od -An -v -tu1 -N 16 "$bin" 2>/dev/null | tr '\n' ' ')
	size=0 m1=0 m2=0
	for i in 0 1 2 3 4 5 6 7; do size=$(((size << 8) | ${h[i]:-0})); done
	for i in 8 9 10 11; do m1=$(((m1 << 8) | ${h[i]:-0})); m2=$(((m2 << 8) | ${h[i + 4]:-0})); done
	check "  $fs: host: the lower copy's header says 21600 bytes and has the eCryptfs marker" \
		test "$size $((m1 ^ m2))" = "21600 $((0x3c81b7f5))"
	check "  $fs: host: the lower copy holds no plaintext ($(stat -c %s "$bin" 2>/dev/null) bytes)" \
		bash -c '[ -s "$1" ] && ! grep -aq "rapido eCryptfs plaintext" "$1"' _ "$bin"
done
check "  the extras ran after it, status 0" guest_says "$T/console" "extras-ran status=0"
check "  kernel console clean" console_clean "$T/console"
diag
done_testing
