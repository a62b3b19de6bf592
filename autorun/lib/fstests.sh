# SPDX-License-Identifier: GPL-2.0
# fstests.sh: guest shell functions for the fstests_* profiles (xfstests set-up).
# Sourced into every image before the profile, so it only defines functions.

# Filesystems the fstests profiles can make and mount on a zram disk.
_fstests_known_fs="btrfs xfs ext4"

# Where ./cut puts FSTESTS_EXCLUDE_FILE and FSTESTS_CONFIG (the profile's
# "#@ files:" lines say the same)
_fstests_exclude_path=/etc/rapido/fstests.exclude
_fstests_user_config=/etc/rapido/fstests.config

# _fstests_check_fs FS: fail with a clear message unless FS is usable here.
# The filesystem modules are in the image but not loaded at boot
# (modules-on-demand): only FS's is loaded, here.
_fstests_check_fs() {
	local fs=$1
	case " $_fstests_known_fs " in
	*" $fs "*) ;;
	*) rapido_fail "FSTESTS_FS='$fs' is not supported: use one of: $_fstests_known_fs" ;;
	esac
	if ! grep -qw "$fs" /proc/filesystems && ! modprobe -q "$fs" 2>/dev/null; then
		rapido_fail "kernel $(uname -r 2>/dev/null || echo "$RAPIDO_KERNEL_RELEASE") has no $fs" \
			"filesystem (no module $fs in the image, not built in)"
	fi
	grep -qw "$fs" /proc/filesystems ||
		rapido_fail "modprobe $fs worked but $fs is not in /proc/filesystems"
	command -v "mkfs.$fs" > /dev/null ||
		rapido_fail "mkfs.$fs is not in the image: install it on the host" \
			"(btrfs-progs, xfsprogs or e2fsprogs) and ./cut again"
}

# _fstests_default_mkfs_options FS: MKFS_OPTIONS unless FSTESTS_MKFS_OPTIONS
# is set: no discard, a new zram disk holds nothing to discard
_fstests_default_mkfs_options() {
	case "$1" in
	btrfs|xfs) echo "-K" ;;
	ext2|ext3|ext4) echo "-E nodiscard" ;;
	esac
}

# _fstests_size_ok KEY VALUE [0]: VALUE is a disk size (1G, 512M, bytes);
# with a third argument 0 is allowed too (the device is left out)
_fstests_size_ok() {
	[[ "$2" =~ ^[1-9][0-9]*[KMGT]?$ ]] && return 0
	[ -n "${3:-}" ] && [ "$2" = 0 ] && return 0
	rapido_fail "$1='$2': expected a size such as 512M or 1G${3:+ (0: none)}"
}

# _fstests_opts_ok KEY VALUE: VALUE can go through local.config: xfstests
# reads a section with sed and eval, cutting at '#' and dropping quotes
_fstests_opts_ok() {
	[[ "$2" =~ ^[A-Za-z0-9\ ,=._:/+@-]*$ ]] ||
		rapido_fail "$1='$2': only letters, digits, spaces and , = . _ : / + @ -" \
			"can pass through xfstests' local.config (it cuts at # and drops quotes)"
}

# _fstests_names_ok KEY VALUE WHAT PATTERN: each word of VALUE (spaces or
# commas between) matches PATTERN, a bash regular expression
_fstests_names_ok() {
	local w
	for w in ${2//,/ }; do
		[[ "$w" =~ ^$4$ ]] || rapido_fail "$1: '$w' is not $3"
	done
}

# _fstests_selection_ok: the keys that pick ./check's tests (-s, -g, -x,
# -e, -E and test names) are well formed, FSTESTS_GROUPS/FSTESTS_TESTS
# have a tree and no FSTESTS_AUTORUN_CMD beside them; fstests_local
# (through _fstests_settings) and fstests_cephfs check them so
_fstests_selection_ok() {
	_fstests_names_ok FSTESTS_SECTION "${FSTESTS_SECTION:-}" "a section name" '[A-Za-z0-9_-]+'
	_fstests_names_ok FSTESTS_GROUPS "${FSTESTS_GROUPS:-}" "a group name" '[A-Za-z0-9_-]+'
	_fstests_names_ok FSTESTS_EXCLUDE_GROUPS "${FSTESTS_EXCLUDE_GROUPS:-}" "a group name" \
		'[A-Za-z0-9_-]+'
	_fstests_names_ok FSTESTS_TESTS "${FSTESTS_TESTS:-}" "a test name such as generic/001" \
		'[A-Za-z0-9_-]+/[A-Za-z0-9_-]+'
	_fstests_names_ok FSTESTS_EXCLUDE_TESTS "${FSTESTS_EXCLUDE_TESTS:-}" \
		"a test name such as generic/001" '[A-Za-z0-9_-]+/[A-Za-z0-9_-]+'
	if [ -n "${FSTESTS_GROUPS:-}${FSTESTS_TESTS:-}" ]; then
		[ -n "${FSTESTS_SRC:-}" ] ||
			rapido_fail "FSTESTS_GROUPS/FSTESTS_TESTS select xfstests tests to run, but" \
				"there is no xfstests tree: set FSTESTS_SRC and ./cut again"
		[ -z "${FSTESTS_AUTORUN_CMD:-}" ] ||
			rapido_fail "FSTESTS_AUTORUN_CMD and FSTESTS_GROUPS/FSTESTS_TESTS are both set:" \
				"use one (FSTESTS_AUTORUN_CMD may call rapido_fstests_check, which" \
				"adds the sections and exclusions from rapido.conf)"
	fi
	# the files: lines of the profile copied these in
	[ -z "${FSTESTS_EXCLUDE_FILE:-}" ] || [ -f "$_fstests_exclude_path" ] ||
		rapido_fail "FSTESTS_EXCLUDE_FILE=$FSTESTS_EXCLUDE_FILE is not in the image" \
			"at $_fstests_exclude_path"
}

# _fstests_settings: read and check every FSTESTS_* key before a disk is
# made, into _fst_* variables. The defaults make what xfstests' device
# tests need: a pool of five scratch disks for btrfs (four for the raid
# tests and a spare for the replace tests) and a dm-log-writes log device.
_fstests_settings() {
	local def_pool=0 s
	FSTYP=${FSTESTS_FS:-btrfs}
	_fstests_check_fs "$FSTYP"
	_fst_size=${FSTESTS_ZRAM_SIZE:-1G}
	_fstests_size_ok FSTESTS_ZRAM_SIZE "$_fst_size"
	[ "$FSTYP" = btrfs ] && def_pool=5
	_fst_pool=${FSTESTS_SCRATCH_POOL:-$def_pool}
	[[ "$_fst_pool" =~ ^([0-9]|1[0-6])$ ]] && [ "$_fst_pool" != 1 ] ||
		rapido_fail "FSTESTS_SCRATCH_POOL='$_fst_pool': expected 0 (one SCRATCH_DEV)" \
			"or a number of disks from 2 to 16"
	[ "$_fst_pool" = 0 ] || [ "$FSTYP" = btrfs ] ||
		rapido_fail "FSTESTS_SCRATCH_POOL=$_fst_pool: xfstests uses SCRATCH_DEV_POOL for" \
			"btrfs only (FSTESTS_FS=$FSTYP): set it to 0"
	_fst_pool_devs=${FSTESTS_SCRATCH_POOL_DEVS:-scsi}
	case "$_fst_pool_devs" in
	scsi) _fst_pool_size=${FSTESTS_SCRATCH_POOL_SIZE:-256M} ;;
	zram) _fst_pool_size=${FSTESTS_SCRATCH_POOL_SIZE:-$_fst_size} ;;
	*) rapido_fail "FSTESTS_SCRATCH_POOL_DEVS='$_fst_pool_devs': expected scsi (scsi_debug" \
		"disks, which tests can drop and scan back as btrfs/003 does) or zram" \
		"(plain zram disks)" ;;
	esac
	_fstests_size_ok FSTESTS_SCRATCH_POOL_SIZE "$_fst_pool_size"
	[ "$_fst_pool_devs" = zram ] || [[ "$_fst_pool_size" =~ ^[0-9]+[MG]$ ]] ||
		rapido_fail "FSTESTS_SCRATCH_POOL_SIZE='$_fst_pool_size': a scsi_debug disk is" \
			"sized in whole MiB or GiB (e.g. 256M)"
	_fst_logw_size=${FSTESTS_LOGWRITES_SIZE:-$_fst_size}
	_fstests_size_ok FSTESTS_LOGWRITES_SIZE "$_fst_logw_size" 0
	_fst_logdev_size=${FSTESTS_SCRATCH_LOGDEV_SIZE:-0}
	_fstests_size_ok FSTESTS_SCRATCH_LOGDEV_SIZE "$_fst_logdev_size" 0
	_fst_rtdev_size=${FSTESTS_SCRATCH_RTDEV_SIZE:-0}
	_fstests_size_ok FSTESTS_SCRATCH_RTDEV_SIZE "$_fst_rtdev_size" 0
	[ "$_fst_logdev_size" = 0 ] || [ "$FSTYP" != btrfs ] ||
		rapido_fail "FSTESTS_SCRATCH_LOGDEV_SIZE: an external log is for xfs and ext4," \
			"not $FSTYP"
	[ "$_fst_rtdev_size" = 0 ] || [ "$FSTYP" = xfs ] ||
		rapido_fail "FSTESTS_SCRATCH_RTDEV_SIZE: a realtime device is for xfs, not $FSTYP"
	if [ -n "${FSTESTS_MKFS_OPTIONS+set}" ]; then
		_fst_mkfs_opts=$FSTESTS_MKFS_OPTIONS
	else
		_fst_mkfs_opts=$(_fstests_default_mkfs_options "$FSTYP")
	fi
	_fstests_opts_ok FSTESTS_MKFS_OPTIONS "$_fst_mkfs_opts"
	_fst_mount_opts=${FSTESTS_MOUNT_OPTIONS:-}
	_fstests_opts_ok FSTESTS_MOUNT_OPTIONS "$_fst_mount_opts"
	_fstests_selection_ok
	[ -z "${FSTESTS_CONFIG:-}" ] || [ -f "$_fstests_user_config" ] ||
		rapido_fail "FSTESTS_CONFIG=$FSTESTS_CONFIG is not in the image at $_fstests_user_config"
	# local.config's sections (see _fstests_write_config)
	_fst_user_sections=
	if [ -n "${FSTESTS_CONFIG:-}" ]; then
		_fst_user_sections=$(_fstests_user_sections "$_fstests_user_config") || exit 1
	fi
	_fst_sections=$FSTYP
	[ "$_fst_logdev_size$_fst_rtdev_size" = 00 ] || _fst_sections="$_fst_sections ${FSTYP}_external"
	_fst_sections="$_fst_sections${_fst_user_sections:+ $_fst_user_sections}"
	for s in ${FSTESTS_SECTION:-}; do
		case " $_fst_sections " in
		*" $s "*) ;;
		*) rapido_fail "FSTESTS_SECTION: no section '$s' in local.config (it has: $_fst_sections)" ;;
		esac
	done
	return 0
}

# _fstests_mkfs_args FS [MKFS_OPTIONS]: the --mkfs-arg options rapido-zram
# should pass to make FS as xfstests' _test_mkfs would: overwrite any old
# signature (rapido-zram adds -F for ext*), then MKFS_OPTIONS (words; by
# default no discard, see _fstests_default_mkfs_options; given empty: none)
_fstests_mkfs_args() {
	local o opts
	if [ $# -ge 2 ]; then opts=$2; else opts=$(_fstests_default_mkfs_options "$1"); fi
	case "$1" in
	btrfs|xfs) echo "--mkfs-arg -f" ;;
	esac
	for o in $opts; do
		echo "--mkfs-arg $o"
	done
}

# _fstests_zram_add LOG ARGS...: rapido-zram add ARGS; prints the device.
# mkfs chatter goes to LOG and is shown only when something fails.
_fstests_zram_add() {
	local log=$1 dev
	shift
	if ! dev=$(rapido-zram add "$@" 2> "$log"); then
		cat "$log" >&2
		return 1
	fi
	echo "$dev"
}

# _fstests_devices: the zram disks, in this order: TEST_DEV (made and
# mounted on TEST_DIR), SCRATCH_DEV or the SCRATCH_DEV_POOL disks (bare;
# by default SCSI disks: _fstests_scsi_pool), LOGWRITES_DEV,
# SCRATCH_LOGDEV, SCRATCH_RTDEV (each only when sized)
_fstests_devices() {
	local i dev
	# shellcheck disable=SC2046 # the mkfs arguments are words on purpose
	TEST_DEV=$(_fstests_zram_add /tmp/fstests-zram-test.log -s "$_fst_size" \
		--mkfs "$FSTYP" $(_fstests_mkfs_args "$FSTYP" "$_fst_mkfs_opts")) ||
		rapido_fail "cannot set up the test device ($FSTYP, $_fst_size, MKFS_OPTIONS" \
			"'$_fst_mkfs_opts'): see above (FSTESTS_ZRAM_SIZE: mkfs.btrfs 6.2" \
			"wants 109M or more, mkfs.xfs 6.1 300M)"
	mkdir -p "$TEST_DIR" "$SCRATCH_MNT" || rapido_fail "mkdir $TEST_DIR $SCRATCH_MNT failed"
	# shellcheck disable=SC2086 # MOUNT_OPTIONS are words, as xfstests uses them
	mount -t "$FSTYP" $_fst_mount_opts "$TEST_DEV" "$TEST_DIR" ||
		rapido_fail "mount -t $FSTYP $_fst_mount_opts $TEST_DEV $TEST_DIR failed" \
			"(FSTESTS_MOUNT_OPTIONS?)"
	SCRATCH_DEV=
	SCRATCH_DEV_POOL=
	if [ "$_fst_pool" = 0 ]; then
		SCRATCH_DEV=$(_fstests_zram_add /tmp/fstests-zram-scratch.log -s "$_fst_size") ||
			rapido_fail "cannot set up the scratch device ($_fst_size): see above"
	elif [ "$_fst_pool_devs" = scsi ]; then
		_fstests_scsi_pool
	else
		for ((i = 0; i < _fst_pool; i++)); do
			dev=$(_fstests_zram_add /tmp/fstests-zram-pool.log -s "$_fst_pool_size") ||
				rapido_fail "cannot set up scratch pool disk $((i + 1)) of $_fst_pool" \
					"($_fst_pool_size): see above"
			SCRATCH_DEV_POOL="$SCRATCH_DEV_POOL${SCRATCH_DEV_POOL:+ }$dev"
		done
	fi
	LOGWRITES_DEV= SCRATCH_LOGDEV= SCRATCH_RTDEV=
	if [ "$_fst_logw_size" != 0 ]; then
		LOGWRITES_DEV=$(_fstests_zram_add /tmp/fstests-zram-logw.log -s "$_fst_logw_size") ||
			rapido_fail "cannot set up LOGWRITES_DEV ($_fst_logw_size): see above"
	fi
	if [ "$_fst_logdev_size" != 0 ]; then
		SCRATCH_LOGDEV=$(_fstests_zram_add /tmp/fstests-zram-logdev.log \
			-s "$_fst_logdev_size") ||
			rapido_fail "cannot set up SCRATCH_LOGDEV ($_fst_logdev_size): see above"
	fi
	if [ "$_fst_rtdev_size" != 0 ]; then
		SCRATCH_RTDEV=$(_fstests_zram_add /tmp/fstests-zram-rtdev.log \
			-s "$_fst_rtdev_size") ||
			rapido_fail "cannot set up SCRATCH_RTDEV ($_fst_rtdev_size): see above"
	fi
}

# _fstests_scsi_disks: the disks of scsi_debug's hosts, /dev/sdX in host
# order, in REPLY; false until there are _fst_pool of them
_fstests_scsi_disks() {
	local h b devs=()
	for h in /sys/class/scsi_host/host*; do
		[ "$(< "$h/proc_name")" = scsi_debug ] 2> /dev/null || continue
		for b in "/sys/bus/scsi/devices/${h##*/host}:0:0:0/block"/*; do
			[ -e "$b" ] && [ -b "/dev/${b##*/}" ] && devs+=("/dev/${b##*/}")
		done
	done
	REPLY=${devs[*]}
	[ ${#devs[@]} -eq "$_fst_pool" ]
}

# _fstests_scsi_pool: SCRATCH_DEV_POOL as SCSI disks, one scsi_debug host
# each, each with its own RAM store (per_host_store). xfstests' device
# tests need SCSI disks: btrfs/003 (_require_deletable_scratch_dev_pool)
# drops a pool disk through /sys/class/scsi_device/H:C:T:L/device/delete
# and brings it back by scanning its host for C T L, which zram cannot do
# and tcm_loop refuses (its hosts take no scan: max_lun 0). The stores
# take their whole size of guest memory at once, hence the small default.
_fstests_scsi_pool() {
	local mb=${_fst_pool_size%[MG]}
	[ "${_fst_pool_size: -1}" = G ] && mb=$((mb * 1024))
	# 4096-byte sectors as zram has: dm-log-writes writes its log in the
	# data disk's sector size, which a zram LOGWRITES_DEV fails if smaller
	modprobe scsi_debug add_host="$_fst_pool" per_host_store=1 num_tgts=1 max_luns=1 \
		dev_size_mb="$mb" sector_size=4096 ||
		rapido_fail "modprobe scsi_debug failed: FSTESTS_SCRATCH_POOL_DEVS=scsi needs it" \
			"(CONFIG_SCSI_DEBUG) and sd_mod; FSTESTS_SCRATCH_POOL_DEVS=zram does without"
	modprobe sd_mod || rapido_fail "modprobe sd_mod failed (CONFIG_BLK_DEV_SD)"
	rapido_wait 60 _fstests_scsi_disks ||
		rapido_fail "scsi_debug: $_fst_pool disks expected, found: ${REPLY:-none}"
	SCRATCH_DEV_POOL=$REPLY
}

# _fstests_export: the environment the -x/-f extras and ./check get. With a
# pool, SCRATCH_DEV stays unset: xfstests' common/config refuses both and
# takes the pool's first disk as SCRATCH_DEV itself. The external devices
# belong to one local.config section, so they are not exported.
_fstests_export() {
	export FSTYP TEST_DEV TEST_DIR SCRATCH_MNT MKFS_OPTIONS="$_fst_mkfs_opts"
	if [ -n "$SCRATCH_DEV_POOL" ]; then
		unset SCRATCH_DEV
		export SCRATCH_DEV_POOL
	else
		unset SCRATCH_DEV_POOL
		export SCRATCH_DEV
	fi
	if [ -n "$LOGWRITES_DEV" ]; then export LOGWRITES_DEV; else unset LOGWRITES_DEV; fi
	if [ -n "$_fst_mount_opts" ]; then
		export MOUNT_OPTIONS="$_fst_mount_opts"
	else
		unset MOUNT_OPTIONS
	fi
}

# _fstests_summary: what was set up, one line each, for the console
_fstests_summary() {
	echo "fstests: $FSTYP on TEST_DEV=$TEST_DEV ($_fst_size) mounted at $TEST_DIR;" \
		"SCRATCH_MNT=$SCRATCH_MNT"
	if [ -n "$SCRATCH_DEV_POOL" ]; then
		echo "fstests: SCRATCH_DEV_POOL=\"$SCRATCH_DEV_POOL\" ($_fst_pool x" \
			"$_fst_pool_size $_fst_pool_devs disks, bare; SCRATCH_DEV unset, xfstests" \
			"takes the first)"
	else
		echo "fstests: SCRATCH_DEV=$SCRATCH_DEV ($_fst_size) bare, unmounted"
	fi
	[ -z "$LOGWRITES_DEV" ] || echo "fstests: LOGWRITES_DEV=$LOGWRITES_DEV ($_fst_logw_size)"
	[ -z "$SCRATCH_LOGDEV" ] ||
		echo "fstests: SCRATCH_LOGDEV=$SCRATCH_LOGDEV ($_fst_logdev_size)," \
			"USE_EXTERNAL=yes in section ${FSTYP}_external"
	[ -z "$SCRATCH_RTDEV" ] ||
		echo "fstests: SCRATCH_RTDEV=$SCRATCH_RTDEV ($_fst_rtdev_size)," \
			"USE_EXTERNAL=yes in section ${FSTYP}_external"
	echo "fstests: MKFS_OPTIONS='$_fst_mkfs_opts' MOUNT_OPTIONS='$_fst_mount_opts'"
}

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
	ceph) echo "$common $(_fstests_ceph_required_bins)" ;;
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

# _fstests_is_mounted DIR: 0 if something is mounted on DIR
_fstests_is_mounted() {
	local _ dir rest
	while read -r _ dir rest; do
		[ "$dir" = "$1" ] && return 0
	done < /proc/mounts
	return 1
}

# _fstests_add_users: the users and groups xfstests' tests run things as.
# The initramfs has no /etc/passwd of its own; the root file system is
# writable, so they are simply written (useradd is not needed).
_fstests_add_users() {
	local u uid=1000
	[ -e /etc/passwd ] || echo "root:x:0:0:root:/root:/bin/bash" > /etc/passwd
	[ -e /etc/group ] || echo "root:x:0:" > /etc/group
	grep -q '^nobody:' /etc/passwd ||
		echo "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin" >> /etc/passwd
	grep -q '^nogroup:' /etc/group || echo "nogroup:x:65534:" >> /etc/group
	for u in fsgqa fsgqa2 123456-fsgqa; do
		grep -q "^$u:" /etc/passwd ||
			echo "$u:x:$uid:$uid::/home/$u:/bin/bash" >> /etc/passwd
		grep -q "^$u:" /etc/group || echo "$u:x:$uid:" >> /etc/group
		mkdir -p "/home/$u" && chown "$uid:$uid" "/home/$u" 2>/dev/null
		uid=$((uid + 1))
	done
}

# sysfs, for the external log's sector size (tests point it elsewhere)
_fstests_sysfs=/sys

# _fstests_external_mkfs_options: MKFS_OPTIONS for the FSTYP_external
# section. A zram disk's logical block size is 4096, and mkfs.xfs 6.1
# gives an external log 512-byte sectors all the same ("the log subvolume
# sector size 512 is less than the sector size reported by the device"),
# then fails its writes with EINVAL: the log's sector size is given.
_fstests_external_mkfs_options() {
	local lbs=
	[ "$FSTYP" = xfs ] && [ -n "$SCRATCH_LOGDEV" ] &&
		read -r lbs < "$_fstests_sysfs/block/${SCRATCH_LOGDEV#/dev/}/queue/logical_block_size"
	if [ -n "$lbs" ] && [ "$lbs" -gt 512 ]; then
		echo "$_fst_mkfs_opts${_fst_mkfs_opts:+ }-l sectsize=$lbs"
	else
		echo "$_fst_mkfs_opts"
	fi
}

# _fstests_device_lines [MKFS_OPTIONS]: the settings every local.config
# section starts with, KEY="value" as xfstests' section parser wants them.
# MKFS_OPTIONS when fstests_local made the disks (fstests_cephfs has none).
_fstests_device_lines() {
	local mkfs=${1-${_fst_mkfs_opts-}}
	echo "FSTYP=$FSTYP"
	echo "TEST_DEV=$TEST_DEV"
	echo "TEST_DIR=$TEST_DIR"
	if [ -n "${SCRATCH_DEV_POOL:-}" ]; then
		echo "SCRATCH_DEV_POOL=\"$SCRATCH_DEV_POOL\""
	else
		echo "SCRATCH_DEV=$SCRATCH_DEV"
	fi
	echo "SCRATCH_MNT=$SCRATCH_MNT"
	[ -z "${LOGWRITES_DEV:-}" ] || echo "LOGWRITES_DEV=$LOGWRITES_DEV"
	[ -z "${_fst_mkfs_opts+set}" ] || echo "MKFS_OPTIONS=\"$mkfs\""
	[ -z "${_fst_mount_opts:-}" ] || echo "MOUNT_OPTIONS=\"$_fst_mount_opts\""
	[ -z "${RESULT_BASE:-}" ] || echo "RESULT_BASE=$RESULT_BASE"
	# ceph: "-o name=...,secret=..." (blanks, so quoted; plain config only)
	[ -z "${CEPHFS_MOUNT_OPTIONS:-}" ] ||
		printf 'CEPHFS_MOUNT_OPTIONS=%q\n' "$CEPHFS_MOUNT_OPTIONS"
}

# _fstests_external_lines: what the FSTYP_external section adds
_fstests_external_lines() {
	echo "USE_EXTERNAL=yes"
	[ -z "$SCRATCH_LOGDEV" ] || echo "SCRATCH_LOGDEV=$SCRATCH_LOGDEV"
	[ -z "$SCRATCH_RTDEV" ] || echo "SCRATCH_RTDEV=$SCRATCH_RTDEV"
}

# _fstests_user_sections FILE: check FSTESTS_CONFIG's sections and print
# their names. Its lines are "[name]", KEY=value, comments and blank lines;
# a setting before the first section would be ignored by xfstests, so it
# is refused.
_fstests_user_sections() {
	local line n=0 sect= names=()
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line%$'\r'}
		[[ "$line" =~ ^[[:space:]]*(#.*)?$ ]] && continue
		if [[ "$line" =~ ^\[([A-Za-z0-9_-]+)\][[:space:]]*$ ]]; then
			sect=${BASH_REMATCH[1]}
			case " $FSTYP ${FSTYP}_external ${names[*]} " in
			*" $sect "*) rapido_fail "FSTESTS_CONFIG line $n: section [$sect] is there twice" \
				"or is one rapido writes ($FSTYP, ${FSTYP}_external)" ;;
			esac
			names+=("$sect")
			continue
		fi
		[[ "$line" =~ ^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*= ]] ||
			rapido_fail "FSTESTS_CONFIG line $n: expected [section], KEY=value or" \
				"a comment, got: $line"
		[ -n "$sect" ] ||
			rapido_fail "FSTESTS_CONFIG line $n: a setting before the first [section]" \
				"(xfstests would ignore it): $line"
	done < "$1"
	[ ${#names[@]} -gt 0 ] || rapido_fail "FSTESTS_CONFIG has no [section]"
	echo "${names[*]}"
}

# _fstests_write_config FILE: xfstests' config for the devices set up at
# boot. One configuration is written plain (export KEY=value, as before).
# Sections are written when there are several configurations or
# FSTESTS_SECTION picks one: [FSTYP] with the devices, [FSTYP_external]
# with USE_EXTERNAL=yes and the external log/realtime devices when they
# were sized, then each FSTESTS_CONFIG section with the devices first and
# its own lines after (they win). _fstests_settings has checked
# FSTESTS_CONFIG and FSTESTS_SECTION and set _fst_sections (fstests_cephfs
# does not: one plain configuration).
_fstests_write_config() {
	local f=$1 line
	if [ -e "$f" ] && ! grep -q '^# written by rapido' "$f"; then
		mv "$f" "$f.orig" && echo "fstests: the tree's own $f kept as $f.orig"
	fi
	{
		echo "# written by rapido (profile $RAPIDO_PROFILE) at boot; not used outside the VM"
		if [ "${_fst_sections:-$FSTYP}" = "$FSTYP" ] && [ -z "${FSTESTS_SECTION:-}" ]; then
			_fstests_device_lines | sed 's/^/export /'
		else
			echo "[$FSTYP]"
			_fstests_device_lines
			if [ -n "${SCRATCH_LOGDEV:-}${SCRATCH_RTDEV:-}" ]; then
				echo
				echo "[${FSTYP}_external]"
				_fstests_device_lines "$(_fstests_external_mkfs_options)"
				_fstests_external_lines
			fi
			if [ -n "${_fst_user_sections:-}" ]; then
				while IFS= read -r line || [ -n "$line" ]; do
					line=${line%$'\r'}
					echo "$line"
					[[ "$line" =~ ^\[[A-Za-z0-9_-]+\] ]] && _fstests_device_lines
				done < "$_fstests_user_config"
			fi
		fi
		true	# the status is the redirection's
	} > "$f" || rapido_fail "cannot write $f"
}

# _fstests_commas WORDS: the words (spaces or commas between) joined by commas
_fstests_commas() {
	# shellcheck disable=SC2206 # split on purpose
	local w=(${1//,/ })
	local IFS=,
	echo "${w[*]}"
}

# _fstests_check_args: ./check's options from rapido.conf, in the array
# _fst_check_args: the sections (-s) and exclusions (-x, -e, -E);
# rapido_fstests_check puts them before its own arguments
_fstests_check_args() {
	local s
	_fst_check_args=()
	for s in ${FSTESTS_SECTION:-}; do
		_fst_check_args+=(-s "$s")
	done
	[ -z "${FSTESTS_EXCLUDE_GROUPS:-}" ] ||
		_fst_check_args+=(-x "$(_fstests_commas "$FSTESTS_EXCLUDE_GROUPS")")
	[ -z "${FSTESTS_EXCLUDE_TESTS:-}" ] ||
		_fst_check_args+=(-e "$(_fstests_commas "$FSTESTS_EXCLUDE_TESTS")")
	[ -z "${FSTESTS_EXCLUDE_FILE:-}" ] || _fst_check_args+=(-E "$_fstests_exclude_path")
	return 0
}

# _fstests_missing_libs DIR...: shared libraries that ELF programs under DIR
# need and the image lacks (./cut adds the libraries a files: tree's programs
# link that the host has). Prints them space separated. The loader
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

# _fstests_check_tree FSTYP: /fstests (FSTESTS_SRC) is a built xfstests tree
# with the programs it refuses to run without on FSTYP; warns about what
# would make tests fail (perl modules, an unbuilt ltp/, missing libraries)
_fstests_check_tree() {
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

# _fstests_run: local.config for the devices exported by the profile,
# results on the host (./vm --results DIR: DIR/files/fstests, or --share
# DIR), the users, then in /fstests the tests rapido.conf picks:
# FSTESTS_AUTORUN_CMD, or FSTESTS_GROUPS/FSTESTS_TESTS through
# rapido_fstests_check (the shell stays in /fstests for the -x/-f extras)
_fstests_run() {
	local sel=()
	if [ -n "${RAPIDO_RESULTS_DIR:-}" ]; then
		RESULT_BASE=$RAPIDO_RESULTS_DIR/fstests
		export RESULT_BASE
	elif _fstests_is_mounted /host; then
		RESULT_BASE=/host/results
		export RESULT_BASE
	fi
	_fstests_write_config /fstests/local.config
	# xfstests reads configs/$(hostname -s).config before local.config
	export HOST_OPTIONS=/fstests/local.config
	_fstests_add_users
	_fstests_check_args
	cd /fstests || rapido_fail "cd /fstests failed"
	echo "fstests: xfstests from $FSTESTS_SRC at /fstests, config /fstests/local.config," \
		"results in ${RESULT_BASE:-/fstests/results}"
	[ "${_fst_sections:-$FSTYP}" = "$FSTYP" ] ||
		echo "fstests: local.config sections: $_fst_sections"
	[ ${#_fst_check_args[@]} -eq 0 ] ||
		echo "fstests: rapido_fstests_check adds: ${_fst_check_args[*]}"
	if [ -n "${FSTESTS_AUTORUN_CMD:-}" ]; then
		echo "fstests: running FSTESTS_AUTORUN_CMD: $FSTESTS_AUTORUN_CMD"
		_fstests_autorun_cmd
	elif [ -n "${FSTESTS_GROUPS:-}${FSTESTS_TESTS:-}" ]; then
		[ -z "${FSTESTS_GROUPS:-}" ] || sel+=(-g "$(_fstests_commas "$FSTESTS_GROUPS")")
		# shellcheck disable=SC2206 # test names are words
		sel+=(${FSTESTS_TESTS//,/ })
		echo "fstests: running ./check ${_fst_check_args[*]} ${sel[*]}"
		rapido_fstests_check "${sel[@]}"
	fi
}

# _fstests_tee LOG: stdin to stdout and to LOG (tee, which is optional in
# the image, else line by line)
_fstests_tee() {
	local line
	if command -v tee > /dev/null; then
		tee -a "$1"
		return
	fi
	while IFS= read -r line || [ -n "$line" ]; do
		printf '%s\n' "$line"
		printf '%s\n' "$line" >> "$1"
	done
}

# how long the end of FSTESTS_AUTORUN_CMD's output may take to be copied
_fstests_tee_wait=30

# _fstests_gone PID: 0 once process PID is gone
_fstests_gone() {
	! kill -0 "$1" 2> /dev/null
}

# _fstests_autorun_cmd: FSTESTS_AUTORUN_CMD in this shell (it may call
# rapido_fstests_check, set variables, cd), under pipefail so that a
# "./check ... | tee" keeps check's status. Its output is kept too: a
# plain ./check writes no result.xml without -R xunit, so its tests are
# recorded from the lines it printed once the command is done, and from a
# result.xml it wrote (-R xunit), each test once. Returns the command's
# status as _fstests_res_end gives it (a failed test or none: see there).
_fstests_autorun_cmd() {
	local from rc log=/tmp/fstests-autorun.log pf=+o fd pid
	_fstests_res_begin
	from=$REPLY
	: > "$log"
	# the copy's pid before the command can start jobs of its own
	exec {fd}> >(_fstests_tee "$log")
	pid=$!
	[ -o pipefail ] && pf=-o
	set -o pipefail
	eval "$FSTESTS_AUTORUN_CMD" >&"$fd" 2>&1
	rc=$?
	set "$pf" pipefail
	exec {fd}>&-
	# the copy ends when the last writer is gone: a process the command
	# left running may hold its output open, so the wait has an end
	if rapido_wait "$_fstests_tee_wait" _fstests_gone "$pid"; then
		wait "$pid"
	else
		echo "fstests: warning: a process FSTESTS_AUTORUN_CMD started still holds its" \
			"output: results printed after this are not recorded"
	fi
	_fstests_res_lines "$from" < "$log"
	_fstests_res_import "$from"
	_fstests_res_end "$from" "$rc" FSTESTS_AUTORUN_CMD
}

# ---- per-test results (autorun/lib/results.sh) ----
# Every test recorded in this boot is a "NAME STATE" line (STATE pass, fail
# or skip) of this file, so that a test is recorded once per ./check run
# even when its console line and its result.xml testcase both say it
_fstests_res_done=/tmp/fstests-recorded

# rapido_fstests_check [CHECK-ARGS...]: ./check -R xunit, the sections and
# exclusions rapido.conf asks for (FSTESTS_SECTION, FSTESTS_EXCLUDE_*:
# _fst_check_args), then ARGS, in the current directory (/fstests). Each
# test is a testcase of ./vm --results as soon as check prints its line:
# "[not run] why" is skipped with the reason, an output mismatch or
# "[failed, ...]" a failure with its .out.bad and .dmesg, "- unknown test"
# a failure (check ignores a mistyped name), anything else with a time a
# pass; with local.config sections a test is named SECTION:TEST (check runs
# it once per section). Tests the console lines missed are taken from
# result.xml at the end (an older one is removed first). With ./vm --shard
# I/N only this shard's part of the list `./check -n ARGS` prints is run,
# so groups (-g) and excludes (-x, -e, -E, -X) work as in xfstests; a
# `./check -n` that fails or lists no test at all fails the shard.
# Returns check's status; 1 if check passed but a test was recorded as
# failed; check's status with a testcase "fstests/check" of its own when
# check failed and no test did (it could not start).
rapido_fstests_check() {
	local from rc
	_fstests_res_begin
	from=$REPLY
	set -- "${_fst_check_args[@]}" "$@"
	if [ -n "${RAPIDO_SHARD:-}" ]; then
		_fstests_shard_args "$@"
		_fstests_shard_list || {
			rc=$?
			_fstests_res_end "$from" "$rc" "./check -n" "$(< /tmp/fstests-list.log)"
			return
		}
		[ ${#_fstests_shard[@]} -gt 0 ] || return 0
		set -- "${_fstests_opts[@]}" "${_fstests_shard[@]}"
	fi
	_fstests_res_sect=
	# not a pipeline: the reader records in this shell, check's status is
	# the process substitution's
	_fstests_res_stream < <(./check -R xunit "$@" 2>&1)
	wait $!
	rc=$?
	_fstests_res_import "$from"
	_fstests_res_end "$from" "$rc" ./check
}

# _fstests_shard_args CHECK-ARGS...: split ./check's arguments into the
# options every run takes (_fstests_opts) and the test selection the list
# is made from (_fstests_sel: -g -x -e -E -X and test names)
_fstests_shard_args() {
	local a
	_fstests_opts=() _fstests_sel=()
	while [ $# -gt 0 ]; do
		a=$1
		shift
		case $a in
		-g|-x|-e|-E|-X) _fstests_sel+=("$a" "${1:-}"); shift ;;
		# -R xunit: rapido_fstests_check gives it
		-R) shift ;;
		-s|-S|-i|-I|-L) _fstests_opts+=("$a" "${1:-}"); shift ;;
		-n) ;;
		-*) _fstests_opts+=("$a") ;;
		*) _fstests_sel+=("$a") ;;
		esac
	done
}

# _fstests_shard_list: the tests of this shard (_fstests_shard) from the
# list `./check -n` prints for _fstests_opts and _fstests_sel, each test
# once (sections list it again), expunged ones left out, an unknown name
# kept (its run says so, and fails). Fails with check's status, or 1 when
# the list names no test: a mistyped group (-g quik) or a config error
# would otherwise give every shard "0 tests" and a green merge. -n makes
# and mounts the scratch file system as a run does, and writes no
# result.xml without -R.
_fstests_shard_list() {
	local t rest rc n=0 log=/tmp/fstests-list.log
	local -A seen=()
	_fstests_shard=()
	./check -n "${_fstests_opts[@]}" "${_fstests_sel[@]}" > "$log" 2>&1
	rc=$?
	while read -r t rest; do
		[[ $t =~ ^[a-z0-9_.-]+/[0-9]+$ ]] || continue
		n=$((n + 1))
		[[ $rest == *"[expunged]"* ]] && continue
		[ -z "${seen[$t]:-}" ] || continue
		seen[$t]=1
		rapido_test_in_shard "$t" && _fstests_shard+=("$t")
	done < "$log"
	if [ $rc -ne 0 ] || [ $n -eq 0 ]; then
		cat "$log"
		t="./check -n${_fstests_opts[*]:+ ${_fstests_opts[*]}}${_fstests_sel[*]:+ ${_fstests_sel[*]}}"
		if [ $rc -ne 0 ]; then
			echo "fstests: shard $RAPIDO_SHARD: $t failed (exit $rc): no test list to shard"
		else
			echo "fstests: shard $RAPIDO_SHARD: $t listed no test"
			rc=1
		fi
		return $rc
	fi
	echo "fstests: shard $RAPIDO_SHARD: ${#_fstests_shard[@]} of ${#seen[@]} tests:" \
		"${_fstests_shard[*]}"
}

# _fstests_res_begin: a ./check run starts: the result.xml files of an
# earlier run (in the same results directory) are removed, so that they
# are never imported for this one; REPLY: where this run's records start
# in _fstests_res_done
_fstests_res_begin() {
	local f base=${RESULT_BASE:-/fstests/results} n=0 _
	for f in "$base"/result.xml "$base"/*/result.xml; do
		[ -e "$f" ] || continue
		# no rm in an image without xfstests' tools: emptied, it names no test
		rm -f "$f" 2> /dev/null || : > "$f" ||
			rapido_fail "cannot remove the old $f (it would be taken for this run's)"
	done
	if [ -e "$_fstests_res_done" ]; then
		while read -r _; do n=$((n + 1)); done < "$_fstests_res_done"
	else
		: > "$_fstests_res_done"
	fi
	REPLY=$n
}

# _fstests_res_seen FROM: the names recorded after line FROM of
# _fstests_res_done as keys of _fstests_res_seen_set; REPLY: 1 if one of
# them failed, else empty
_fstests_res_seen() {
	local n=0 name st
	declare -gA _fstests_res_seen_set=()
	REPLY=
	while read -r name st; do
		n=$((n + 1))
		[ $n -gt "$1" ] || continue
		_fstests_res_seen_set[$name]=1
		[ "$st" = fail ] && REPLY=1
	done < "$_fstests_res_done"
}

# _fstests_res_end FROM STATUS WHAT [OUTPUT]: the status of a ./check run
# (WHAT: the command) whose records start after line FROM: STATUS, but 1
# when it is 0 and a test failed (an unknown test name), and a failure of
# its own ("fstests/check") when STATUS is not 0 and no test failed: check
# did not get to run one, and junit.xml must say so
_fstests_res_end() {
	local rc=$2
	_fstests_res_seen "$1"
	if [ "$rc" -ne 0 ] && [ -z "$REPLY" ]; then
		rapido_test_fail fstests/check "$3 exited $rc and no test failed: it could not run" \
			"${4:-}" > /dev/null
		echo "fstests: $3 exited $rc and no test failed: it could not run (see above)"
		echo "fstests/check fail" >> "$_fstests_res_done"
	elif [ "$rc" -eq 0 ] && [ -n "$REPLY" ]; then
		rc=1
	fi
	return "$rc"
}

# check prints a test's name, runs it, then ends the line with the result:
# a read that times out with the name alone means the test has started.
# "SECTION       -- NAME" starts a section (local.config has sections).
# check prints "- output mismatch (see NAME.out.bad)" before it moves the
# output there, so that line is recorded at the next one (the diff check
# prints after the move) or at the end.
_fstests_res_stream() {
	local buf= chunk st cur= held= held_cur= held_sect=
	while :; do
		chunk=
		IFS= read -r -t 1 chunk
		st=$?
		buf+=$chunk
		if [ $st -gt 128 ]; then
			if [ -z "$cur" ] && [[ $buf =~ ^([a-z0-9_.-]+/[0-9]+)[[:space:]] ]]; then
				cur=${_fstests_res_sect:+$_fstests_res_sect:}${BASH_REMATCH[1]}
				rapido_test_start "$cur"
			fi
			continue
		fi
		_fstests_res_held
		[ $st -ne 0 ] && [ -z "$buf" ] && break
		printf '%s\n' "$buf"
		[[ $buf =~ ^SECTION[[:space:]]+--[[:space:]]+([A-Za-z0-9_-]+) ]] &&
			_fstests_res_sect=${BASH_REMATCH[1]}
		if [[ $buf == *"output mismatch"* ]]; then
			held=$buf held_cur=$cur held_sect=${_fstests_res_sect:-}
		else
			_fstests_res_line "$buf" "$cur"
		fi
		cur=
		buf=
		[ $st -eq 0 ] || break
	done
	_fstests_res_held
}

# _fstests_res_held: record the line _fstests_res_stream holds, if any, in
# the section it came in
_fstests_res_held() {
	local sect=${_fstests_res_sect:-}
	[ -n "$held" ] || return 0
	_fstests_res_sect=$held_sect
	_fstests_res_line "$held" "$held_cur"
	_fstests_res_sect=$sect
	held=
}

# _fstests_res_lines FROM: the result lines of check's output on stdin
# (printed already) recorded, but not the tests recorded after line FROM
# of _fstests_res_done (rapido_fstests_check's own, in the same output)
_fstests_res_lines() {
	local line name
	_fstests_res_seen "$1"
	_fstests_res_sect=
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%$'\r'}
		[[ $line =~ ^SECTION[[:space:]]+--[[:space:]]+([A-Za-z0-9_-]+) ]] &&
			_fstests_res_sect=${BASH_REMATCH[1]}
		[[ $line =~ ^([a-z0-9_.-]+/[0-9]+)[[:space:]] ]] || continue
		name=${_fstests_res_sect:+$_fstests_res_sect:}${BASH_REMATCH[1]}
		[ -z "${_fstests_res_seen_set[$name]:-}" ] || continue
		_fstests_res_line "$line" ""
	done
	_fstests_res_sect=
}

# _fstests_res_line LINE STARTED: record the test LINE is the result of.
# A name alone (./check -n lists tests so, padded) and the summary of a
# loop (-L: "NAME aggregate results across N runs", its runs were
# recorded) are no result.
_fstests_res_line() {
	local name rest secs=0 out= f st dir=${RESULT_BASE:-/fstests/results}
	[[ $1 =~ ^([a-z0-9_.-]+/[0-9]+)[[:space:]]+(.*[^[:space:]])[[:space:]]*$ ]] || return 0
	name=${BASH_REMATCH[1]}
	rest=${BASH_REMATCH[2]}
	[[ $rest == "aggregate results across "* ]] && return 0
	[[ $rest =~ ([0-9]+)s[[:space:]]*$ ]] && secs=${BASH_REMATCH[1]}
	if [ -n "${_fstests_res_sect:-}" ]; then
		dir+=/$_fstests_res_sect
		name=$_fstests_res_sect:$name
	fi
	if [ "$2" != "$name" ]; then
		# no start seen: check's own time for the test
		_rapido_res_now
		_rapido_res_t0[$name]=$((REPLY - secs * 1000000))
	fi
	case $rest in
	*"[not run]"*) st=skip; rapido_test_skip "$name" "${rest#*"[not run]" }" > /dev/null ;;
	*"[expunged]"*) st=skip; rapido_test_skip "$name" "expunged" > /dev/null ;;
	*"output mismatch"*|*"[failed"*|*_check_*|*"no qualified output"*)
		st=fail
		for f in "$dir/${name#*:}.out.bad" "$dir/${name#*:}.dmesg"; do
			[ -r "$f" ] && out+="==> $f <=="$'\n'"$(< "$f")"$'\n'
		done
		rapido_test_fail "$name" "$rest" "$out" > /dev/null
		;;
	*[0-9]s) st=pass; rapido_test_pass "$name" > /dev/null ;;
	*) st=fail; rapido_test_fail "$name" "$rest" > /dev/null ;;
	esac
	echo "$name $st" >> "$_fstests_res_done"
}

# _fstests_res_import FROM: the testcases of result.xml not recorded after
# line FROM of _fstests_res_done; a section's (RESULT_BASE/SECTION/
# result.xml) named SECTION:TEST
_fstests_res_import() {
	local f xml chunk name msg sect st base=${RESULT_BASE:-/fstests/results}
	_fstests_res_seen "$1"
	for f in "$base"/result.xml "$base"/*/result.xml; do
		[ -r "$f" ] || continue
		sect=
		[ "$f" = "$base/result.xml" ] || { sect=${f%/result.xml}; sect=${sect##*/}:; }
		xml=$(< "$f")
		while [[ $xml == *"<testcase"* ]]; do
			xml=${xml#*<testcase}
			chunk=${xml%%<testcase*}
			[[ $chunk =~ [[:space:]]name=\"([^\"]*)\" ]] || continue
			name=$sect${BASH_REMATCH[1]}
			[ -z "${_fstests_res_seen_set[$name]:-}" ] || continue
			_fstests_res_seen_set[$name]=1
			msg=
			[[ $chunk =~ message=\"([^\"]*)\" ]] && msg=${BASH_REMATCH[1]}
			msg=${msg//&lt;/<}
			msg=${msg//&gt;/>}
			msg=${msg//&quot;/\"}
			msg=${msg//&amp;/&}
			case $chunk in
			*"<skipped"*) st=skip; rapido_test_skip "$name" "$msg" ;;
			*"<failure"*|*"<error"*) st=fail; rapido_test_fail "$name" "${msg:-failed}" ;;
			*) st=pass; rapido_test_pass "$name" ;;
			esac
			echo "$name $st" >> "$_fstests_res_done"
		done
	done
}
