# SPDX-License-Identifier: GPL-2.0
# fstests-tree.sh: the checks of the xfstests tree at /fstests (FSTESTS_SRC):
#   fstests_check_tree FSTYP  what it refuses to run without (else it fails)
#   fstests_check_wanted      warnings: what fstests_local's tests want
# Sourced into every image before the profile, so it only defines functions.

# _fstests_missing NAME...: print the NAMEs not found in PATH, space separated
_fstests_missing() {
	local b out=()
	for b; do
		command -v "$b" > /dev/null 2>&1 || out+=("$b")
	done
	echo "${out[*]}"
}

# _fstests_required_bins FS: what xfstests' common/config refuses to run without
_fstests_required_bins() {
	local common="awk sed grep bc df wc xfs_io mount umount perl diff"
	case "$1" in
	btrfs) echo "$common mkfs.btrfs btrfs" ;;
	xfs) echo "$common mkfs.xfs xfs_repair xfs_db" ;;
	ext4) echo "$common mkfs.ext4 e2fsck tune2fs" ;;
	# common/config wants mkfs for any FSTYP; f2fs is made by mkfs -t f2fs
	# (_test_mkfs) and checked by fsck.f2fs, exfat and ntfs3 made by
	# yes | mkfs -t FSTYP and checked by fsck -t FSTYP, udf made by mkudffs
	f2fs) echo "$common mkfs mkfs.f2fs fsck.f2fs" ;;
	exfat) echo "$common mkfs yes fsck mkfs.exfat fsck.exfat" ;;
	udf) echo "$common mkfs mkudffs" ;;
	ntfs3) echo "$common mkfs yes fsck mkfs.ntfs3 fsck.ntfs3" ;;
	ceph) echo "$common $(_fstests_ceph_required_bins)" ;;
	nfs) echo "$common mkfs mount.nfs" ;;
	cifs) echo "$common mkfs mount.cifs" ;;
	virtiofs) echo "$common mkfs findmnt" ;;
	esac
}

# _fstests_ceph_required_bins: what else the real xfstests needs on
# FSTYP=ceph: common/config wants mkfs for every FSTYP ("mkfs not found"),
# though ceph makes no filesystem; common/rc finds TEST_DEV's mount by its
# source with findmnt (init_rc, _check_if_dev_already_mounted)
_fstests_ceph_required_bins() {
	echo "mkfs findmnt"
}

# Wanted by many tests (_require_* skips or fails them without these).
_fstests_wanted_bins="fio getfattr setfattr getfacl setfacl chattr lsattr findmnt blkid
	blockdev dd hostname getconf killall fuser filefrag fallocate losetup dmsetup rev
	mkswap swapon swapoff wipefs lsblk md5sum stat truncate xfs_db xfs_repair
	xfs_admin xfs_growfs xfs_quota xfs_freeze xfs_logprint xfs_metadump
	xfs_mdrestore xfs_spaceman btrfs btrfstune e2fsck tune2fs dumpe2fs debugfs
	resize2fs fsck mkfs timeout dmesg"

# _fstests_missing_libs DIR...: shared libraries that ELF programs under DIR
# need and the image lacks: ./cut adds the libraries a files: tree's
# programs link (src/cut/tree.c), so these are the ones it could not find
# on the host either. Prints them space separated. The loader
# lists them as ldd does (ldd itself, a script, is not in the image); one
# process per program, so the callers keep DIRs short (ltp/, not src/).
_fstests_missing_libs() {
	local ldso f line magic lib libs=()
	local -A seen=()
	for ldso in /lib64/ld-linux-x86-64.so.2 /lib/ld-linux-aarch64.so.1 /lib/ld-linux.so.2; do
		[ -x "$ldso" ] && break
	done
	[ -x "$ldso" ] || return 0
	while read -r f; do
		IFS= read -r -N 4 magic < "$f" 2> /dev/null
		[ "$magic" = $'\x7fELF' ] || continue
		while read -r line; do
			case "$line" in
			*"=> not found"*)
				lib=${line%% *}
				[ -n "${seen[$lib]:-}" ] || libs+=("$lib")
				seen[$lib]=1
				;;
			esac
		done < <(LD_TRACE_LOADED_OBJECTS=1 "$ldso" "$f" 2>/dev/null)
	done < <(find "$@" -maxdepth 2 -type f -perm -u+x 2>/dev/null)
	echo "${libs[*]}"
}

# fstests_check_tree FSTYP: /fstests (FSTESTS_SRC) is a built xfstests tree
# with the programs it refuses to run without on FSTYP; warns about what
# would make tests fail (perl modules, an unbuilt ltp/, missing libraries)
fstests_check_tree() {
	local miss

	[ -x /fstests/check ] ||
		rapido_fail "FSTESTS_SRC=$FSTESTS_SRC has no executable check script:" \
			"is it an xfstests tree?"
	# shellcheck disable=SC2046 # a list of words
	miss=$(_fstests_missing $(_fstests_required_bins "$1"))
	[ -z "$miss" ] ||
		rapido_fail "xfstests needs these programs, not in the image: $miss" \
			"(install them on the host and ./cut again)"
	perl -e 'use strict; use warnings; use POSIX;' 2> /dev/null ||
		echo "fstests: warning: perl has no modules in the image (use strict fails):" \
			"tests that need them will fail"
	[ -d /fstests/ltp ] && [ ! -x /fstests/ltp/fsstress ] &&
		echo "fstests: warning: /fstests/ltp/fsstress is missing: is FSTESTS_SRC built (make)?"
	# ltp/ only: a loader run per program is slow under TCG, and src/'s
	# programs mostly link the same libraries
	miss=$(_fstests_missing_libs /fstests/ltp)
	[ -z "$miss" ] ||
		echo "fstests: warning: /fstests/ltp programs need shared libraries not in" \
			"the image: $miss"
	return 0
}

# fstests_check_wanted: after fstests_devices, a warning naming what the
# tests want and the image lacks (they are skipped or fail without it):
# programs, and the dm-log-writes module when there is a LOGWRITES_DEV
fstests_check_wanted() {
	local miss

	# shellcheck disable=SC2086 # a list of words
	miss=$(_fstests_missing $_fstests_wanted_bins)
	[ -z "$miss" ] ||
		echo "fstests: warning: not in the image, tests needing them will be" \
			"skipped or fail: $miss"
	if [ -n "$LOGWRITES_DEV" ] && ! modprobe -n -q dm-log-writes 2> /dev/null; then
		echo "fstests: warning: no dm-log-writes module for this kernel: the" \
			"LOGWRITES_DEV tests will not run"
	fi
	return 0
}
