# SPDX-License-Identifier: GPL-2.0
# fstests-config.sh: what xfstests reads at /fstests: local.config for the
# devices, the users its tests run as, ./check's options from rapido.conf
# Sourced into every image before the profile, so it only defines functions.

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
		echo "${_fstests_cfg[mkfs_opts]}${_fstests_cfg[mkfs_opts]:+ }-l sectsize=$lbs"
	else
		echo "${_fstests_cfg[mkfs_opts]}"
	fi
}

# _fstests_device_lines [MKFS_OPTIONS]: the settings every local.config
# section starts with, KEY="value" as xfstests' section parser wants them.
# MKFS_OPTIONS when fstests_local made the disks (fstests_cephfs has none).
_fstests_device_lines() {
	local mkfs=${1-${_fstests_cfg[mkfs_opts]-}}
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
	[ -z "${_fstests_cfg[mkfs_opts]+set}" ] || echo "MKFS_OPTIONS=\"$mkfs\""
	[ -z "${_fstests_cfg[mount_opts]:-}" ] || echo "MOUNT_OPTIONS=\"${_fstests_cfg[mount_opts]}\""
	[ -z "${RESULT_BASE:-}" ] || echo "RESULT_BASE=$RESULT_BASE"
	# udf: xfstests checks it with Philips' udf_test, which no package has;
	# without it every test fails on the check unless it is turned off
	[ "$FSTYP" != udf ] || [ -x /fstests/src/udf_test ] || echo "DISABLE_UDF_TEST=1"
	# ceph: "-o name=...,secret=..." (blanks, so quoted; plain config only)
	[ -z "${CEPHFS_MOUNT_OPTIONS:-}" ] ||
		printf 'CEPHFS_MOUNT_OPTIONS=%q\n' "$CEPHFS_MOUNT_OPTIONS"
	# nfs: "-o vers=4.2" (fstests_nfs)
	[ -z "${NFS_MOUNT_OPTIONS:-}" ] || printf 'NFS_MOUNT_OPTIONS=%q\n' "$NFS_MOUNT_OPTIONS"
	# cifs: "-o vers=3.1.1,username=...,password=..." (fstests_cifs)
	[ -z "${CIFS_MOUNT_OPTIONS:-}" ] || printf 'CIFS_MOUNT_OPTIONS=%q\n' "$CIFS_MOUNT_OPTIONS"
}

# _fstests_external_lines: what the FSTYP_external section adds
_fstests_external_lines() {
	echo "USE_EXTERNAL=yes"
	[ -z "$SCRATCH_LOGDEV" ] || echo "SCRATCH_LOGDEV=$SCRATCH_LOGDEV"
	[ -z "$SCRATCH_RTDEV" ] || echo "SCRATCH_RTDEV=$SCRATCH_RTDEV"
}

# _fstests_write_config FILE: xfstests' config for the devices set up at
# boot. One configuration is written plain (export KEY=value, as before).
# Sections are written when there are several configurations or
# FSTESTS_SECTION picks one: [FSTYP] with the devices, [FSTYP_external]
# with USE_EXTERNAL=yes and the external log/realtime devices when they
# were sized, then each FSTESTS_CONFIG section with the devices first and
# its own lines after (they win). fstests_settings has checked
# FSTESTS_CONFIG and FSTESTS_SECTION and set _fstests_cfg[sections]
# (fstests_cephfs does not: one plain configuration).
_fstests_write_config() {
	local f=$1 line
	if [ -e "$f" ] && ! grep -q '^# written by rapido' "$f"; then
		mv "$f" "$f.orig" && echo "fstests: the tree's own $f kept as $f.orig"
	fi
	{
		echo "# written by rapido (profile $RAPIDO_PROFILE) at boot; not used outside the VM"
		if [ "${_fstests_cfg[sections]:-$FSTYP}" = "$FSTYP" ] && [ -z "${FSTESTS_SECTION:-}" ]; then
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
			if [ -n "${_fstests_cfg[user_sections]:-}" ]; then
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
# _fstests_check_opts: -overlay (FSTESTS_OVERLAY=1), the sections (-s) and
# exclusions (-x, -e, -E);
# rapido_fstests_check puts them before its own arguments
_fstests_check_args() {
	local s
	_fstests_check_opts=()
	[ "${_fstests_cfg[overlay]:-0}" = 0 ] || _fstests_check_opts+=(-overlay)
	for s in ${FSTESTS_SECTION:-}; do
		_fstests_check_opts+=(-s "$s")
	done
	[ -z "${FSTESTS_EXCLUDE_GROUPS:-}" ] ||
		_fstests_check_opts+=(-x "$(_fstests_commas "$FSTESTS_EXCLUDE_GROUPS")")
	[ -z "${FSTESTS_EXCLUDE_TESTS:-}" ] ||
		_fstests_check_opts+=(-e "$(_fstests_commas "$FSTESTS_EXCLUDE_TESTS")")
	[ -z "${FSTESTS_EXCLUDE_FILE:-}" ] || _fstests_check_opts+=(-E "$_fstests_exclude_path")
	return 0
}
