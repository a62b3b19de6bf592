# SPDX-License-Identifier: GPL-2.0
# fstests-devices.sh: fstests_local's disks: the zram test and scratch
# disks, the scsi_debug pool, the log devices, and their environment.
# Sourced into every image before the profile, so it only defines functions.

# fstests_devices: after fstests_settings, the disks it asked for made,
# TEST_DEV mounted on TEST_DIR, the environment xfstests reads exported,
# and what was set up said on the console
fstests_devices() {
	_rapido_mark "fstests_devices (bash, libraries, settings)"
	_fstests_make_devices
	_fstests_export
	_fstests_summary
	_rapido_mark "fstests_devices: exported, said"
}

# _fstests_make_devices: the zram disks, in this order: TEST_DEV (made and
# mounted on TEST_DIR), SCRATCH_DEV or the SCRATCH_DEV_POOL disks (bare;
# by default SCSI disks: _fstests_scsi_pool), LOGWRITES_DEV,
# SCRATCH_LOGDEV, SCRATCH_RTDEV (each only when sized)
_fstests_make_devices() {
	local i dev
	if [ -n "${_fstests_cfg[zoned]}" ]; then
		_fstests_zoned_devices
		return
	fi
	# shellcheck disable=SC2046 # the mkfs arguments are words on purpose
	TEST_DEV=$(zram_add /tmp/fstests-zram-test.log -s "${_fstests_cfg[size]}" \
		--mkfs "$FSTYP" $(zram_mkfs_args "$FSTYP" "${_fstests_cfg[mkfs_opts]}")) ||
		rapido_fail "cannot set up the test device ($FSTYP, ${_fstests_cfg[size]}, MKFS_OPTIONS" \
			"'${_fstests_cfg[mkfs_opts]}'): see above (FSTESTS_ZRAM_SIZE: mkfs.btrfs 6.2" \
			"wants 109M or more, mkfs.xfs 6.1 300M)"
	_rapido_mark "TEST_DEV: zram, mkfs.$FSTYP"
	mkdir -p "$TEST_DIR" "$SCRATCH_MNT" || rapido_fail "mkdir $TEST_DIR $SCRATCH_MNT failed"
	# shellcheck disable=SC2086 # MOUNT_OPTIONS are words, as xfstests uses them
	mount -t "$FSTYP" ${_fstests_cfg[mount_opts]} "$TEST_DEV" "$TEST_DIR" ||
		rapido_fail "mount -t $FSTYP ${_fstests_cfg[mount_opts]} $TEST_DEV $TEST_DIR failed" \
			"(FSTESTS_MOUNT_OPTIONS?)"
	_rapido_mark "TEST_DEV mounted"
	SCRATCH_DEV=
	SCRATCH_DEV_POOL=
	if [ "${_fstests_cfg[overlay]:-0}" = 1 ]; then
		# ./check -overlay mounts the scratch base file system, never makes it
		# shellcheck disable=SC2046 # the mkfs arguments are words on purpose
		SCRATCH_DEV=$(zram_add /tmp/fstests-zram-scratch.log -s "${_fstests_cfg[size]}" \
			--mkfs "$FSTYP" $(zram_mkfs_args "$FSTYP" "${_fstests_cfg[mkfs_opts]}")) ||
			rapido_fail "cannot set up the scratch device with $FSTYP for -overlay: see above"
	elif [ "${_fstests_cfg[pool]}" = 0 ]; then
		SCRATCH_DEV=$(zram_add /tmp/fstests-zram-scratch.log -s "${_fstests_cfg[size]}") ||
			rapido_fail "cannot set up the scratch device (${_fstests_cfg[size]}): see above"
	elif [ "${_fstests_cfg[pool_devs]}" = scsi ]; then
		_fstests_scsi_pool
	else
		for ((i = 0; i < _fstests_cfg[pool]; i++)); do
			dev=$(zram_add /tmp/fstests-zram-pool.log -s "${_fstests_cfg[pool_size]}") ||
				rapido_fail "cannot set up scratch pool disk $((i + 1)) of ${_fstests_cfg[pool]}" \
					"(${_fstests_cfg[pool_size]}): see above"
			SCRATCH_DEV_POOL="$SCRATCH_DEV_POOL${SCRATCH_DEV_POOL:+ }$dev"
		done
	fi
	_rapido_mark "scratch disks"
	LOGWRITES_DEV= SCRATCH_LOGDEV= SCRATCH_RTDEV=
	if [ "${_fstests_cfg[logw_size]}" != 0 ]; then
		LOGWRITES_DEV=$(zram_add /tmp/fstests-zram-logw.log -s "${_fstests_cfg[logw_size]}") ||
			rapido_fail "cannot set up LOGWRITES_DEV (${_fstests_cfg[logw_size]}): see above"
	fi
	if [ "${_fstests_cfg[logdev_size]}" != 0 ]; then
		SCRATCH_LOGDEV=$(zram_add /tmp/fstests-zram-logdev.log \
			-s "${_fstests_cfg[logdev_size]}") ||
			rapido_fail "cannot set up SCRATCH_LOGDEV (${_fstests_cfg[logdev_size]}): see above"
	fi
	if [ "${_fstests_cfg[rtdev_size]}" != 0 ]; then
		SCRATCH_RTDEV=$(zram_add /tmp/fstests-zram-rtdev.log \
			-s "${_fstests_cfg[rtdev_size]}") ||
			rapido_fail "cannot set up SCRATCH_RTDEV (${_fstests_cfg[rtdev_size]}): see above"
	fi
}

# _fstests_mib SIZE: SIZE (whole M or G) in MiB, in REPLY
_fstests_mib() {
	REPLY=${1%[MG]}
	[ "${1: -1}" = G ] && REPLY=$((REPLY * 1024))
	return 0
}

# _fstests_zoned_devices: FSTESTS_ZONED's disks (blkdevs.sh): TEST_DEV
# with FSTYP (btrfs finds the zones itself: mkfs.btrfs makes a zoned file
# system on a zoned disk) mounted on TEST_DIR, SCRATCH_DEV or the pool
# bare; all of FSTESTS_ZRAM_SIZE (pool: FSTESTS_SCRATCH_POOL_SIZE), zones
# of FSTESTS_ZONE_SIZE MiB, the first one conventional
_fstests_zoned_devices() {
	local kind=${_fstests_cfg[zoned]}_zoned zs=${_fstests_cfg[zone_size]} mb i
	_fstests_mib "${_fstests_cfg[size]}"
	mb=$REPLY
	blkdev_make "$kind" "$mb" "$zs" ||
		rapido_fail "cannot make the zoned test device ($kind, ${mb}M, ${zs}M zones): see above"
	TEST_DEV=$REPLY
	blkdev_zoned_ok "$TEST_DEV" || rapido_fail "$TEST_DEV ($kind) reports no zones"
	# shellcheck disable=SC2086 # MKFS_OPTIONS are words, as xfstests uses them
	"mkfs.$FSTYP" -f ${_fstests_cfg[mkfs_opts]} "$TEST_DEV" > /tmp/fstests-mkfs-test.log 2>&1 || {
		cat /tmp/fstests-mkfs-test.log
		rapido_fail "mkfs.$FSTYP -f ${_fstests_cfg[mkfs_opts]} $TEST_DEV (zoned, ${zs}M zones) failed"
	}
	mkdir -p "$TEST_DIR" "$SCRATCH_MNT" || rapido_fail "mkdir $TEST_DIR $SCRATCH_MNT failed"
	# shellcheck disable=SC2086 # MOUNT_OPTIONS are words
	mount -t "$FSTYP" ${_fstests_cfg[mount_opts]} "$TEST_DEV" "$TEST_DIR" ||
		rapido_fail "mount -t $FSTYP ${_fstests_cfg[mount_opts]} $TEST_DEV $TEST_DIR failed"
	SCRATCH_DEV= SCRATCH_DEV_POOL= LOGWRITES_DEV= SCRATCH_LOGDEV= SCRATCH_RTDEV=
	if [ "${_fstests_cfg[pool]}" = 0 ]; then
		blkdev_make "$kind" "$mb" "$zs" ||
			rapido_fail "cannot make the zoned scratch device ($kind, ${mb}M): see above"
		SCRATCH_DEV=$REPLY
	else
		_fstests_mib "${_fstests_cfg[pool_size]}"
		for ((i = 0; i < _fstests_cfg[pool]; i++)); do
			blkdev_make "$kind" "$REPLY" "$zs" ||
				rapido_fail "cannot make zoned pool disk $((i + 1)) ($kind): see above"
			SCRATCH_DEV_POOL="$SCRATCH_DEV_POOL${SCRATCH_DEV_POOL:+ }$REPLY"
			_fstests_mib "${_fstests_cfg[pool_size]}"
		done
	fi
	[ "${_fstests_cfg[logw_size]}" = 0 ] ||
		LOGWRITES_DEV=$(zram_add /tmp/fstests-zram-logw.log -s "${_fstests_cfg[logw_size]}") ||
		rapido_fail "cannot set up LOGWRITES_DEV (${_fstests_cfg[logw_size]}): see above"
}

# _fstests_scsi_disks: the disks of scsi_debug's hosts, /dev/sdX in host
# order, in REPLY; false until there are _fstests_cfg[pool] of them
_fstests_scsi_disks() {
	local h b devs=()
	for h in /sys/class/scsi_host/host*; do
		[ "$(< "$h/proc_name")" = scsi_debug ] 2> /dev/null || continue
		for b in "/sys/bus/scsi/devices/${h##*/host}:0:0:0/block"/*; do
			[ -e "$b" ] && [ -b "/dev/${b##*/}" ] && devs+=("/dev/${b##*/}")
		done
	done
	REPLY=${devs[*]}
	[ ${#devs[@]} -eq "${_fstests_cfg[pool]}" ]
}

# _fstests_scsi_pool: SCRATCH_DEV_POOL as SCSI disks, one scsi_debug host
# each, each with its own RAM store (per_host_store). xfstests' device
# tests need SCSI disks: btrfs/003 (_require_deletable_scratch_dev_pool)
# drops a pool disk through /sys/class/scsi_device/H:C:T:L/device/delete
# and brings it back by scanning its host for C T L, which zram cannot do
# and tcm_loop refuses (its hosts take no scan: max_lun 0). The stores
# take their whole size of guest memory at once, hence the small default.
_fstests_scsi_pool() {
	local mb=${_fstests_cfg[pool_size]%[MG]}
	[ "${_fstests_cfg[pool_size]: -1}" = G ] && mb=$((mb * 1024))
	# 4096-byte sectors as zram has: dm-log-writes writes its log in the
	# data disk's sector size, which a zram LOGWRITES_DEV fails if smaller
	modprobe scsi_debug add_host="${_fstests_cfg[pool]}" per_host_store=1 num_tgts=1 max_luns=1 \
		dev_size_mb="$mb" sector_size=4096 ||
		rapido_fail "modprobe scsi_debug failed: FSTESTS_SCRATCH_POOL_DEVS=scsi needs it" \
			"(CONFIG_SCSI_DEBUG) and sd_mod; FSTESTS_SCRATCH_POOL_DEVS=zram does without"
	modprobe sd_mod || rapido_fail "modprobe sd_mod failed (CONFIG_BLK_DEV_SD)"
	rapido_wait 60 _fstests_scsi_disks ||
		rapido_fail "scsi_debug: ${_fstests_cfg[pool]} disks expected, found: ${REPLY:-none}"
	SCRATCH_DEV_POOL=$REPLY
}

# _fstests_export: the environment the -x/-f extras and ./check get. With a
# pool, SCRATCH_DEV stays unset: xfstests' common/config refuses both and
# takes the pool's first disk as SCRATCH_DEV itself. The external devices
# belong to one local.config section, so they are not exported.
_fstests_export() {
	export FSTYP TEST_DEV TEST_DIR SCRATCH_MNT MKFS_OPTIONS="${_fstests_cfg[mkfs_opts]}"
	if [ -n "$SCRATCH_DEV_POOL" ]; then
		unset SCRATCH_DEV
		export SCRATCH_DEV_POOL
	else
		unset SCRATCH_DEV_POOL
		export SCRATCH_DEV
	fi
	if [ -n "$LOGWRITES_DEV" ]; then export LOGWRITES_DEV; else unset LOGWRITES_DEV; fi
	if [ -n "${_fstests_cfg[mount_opts]}" ]; then
		export MOUNT_OPTIONS="${_fstests_cfg[mount_opts]}"
	else
		unset MOUNT_OPTIONS
	fi
}

# _fstests_summary: what was set up, one line each, for the console
_fstests_summary() {
	echo "fstests: $FSTYP on TEST_DEV=$TEST_DEV (${_fstests_cfg[size]}${_fstests_cfg[zoned]:+, zoned}) mounted at $TEST_DIR;" \
		"SCRATCH_MNT=$SCRATCH_MNT"
	[ -z "${_fstests_cfg[zoned]}" ] ||
		echo "fstests: zoned ${_fstests_cfg[zoned]} disks, ${_fstests_cfg[zone_size]}M zones:" \
			"$(< "/sys/block/${TEST_DEV##*/}/queue/zoned") on TEST_DEV"
	if [ -n "$SCRATCH_DEV_POOL" ]; then
		echo "fstests: SCRATCH_DEV_POOL=\"$SCRATCH_DEV_POOL\" (${_fstests_cfg[pool]} x" \
			"${_fstests_cfg[pool_size]} ${_fstests_cfg[pool_devs]} disks, bare;" \
			"SCRATCH_DEV unset, xfstests takes the first)"
	elif [ "${_fstests_cfg[overlay]:-0}" = 1 ]; then
		echo "fstests: SCRATCH_DEV=$SCRATCH_DEV (${_fstests_cfg[size]}) with $FSTYP, unmounted;" \
			"./check -overlay: overlayfs over both (FSTESTS_OVERLAY=1)"
	else
		echo "fstests: SCRATCH_DEV=$SCRATCH_DEV (${_fstests_cfg[size]}) bare, unmounted"
	fi
	[ -z "$LOGWRITES_DEV" ] || echo "fstests: LOGWRITES_DEV=$LOGWRITES_DEV (${_fstests_cfg[logw_size]})"
	[ -z "$SCRATCH_LOGDEV" ] ||
		echo "fstests: SCRATCH_LOGDEV=$SCRATCH_LOGDEV (${_fstests_cfg[logdev_size]})," \
			"USE_EXTERNAL=yes in section ${FSTYP}_external"
	[ -z "$SCRATCH_RTDEV" ] ||
		echo "fstests: SCRATCH_RTDEV=$SCRATCH_RTDEV (${_fstests_cfg[rtdev_size]})," \
			"USE_EXTERNAL=yes in section ${FSTYP}_external"
	echo "fstests: MKFS_OPTIONS='${_fstests_cfg[mkfs_opts]}' MOUNT_OPTIONS='${_fstests_cfg[mount_opts]}'"
}
