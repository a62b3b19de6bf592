#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ecryptfs_local: the kernel's eCryptfs over lower file systems on zram
# disks, with passphrase keys in the kernel keyring (Debian's ecryptfs-utils
# and keyutils: ecryptfs-add-passphrase, keyctl).
#
# Without ECRYPTFS_SRC, a built-in check on each ECRYPTFS_LOWER_FS in turn
# (a new zram disk, mkfs, mounted on /lower, eCryptfs on /upper with
# filename encryption): a file written through /upper reads back; its lower
# copy has an encrypted name, none of the plaintext and an eCryptfs header
# (marker, size, the key's signature); a mount with a key that is not in the
# keyring is refused; after umount and a remount with the same passphrase
# it reads back; with another passphrase neither its name nor its data can
# be read; umount and a read-only fsck of the lower file system are clean.
# Any failure: exit 1.
#
# With ECRYPTFS_SRC (an ecryptfs-utils tree built with ./configure
# --enable-tests --disable-pywrap && make, carried at /ecryptfs), its own
# suite runs: for each ECRYPTFS_LOWER_FS in turn
#   tests/run_tests.sh -K -b BLOCKS -D /tmp/image -l /lower -u /upper -f FS
#     -t TESTS
# TESTS being ECRYPTFS_TESTS, or the tests tests/kernel/tests.rc lists for
# ECRYPTFS_TEST_CATEGORY (run_tests.sh's -c); with ./vm --shard, this
# shard's part. Each test on each file system is a result of its own
# (ecryptfs/FS/TEST, ./vm --results), read from the harness's pass and
# FAIL lines; a test it did not run (a disk image it could not make) fails,
# and a category's test the tree does not have (111 lists xattr.sh and
# does not ship it) is skipped with that reason. The suite makes a disk
# image of BLOCKS KiB (ECRYPTFS_ZRAM_SIZE) in /tmp/image and loop-mounts
# it; /tmp/image is itself a zram disk, so the images live in compressed
# memory. The tree's programs find its own libraries (src/libecryptfs/
# .libs): its libtool wrappers name the host's build directory, so the
# suite runs with LD_LIBRARY_PATH at the tree's .libs directories. A suite
# with a failed test stops the autorun with exit status 1 (the VM's
# status); one that passes lets -x/-f extras run, which may run it again
# with more options: -x '_ecryptfs_suite -t lp-926292.sh' (later options
# win).
#
# Logs: with ./vm --share DIR (or VIRTFS_SHARE_PATH), DIR/ecryptfs/ on the
# host gets builtin.txt (one ok / not ok line per check) and lower-FS.bin
# (the encrypted lower copy of the file the check wrote) or run_tests.log
# (the harness's output), run_tests.args (its command line, one run a
# line), run_tests.status (0 passed, 1 failed) and dmesg.txt,
# run_tests.2.log and so on for later runs; without a share they are in
# $RAPIDO_RESULTS_DIR/ecryptfs (./vm --results DIR: DIR/files/ecryptfs)
# or else /tmp/ecryptfs in the guest.
#
# rapido.conf (or environment) keys:
#   ECRYPTFS_LOWER_FS       comma list of ext2, ext3, ext4, xfs, btrfs (default ext4)
#   ECRYPTFS_ZRAM_SIZE      size of each lower file system (default 512M;
#                           mkfs.xfs 6.1 wants 300M or more)
#   ECRYPTFS_SRC            a built ecryptfs-utils tree on the host (optional)
#   ECRYPTFS_TEST_CATEGORY  the suite's -c: safe (default), destructive or
#                           both, comma separated
#   ECRYPTFS_TESTS          the suite's -t: comma list of tests in
#                           tests/kernel (lp-926292.sh, ...), instead of the
#                           category's
#
# Bad settings (an unknown file system, a size, a category or test the tree
# does not have, a tree that is not built) are all named before any disk
# is made, with exit status 1. The second files line below makes ./cut name
# a tree without tests/run_tests.sh before dracut runs.
#
#@ description: eCryptfs on zram lower fs (ECRYPTFS_LOWER_FS): built-in mount check, or the ecryptfs-utils suite from ECRYPTFS_SRC
#@ include: zram
#@ suite: ECRYPTFS_SRC the ecryptfs-utils suite: the built-in eCryptfs mount check runs instead
#@ modules: ecryptfs
#@ modules-optional: ecb cbc md5 aesni_intel ext4 ext2 ext3 xfs btrfs crc32c_generic loop
# eCryptfs, zram, the file systems and loop (the suite mounts its disk
# images with it) are modules, as in Debian's kernel; the keyring and the
# ciphers eCryptfs asks the crypto API for are built in: ecb(aes) wraps the
# file keys and encrypts names, cbc(aes) the data, md5 derives the IVs
#@ kconfig: CONFIG_ECRYPT_FS=m CONFIG_KEYS CONFIG_CRYPTO_AES CONFIG_CRYPTO_CBC CONFIG_CRYPTO_ECB CONFIG_CRYPTO_MD5
# lower file systems: ext2 and ext3 through the ext4 driver
#@ kconfig-optional: CONFIG_EXT4_FS=m CONFIG_EXT4_USE_FOR_EXT2=y CONFIG_EXT4_FS_POSIX_ACL=y
#@ kconfig-optional: CONFIG_XFS_FS=m CONFIG_XFS_POSIX_ACL=y CONFIG_BTRFS_FS=m CONFIG_BTRFS_FS_POSIX_ACL=y
#@ kconfig-optional: CONFIG_BLK_DEV_LOOP=m
#@ conf-optional: ECRYPTFS_LOWER_FS ECRYPTFS_ZRAM_SIZE ECRYPTFS_SRC ECRYPTFS_TEST_CATEGORY ECRYPTFS_TESTS
#@ files: ${ECRYPTFS_SRC}:/ecryptfs
#@ files: ${ECRYPTFS_SRC}/tests/run_tests.sh:/ecryptfs/tests/run_tests.sh
#@ cpus: 2
#@ memory: 1G
#@ bins: ecryptfs-add-passphrase keyctl mount umount cat grep od cmp stat tr sed tee mkdir ln uname sync head
#@ bins-optional: dmesg ls rm modprobe
#@ bins-optional: mkfs.ext2 mkfs.ext3 mkfs.ext4 mke2fs e2fsck mkfs.xfs xfs_repair mkfs.btrfs btrfs
# NSS, which libecryptfs hashes passphrases with, loads its soft token (and
# the libfreeblpriv3, libsqlite3 and libm that needs) at run time: no
# program links them, so they are listed, and dracut copies each as it is.
# Without them ecryptfs-add-passphrase fails ("Inserting key ... [-22]").
#@ bins: /usr/lib/x86_64-linux-gnu/libsoftokn3.so /usr/lib/x86_64-linux-gnu/libfreeblpriv3.so
#@ bins: /usr/lib/x86_64-linux-gnu/libsqlite3.so.0 /usr/lib/x86_64-linux-gnu/libm.so.6
# what the suite's harness, its library and its kernel tests run
# (tests/run_tests.sh, tests/lib/etl_funcs.sh, tests/kernel/*.sh), and
# what its libtool wrappers run (/usr/bin/sed, ls)
#@ bins-if ECRYPTFS_SRC: mkfs dd mktemp awk basename dirname sync rm find df tail stat
#@ bins-if ECRYPTFS_SRC: md5sum cut ls sleep chmod date truncate touch getconf setfacl cp
#@ bins-if ECRYPTFS_SRC: mknod diff mv lsattr
#@ bins-optional-if ECRYPTFS_SRC: getfacl losetup xargs wc sort seq id kill ps

export HOME=${HOME:-/root}
# libecryptfs finds sysfs (and so the kernel's eCryptfs features, filename
# encryption among them) through /etc/mtab, which the image does not have
[ -e /etc/mtab ] || ln -s /proc/self/mounts /etc/mtab || rapido_fail "cannot make /etc/mtab"
ECRYPTFS_LOWER_FS=${ECRYPTFS_LOWER_FS:-ext4}
ECRYPTFS_ZRAM_SIZE=${ECRYPTFS_ZRAM_SIZE:-512M}
ECRYPTFS_TEST_CATEGORY=${ECRYPTFS_TEST_CATEGORY:-safe}

# Every bad setting is named before anything is made.
_ecryptfs_problems=()
_ecryptfs_problem() {
	_ecryptfs_problems+=("$*")
}
IFS=, read -r -a _ecryptfs_fs_list <<< "$ECRYPTFS_LOWER_FS"
[[ ",$ECRYPTFS_LOWER_FS," == *,,* ]] &&
	_ecryptfs_problem "ECRYPTFS_LOWER_FS='$ECRYPTFS_LOWER_FS': an empty name in the list"
declare -A _ecryptfs_seen=()
for _ecryptfs_fs in "${_ecryptfs_fs_list[@]}"; do
	[ -n "$_ecryptfs_fs" ] || continue
	if [ -n "${_ecryptfs_seen[$_ecryptfs_fs]:-}" ]; then
		_ecryptfs_problem "ECRYPTFS_LOWER_FS='$ECRYPTFS_LOWER_FS': $_ecryptfs_fs is listed twice"
		continue
	fi
	_ecryptfs_seen[$_ecryptfs_fs]=1
	mapfile -t -O ${#_ecryptfs_problems[@]} _ecryptfs_problems < <(_ecryptfs_fs_problems "$_ecryptfs_fs")
done
_ecryptfs_kib=$(_ecryptfs_size_kib "$ECRYPTFS_ZRAM_SIZE") && [ "$_ecryptfs_kib" -ge 1024 ] ||
	_ecryptfs_problem "ECRYPTFS_ZRAM_SIZE='$ECRYPTFS_ZRAM_SIZE': expected a size of 1M or more, such as 512M or 1G"
grep -qw ecryptfs /proc/filesystems ||
	_ecryptfs_problem "kernel $(uname -r) has no ecryptfs file system (the init did not load it)"

if [ -n "${ECRYPTFS_SRC:-}" ]; then
	_ecryptfs_t=/ecryptfs/tests
	[ -x $_ecryptfs_t/run_tests.sh ] ||
		_ecryptfs_problem "ECRYPTFS_SRC=$ECRYPTFS_SRC: tests/run_tests.sh is missing or not executable"
	# the programs that ./configure --enable-tests && make build
	for _ecryptfs_f in "$_ecryptfs_t"/kernel/*/test.c; do
		_ecryptfs_f=${_ecryptfs_f#/ecryptfs/}
		[ -e "/ecryptfs/$_ecryptfs_f" ] && [ ! -x "/ecryptfs/${_ecryptfs_f%.c}" ] &&
			_ecryptfs_problem "ECRYPTFS_SRC=$ECRYPTFS_SRC is not built: ${_ecryptfs_f%.c} is missing" \
				"(./configure --enable-tests --disable-pywrap && make)"
	done
	[ -e $_ecryptfs_t/lib/etl_add_passphrase_key_to_keyring.c ] &&
		[ ! -x $_ecryptfs_t/lib/etl-add-passphrase-key-to-keyring ] &&
		_ecryptfs_problem "ECRYPTFS_SRC=$ECRYPTFS_SRC is not built: tests/lib/etl-add-passphrase-key-to-keyring is missing (make)"
	if [ ! -f $_ecryptfs_t/kernel/tests.rc ]; then
		_ecryptfs_problem "ECRYPTFS_SRC=$ECRYPTFS_SRC: tests/kernel/tests.rc is missing: is it an ecryptfs-utils tree?"
	else
		# run_tests.sh would run nothing for a category tests.rc does not set
		_ecryptfs_cats=$(_ecryptfs_categories | tr '\n' ' ')
		IFS=, read -r -a _ecryptfs_list <<< "$ECRYPTFS_TEST_CATEGORY"
		[[ ",$ECRYPTFS_TEST_CATEGORY," == *,,* ]] && _ecryptfs_list+=("")
		for _ecryptfs_f in "${_ecryptfs_list[@]}"; do
			[ -n "$_ecryptfs_f" ] && [[ " $_ecryptfs_cats" == *" $_ecryptfs_f "* ]] && continue
			_ecryptfs_problem "ECRYPTFS_TEST_CATEGORY='$ECRYPTFS_TEST_CATEGORY': '$_ecryptfs_f' is not a category" \
				"of tests/kernel/tests.rc (it has: ${_ecryptfs_cats% })"
		done
	fi
	IFS=, read -r -a _ecryptfs_list <<< "${ECRYPTFS_TESTS:-}"
	[[ -n "${ECRYPTFS_TESTS:-}" && ",$ECRYPTFS_TESTS," == *,,* ]] && _ecryptfs_list+=("")
	for _ecryptfs_f in "${_ecryptfs_list[@]}"; do
		[ -n "$_ecryptfs_f" ] && [ "${_ecryptfs_f//\//}" = "$_ecryptfs_f" ] &&
			[ -x "$_ecryptfs_t/kernel/$_ecryptfs_f" ] && continue
		_ecryptfs_problem "ECRYPTFS_TESTS='$ECRYPTFS_TESTS': '$_ecryptfs_f' is not an executable test in" \
			"tests/kernel (such as: $(cd $_ecryptfs_t/kernel 2>/dev/null && echo *.sh))"
	done
	# the suite loop-mounts its disk images
	[ -e /dev/loop-control ] || modprobe -q loop 2>/dev/null
	[ -e /dev/loop-control ] ||
		_ecryptfs_problem "the suite loop-mounts its disk images: kernel $(uname -r) has no loop device (CONFIG_BLK_DEV_LOOP)"
elif [ -n "${ECRYPTFS_TESTS:-}" ]; then
	echo "ecryptfs: ECRYPTFS_TESTS is not used without ECRYPTFS_SRC (the built-in check runs)"
fi
if [ ${#_ecryptfs_problems[@]} -gt 0 ]; then
	printf 'ecryptfs: %s\n' "${_ecryptfs_problems[@]}" >&2
	rapido_fail "ecryptfs_local: ${#_ecryptfs_problems[@]} problem(s) in the settings above; nothing was run"
fi
unset _ecryptfs_f _ecryptfs_fs _ecryptfs_list _ecryptfs_cats _ecryptfs_problems _ecryptfs_seen
unset -f _ecryptfs_problem

_ecryptfs_logdir=/tmp/ecryptfs
if rapido_mounted /host; then
	_ecryptfs_logdir=/host/ecryptfs
elif [ -d "${RAPIDO_RESULTS_DIR:-}" ]; then
	_ecryptfs_logdir=$RAPIDO_RESULTS_DIR/ecryptfs
fi
mkdir -p "$_ecryptfs_logdir" /lower /upper || rapido_fail "cannot make $_ecryptfs_logdir, /lower and /upper"

if [ -z "${ECRYPTFS_SRC:-}" ]; then
	_ecryptfs_results=$_ecryptfs_logdir/builtin.txt
	: > "$_ecryptfs_results"
	# a passphrase of this boot only: a key left from an earlier run cannot pass for it
	_ecryptfs_pass=$(od -An -tx1 -N 16 /dev/urandom | tr -d ' \n')
	for _ecryptfs_fs in "${_ecryptfs_fs_list[@]}"; do
		_ecryptfs_check "$_ecryptfs_fs" "$_ecryptfs_pass"
	done
	dmesg > "$_ecryptfs_logdir/dmesg.txt" 2>/dev/null
	echo "1..$_ecryptfs_n" >> "$_ecryptfs_results"
	[ "$_ecryptfs_failed" -eq 0 ] ||
		rapido_fail "ecryptfs: $_ecryptfs_failed of $_ecryptfs_n checks failed on ${_ecryptfs_fs_list[*]}" \
			"(see above and $_ecryptfs_results)"
	echo "ecryptfs: built-in check passed on ${_ecryptfs_fs_list[*]}: $_ecryptfs_n checks" \
		"(results in $_ecryptfs_results)"
else
	# the disk images go on a zram disk of their own, with the first lower
	# file system: the size of one image, a quarter more and 64M for the
	# file system's own use (zram only takes memory for what is written)
	# shellcheck disable=SC2046 # the mkfs arguments are words on purpose
	_ecryptfs_dev=$(zram_add /tmp/ecryptfs-image.log \
		-s "$((_ecryptfs_kib + _ecryptfs_kib / 4 + 65536))K" --mkfs "${_ecryptfs_fs_list[0]}" \
		$(zram_mkfs_args "${_ecryptfs_fs_list[0]}") --mount /tmp/image) ||
		rapido_fail "cannot make the zram disk for the suite's disk images on /tmp/image: see above"
	echo "ecryptfs: suite disk images on $_ecryptfs_dev (${_ecryptfs_fs_list[0]}) at /tmp/image," \
		"$_ecryptfs_kib KiB each; ecryptfs-utils from $ECRYPTFS_SRC at /ecryptfs"
	_ecryptfs_suite_args=(-K -c "$ECRYPTFS_TEST_CATEGORY" -b "$_ecryptfs_kib" -D /tmp/image
		-l /lower -u /upper -f "$ECRYPTFS_LOWER_FS")
	[ -z "${ECRYPTFS_TESTS:-}" ] || _ecryptfs_suite_args+=(-t "$ECRYPTFS_TESTS")
	_ecryptfs_suite
	_ecryptfs_rc=$?
	[ $_ecryptfs_rc -eq 0 ] ||
		rapido_fail -s $_ecryptfs_rc "the ecryptfs-utils suite (tests/run_tests.sh): see the tests above"
fi
