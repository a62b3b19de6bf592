# SPDX-License-Identifier: GPL-2.0
# fstests-settings.sh: the FSTESTS_* keys of the fstests_* profiles, read and
# checked before a disk is made, each bad value refused naming its key:
#   fstests_settings        every key fstests_local reads, into _fstests_cfg
#   fstests_selection_ok    the keys that pick ./check's tests (fstests_cephfs)
# Sourced into every image before the profile, so it only defines functions.

# What fstests_settings resolved, for the devices (fstests-devices.sh) and
# local.config (fstests-config.sh): size, pool, pool_devs, pool_size,
# logw_size, logdev_size, rtdev_size (sizes; 0: no such device), mkfs_opts,
# mount_opts, user_sections (FSTESTS_CONFIG's) and sections (every one
# local.config will have). fstests_cephfs makes no disks: no mkfs_opts.
declare -gA _fstests_cfg=()

# Filesystems the fstests profiles can make and mount on a zram disk
# (fstests_local's conf-type FSTESTS_FS says the same, for ./cut)
_fstests_known_fs="btrfs xfs ext4 f2fs exfat udf ntfs3"

# _fstests_fs_package FS: the Debian package of FS's mkfs and fsck
_fstests_fs_package() {
	case $1 in
	btrfs) echo btrfs-progs ;;
	xfs) echo xfsprogs ;;
	ext4) echo e2fsprogs ;;
	f2fs) echo f2fs-tools ;;
	exfat) echo exfatprogs ;;
	udf) echo udftools ;;
	ntfs3) echo ntfs-3g ;;
	esac
}

# _fstests_ntfs3_progs: xfstests makes and checks ntfs3 as mkfs -t ntfs3 and
# fsck -t ntfs3 -n, and rapido-zram runs mkfs.ntfs3: ntfs-3g's mkfs.ntfs
# and ntfsfix (-n writes nothing; it compares $MFT with $MFTMirr and reads
# the boot sector, no consistency check: ntfs3 runs are all but unchecked)
# under those names, as upstream Rapido's fstests_ntfs3 links mkfs.ntfs3
_fstests_ntfs3_progs() {
	local mk fix d
	mk=$(command -v mkfs.ntfs) || return 0
	d=${mk%/*}
	[ -e "$d/mkfs.ntfs3" ] || ln -s "$mk" "$d/mkfs.ntfs3" ||
		rapido_fail "cannot link $d/mkfs.ntfs3 to $mk"
	fix=$(command -v ntfsfix) || return 0
	[ -e "$d/fsck.ntfs3" ] || ln -s "$fix" "$d/fsck.ntfs3" ||
		rapido_fail "cannot link $d/fsck.ntfs3 to $fix"
}

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
	[ "$fs" != ntfs3 ] || _fstests_ntfs3_progs
	command -v "mkfs.$fs" > /dev/null ||
		rapido_fail "mkfs.$fs is not in the image: install it on the host" \
			"(Debian package $(_fstests_fs_package "$fs")) and ./cut again"
}

# _fstests_check_overlay: the kernel has overlayfs (FSTESTS_OVERLAY=1),
# its module (on demand) loaded here
_fstests_check_overlay() {
	modprobe -q overlay 2> /dev/null
	grep -qw overlay /proc/filesystems ||
		rapido_fail "FSTESTS_OVERLAY=1: kernel $(uname -r 2> /dev/null) has no overlay" \
			"file system (no module overlay in the image, not built in)"
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

# fstests_selection_ok: the keys that pick ./check's tests (-s, -g, -x,
# -e, -E and test names) are well formed, FSTESTS_GROUPS/FSTESTS_TESTS
# have a tree and no FSTESTS_AUTORUN_CMD beside them; fstests_local
# (through fstests_settings) and fstests_cephfs check them so
fstests_selection_ok() {
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

# fstests_settings: read and check every FSTESTS_* key before a disk is
# made, into _fstests_cfg. The defaults make what xfstests' device
# tests need: a pool of five scratch disks for btrfs (four for the raid
# tests and a spare for the replace tests) and a dm-log-writes log device.
fstests_settings() {
	local def_pool=0 s
	FSTYP=${FSTESTS_FS:-btrfs}
	_fstests_check_fs "$FSTYP"
	_fstests_cfg[size]=${FSTESTS_ZRAM_SIZE:-1G}
	_fstests_size_ok FSTESTS_ZRAM_SIZE "${_fstests_cfg[size]}"
	[ "$FSTYP" = btrfs ] && def_pool=5
	# zoned: xfs has zoned devices from Linux 6.15 only, ext4 none
	_fstests_cfg[zoned]=${FSTESTS_ZONED:-}
	_fstests_cfg[zone_size]=${FSTESTS_ZONE_SIZE:-16}
	if [ -n "${_fstests_cfg[zoned]}" ]; then
		case ${_fstests_cfg[zoned]} in
		null_blk|scsi_debug) ;;
		*) rapido_fail "FSTESTS_ZONED='${_fstests_cfg[zoned]}': expected null_blk or scsi_debug" ;;
		esac
		[ "$FSTYP" = btrfs ] ||
			rapido_fail "FSTESTS_ZONED: zoned devices take btrfs here, not $FSTYP (xfs has" \
				"them from Linux 6.15 and xfsprogs 6.15, ext4 not at all)"
		[[ ${_fstests_cfg[size]} =~ ^[0-9]+[MG]$ ]] ||
			rapido_fail "FSTESTS_ZRAM_SIZE='${_fstests_cfg[size]}': a zoned disk is sized in whole" \
				"MiB or GiB (e.g. 512M)"
		[[ ${_fstests_cfg[zone_size]} =~ ^[1-9][0-9]*$ ]] ||
			rapido_fail "FSTESTS_ZONE_SIZE='${_fstests_cfg[zone_size]}': expected MiB, e.g. 16"
		# one SCRATCH_DEV, no log device (dm-log-writes replays onto a
		# regular disk): both may still be asked for
		def_pool=0
		: "${FSTESTS_LOGWRITES_SIZE:=0}"
	fi
	# FSTESTS_OVERLAY=1: ./check -overlay, overlayfs over FSTYP's test and
	# scratch file systems (xfstests' README.overlay): one SCRATCH_DEV,
	# made here, as check -overlay makes no file system of its own
	_fstests_cfg[overlay]=${FSTESTS_OVERLAY:-0}
	case ${_fstests_cfg[overlay]} in
	0) ;;
	1)
		[ -z "${_fstests_cfg[zoned]}" ] ||
			rapido_fail "FSTESTS_OVERLAY=1 and FSTESTS_ZONED: overlayfs runs over a regular" \
				"test and scratch disk here"
		# overlayfs keeps its own state in trusted.* xattrs on the upper
		# file system, and exfat and udf have no xattrs
		case $FSTYP in
		exfat|udf) rapido_fail "FSTESTS_OVERLAY=1: overlayfs needs xattrs on its upper" \
			"file system, which $FSTYP has not: use btrfs, xfs, ext4, f2fs or ntfs3" ;;
		esac
		def_pool=0
		_fstests_check_overlay
		;;
	*) rapido_fail "FSTESTS_OVERLAY='${_fstests_cfg[overlay]}': expected 0 or 1 (./check -overlay)" ;;
	esac
	_fstests_cfg[pool]=${FSTESTS_SCRATCH_POOL:-$def_pool}
	[[ "${_fstests_cfg[pool]}" =~ ^([0-9]|1[0-6])$ ]] && [ "${_fstests_cfg[pool]}" != 1 ] ||
		rapido_fail "FSTESTS_SCRATCH_POOL='${_fstests_cfg[pool]}': expected 0 (one SCRATCH_DEV)" \
			"or a number of disks from 2 to 16"
	[ "${_fstests_cfg[pool]}" = 0 ] || [ "${_fstests_cfg[overlay]}" = 0 ] ||
		rapido_fail "FSTESTS_SCRATCH_POOL=${_fstests_cfg[pool]}: ./check -overlay" \
			"(FSTESTS_OVERLAY=1) takes one SCRATCH_DEV: set it to 0"
	[ "${_fstests_cfg[pool]}" = 0 ] || [ "$FSTYP" = btrfs ] ||
		rapido_fail "FSTESTS_SCRATCH_POOL=${_fstests_cfg[pool]}: xfstests uses SCRATCH_DEV_POOL for" \
			"btrfs only (FSTESTS_FS=$FSTYP): set it to 0"
	_fstests_cfg[pool_devs]=${FSTESTS_SCRATCH_POOL_DEVS:-scsi}
	case "${_fstests_cfg[pool_devs]}" in
	scsi) _fstests_cfg[pool_size]=${FSTESTS_SCRATCH_POOL_SIZE:-256M} ;;
	zram) _fstests_cfg[pool_size]=${FSTESTS_SCRATCH_POOL_SIZE:-${_fstests_cfg[size]}} ;;
	*) rapido_fail "FSTESTS_SCRATCH_POOL_DEVS='${_fstests_cfg[pool_devs]}': expected scsi (scsi_debug" \
		"disks, which tests can drop and scan back as btrfs/003 does) or zram" \
		"(plain zram disks)" ;;
	esac
	_fstests_size_ok FSTESTS_SCRATCH_POOL_SIZE "${_fstests_cfg[pool_size]}"
	[ "${_fstests_cfg[pool_devs]}" = zram ] || [[ "${_fstests_cfg[pool_size]}" =~ ^[0-9]+[MG]$ ]] ||
		rapido_fail "FSTESTS_SCRATCH_POOL_SIZE='${_fstests_cfg[pool_size]}': a scsi_debug disk is" \
			"sized in whole MiB or GiB (e.g. 256M)"
	_fstests_cfg[logw_size]=${FSTESTS_LOGWRITES_SIZE:-${_fstests_cfg[size]}}
	_fstests_size_ok FSTESTS_LOGWRITES_SIZE "${_fstests_cfg[logw_size]}" 0
	_fstests_cfg[logdev_size]=${FSTESTS_SCRATCH_LOGDEV_SIZE:-0}
	_fstests_size_ok FSTESTS_SCRATCH_LOGDEV_SIZE "${_fstests_cfg[logdev_size]}" 0
	_fstests_cfg[rtdev_size]=${FSTESTS_SCRATCH_RTDEV_SIZE:-0}
	_fstests_size_ok FSTESTS_SCRATCH_RTDEV_SIZE "${_fstests_cfg[rtdev_size]}" 0
	[ "${_fstests_cfg[logdev_size]}" = 0 ] || [ "$FSTYP" = xfs ] || [ "$FSTYP" = ext4 ] ||
		rapido_fail "FSTESTS_SCRATCH_LOGDEV_SIZE: an external log is for xfs and ext4," \
			"not $FSTYP"
	[ "${_fstests_cfg[rtdev_size]}" = 0 ] || [ "$FSTYP" = xfs ] ||
		rapido_fail "FSTESTS_SCRATCH_RTDEV_SIZE: a realtime device is for xfs, not $FSTYP"
	if [ -n "${FSTESTS_MKFS_OPTIONS+set}" ]; then
		_fstests_cfg[mkfs_opts]=$FSTESTS_MKFS_OPTIONS
	else
		_fstests_cfg[mkfs_opts]=$(zram_default_mkfs_options "$FSTYP")
	fi
	_fstests_opts_ok FSTESTS_MKFS_OPTIONS "${_fstests_cfg[mkfs_opts]}"
	_fstests_cfg[mount_opts]=${FSTESTS_MOUNT_OPTIONS:-}
	_fstests_opts_ok FSTESTS_MOUNT_OPTIONS "${_fstests_cfg[mount_opts]}"
	fstests_selection_ok
	[ -z "${FSTESTS_CONFIG:-}" ] || [ -f "$_fstests_user_config" ] ||
		rapido_fail "FSTESTS_CONFIG=$FSTESTS_CONFIG is not in the image at $_fstests_user_config"
	# local.config's sections (see _fstests_write_config)
	_fstests_cfg[user_sections]=
	if [ -n "${FSTESTS_CONFIG:-}" ]; then
		_fstests_user_sections "$_fstests_user_config"
		_fstests_cfg[user_sections]=$REPLY
	fi
	s=$FSTYP
	[ "${_fstests_cfg[logdev_size]}${_fstests_cfg[rtdev_size]}" = 00 ] || s+=" ${FSTYP}_external"
	_fstests_cfg[sections]=$s${_fstests_cfg[user_sections]:+ ${_fstests_cfg[user_sections]}}
	for s in ${FSTESTS_SECTION:-}; do
		case " ${_fstests_cfg[sections]} " in
		*" $s "*) ;;
		*) rapido_fail "FSTESTS_SECTION: no section '$s' in local.config (it has: ${_fstests_cfg[sections]})" ;;
		esac
	done
	return 0
}

# _fstests_user_sections FILE: check FSTESTS_CONFIG's sections; their
# names in REPLY, space separated (read in this shell, so that
# rapido_fail stops the profile). Its lines are "[name]", KEY=value, comments and blank lines;
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
	REPLY=${names[*]}
}
