# SPDX-License-Identifier: GPL-2.0
# zram.sh: zram disks through rapido-zram, a file system made on them as
# xfstests makes its own (fstests_local, ecryptfs_local):
#   zram_add LOG ARGS...              rapido-zram add ARGS, the device printed
#   zram_mkfs_args FS [MKFS_OPTIONS]  its --mkfs-arg options for FS
#   zram_default_mkfs_options FS      MKFS_OPTIONS when none are given
# Sourced into every image before the profile, so it only defines functions.

# zram_default_mkfs_options FS: MKFS_OPTIONS unless they are given (in
# fstests_local, FSTESTS_MKFS_OPTIONS): no discard, a new zram disk holds
# nothing to discard
zram_default_mkfs_options() {
	case "$1" in
	btrfs|xfs) echo "-K" ;;
	ext2|ext3|ext4) echo "-E nodiscard" ;;
	f2fs) echo "-t 0" ;;
	# mkfs.ntfs: no zeroing of the whole disk (-Q), and a whole disk
	# rather than a partition taken (-F)
	ntfs|ntfs3) echo "-Q -F" ;;
	esac
}

# zram_mkfs_args FS [MKFS_OPTIONS]: the --mkfs-arg options rapido-zram
# should pass to make FS as xfstests' _test_mkfs would: overwrite any old
# signature (rapido-zram adds -F for ext*), then MKFS_OPTIONS (words; by
# default no discard, see zram_default_mkfs_options; given empty: none)
zram_mkfs_args() {
	local o opts
	if [ $# -ge 2 ]; then opts=$2; else opts=$(zram_default_mkfs_options "$1"); fi
	case "$1" in
	btrfs|xfs|f2fs) echo "--mkfs-arg -f" ;;
	esac
	for o in $opts; do
		echo "--mkfs-arg $o"
	done
}

# zram_add LOG ARGS...: rapido-zram add ARGS; prints the device.
# mkfs chatter goes to LOG and is shown only when something fails.
zram_add() {
	local log=$1 dev
	shift
	if ! dev=$(rapido-zram add "$@" 2> "$log"); then
		cat "$log" >&2
		return 1
	fi
	echo "$dev"
}
