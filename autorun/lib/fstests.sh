# SPDX-License-Identifier: GPL-2.0
# fstests.sh: guest shell functions for the fstests_* profiles (xfstests set-up).
# Sourced into every image before the profile, so it only defines functions.

# Filesystems the fstests profiles can make and mount on a zram disk.
_fstests_known_fs="btrfs xfs ext4"

# _fstests_check_fs FS: fail with a clear message unless FS is usable here
_fstests_check_fs() {
	local fs=$1
	case " $_fstests_known_fs " in
	*" $fs "*) ;;
	*) rapido_fail "FSTESTS_FS='$fs' is not supported: use one of: $_fstests_known_fs" ;;
	esac
	# the init loaded the modules the image has; a kernel may build it in
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

# _fstests_mkfs_args FS: the --mkfs-arg options rapido-zram should pass:
# overwrite any old signature (rapido-zram adds -F for ext*), and no
# discard: a new zram disk holds nothing to discard
_fstests_mkfs_args() {
	case "$1" in
	btrfs|xfs) echo "--mkfs-arg -f --mkfs-arg -K" ;;
	ext2|ext3|ext4) echo "--mkfs-arg -E --mkfs-arg nodiscard" ;;
	esac
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
	ceph) echo "$common" ;;
	esac
}

# Wanted by many tests (_require_* skips or fails them without these).
_fstests_wanted_bins="fio getfattr setfattr getfacl setfacl chattr lsattr findmnt blkid
	blockdev dd hostname getconf killall fuser filefrag fallocate losetup dmsetup
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

# _fstests_write_config FILE: xfstests' config for the devices set up at boot
_fstests_write_config() {
	local f=$1
	if [ -e "$f" ] && ! grep -q '^# written by rapido' "$f"; then
		mv "$f" "$f.orig" && echo "fstests: the tree's own $f kept as $f.orig"
	fi
	{
		echo "# written by rapido (profile $RAPIDO_PROFILE) at boot; not used outside the VM"
		echo "export FSTYP=$FSTYP"
		echo "export TEST_DEV=$TEST_DEV"
		echo "export TEST_DIR=$TEST_DIR"
		echo "export SCRATCH_DEV=$SCRATCH_DEV"
		echo "export SCRATCH_MNT=$SCRATCH_MNT"
		[ -n "${RESULT_BASE:-}" ] && echo "export RESULT_BASE=$RESULT_BASE"
		# ceph: "-o name=...,secret=..." (with blanks, so quoted)
		if [ -n "${CEPHFS_MOUNT_OPTIONS:-}" ]; then
			printf 'export CEPHFS_MOUNT_OPTIONS=%q\n' "$CEPHFS_MOUNT_OPTIONS"
		fi
	} > "$f"
}

# _fstests_missing_libs DIR...: shared libraries that ELF programs under DIR
# need and the image lacks (./cut copies a files: tree as it is, without the
# libraries its programs link). Prints them space separated. The loader
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
# DIR), the users, then in /fstests FSTESTS_AUTORUN_CMD (the shell stays
# there for the -x/-f extras)
_fstests_run() {
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
	cd /fstests || rapido_fail "cd /fstests failed"
	echo "fstests: xfstests from $FSTESTS_SRC at /fstests, config /fstests/local.config," \
		"results in ${RESULT_BASE:-/fstests/results}"
	if [ -n "${FSTESTS_AUTORUN_CMD:-}" ]; then
		echo "fstests: running FSTESTS_AUTORUN_CMD: $FSTESTS_AUTORUN_CMD"
		_fstests_res_done=/tmp/fstests-recorded
		: > "$_fstests_res_done"
		rm -f "${RESULT_BASE:-/fstests/results}/result.xml" 2> /dev/null
		eval "$FSTESTS_AUTORUN_CMD"
		# a plain ./check in the command: its result.xml gives the testcases
		[ -z "${RAPIDO_RESULTS_PORT:-}" ] || _fstests_res_import
	fi
}

# ---- per-test results (autorun/lib/results.sh) ----
# rapido_fstests_check [CHECK-ARGS...]: ./check -R xunit ARGS in the current
# directory (/fstests), each test a testcase of ./vm --results as soon as
# check prints its line: "[not run] why" is skipped with the reason, an
# output mismatch or "[failed, ...]" a failure with its .out.bad and
# .dmesg, anything else with a time a pass. Tests the console lines missed
# are taken from result.xml at the end. With ./vm --shard I/N only this
# shard's part of the list `./check -n ARGS` prints is run, so groups (-g)
# and excludes (-x, -e, -E, -X) work as in xfstests. Returns check's status.
rapido_fstests_check() {
	local -a opts=() list=() _fstests_sel=()
	local a t rest rc
	_fstests_res_done=/tmp/fstests-recorded
	: > "$_fstests_res_done"
	if [ -n "${RAPIDO_SHARD:-}" ]; then
		while [ $# -gt 0 ]; do
			a=$1
			shift
			case $a in
			-g|-x|-e|-E|-X) _fstests_sel+=("$a" "${1:-}"); shift ;;
			-s|-S|-R|-i|-I|-L) opts+=("$a" "${1:-}"); shift ;;
			-n) ;;
			-*) opts+=("$a") ;;
			*) _fstests_sel+=("$a") ;;
			esac
		done
		while read -r t rest; do
			[[ $t =~ ^[a-z0-9_.-]+/[0-9]+$ ]] || continue
			[[ $rest == *"[expunged]"* ]] && continue
			rapido_test_in_shard "$t" && list+=("$t")
		done < <(./check -n "${opts[@]}" "${_fstests_sel[@]}" 2>&1)
		echo "fstests: shard $RAPIDO_SHARD: ${#list[@]} tests: ${list[*]}"
		[ ${#list[@]} -gt 0 ] || return 0
		set -- "${opts[@]}" "${list[@]}"
	fi
	./check -R xunit "$@" 2>&1 | _fstests_res_stream
	rc=${PIPESTATUS[0]}
	_fstests_res_import
	return "$rc"
}

# check prints a test's name, runs it, then ends the line with the result:
# a read that times out with the name alone means the test has started
_fstests_res_stream() {
	local buf= chunk st cur=
	while :; do
		chunk=
		IFS= read -r -t 1 chunk
		st=$?
		buf+=$chunk
		if [ $st -gt 128 ]; then
			if [ -z "$cur" ] && [[ $buf =~ ^([a-z0-9_.-]+/[0-9]+)[[:space:]] ]]; then
				cur=${BASH_REMATCH[1]}
				rapido_test_start "$cur"
			fi
			continue
		fi
		[ $st -ne 0 ] && [ -z "$buf" ] && break
		printf '%s\n' "$buf"
		_fstests_res_line "$buf" "$cur"
		cur=
		buf=
		[ $st -eq 0 ] || break
	done
}

# _fstests_res_line LINE STARTED: record the test LINE is the result of
_fstests_res_line() {
	local name rest secs=0 out= f
	[[ $1 =~ ^([a-z0-9_.-]+/[0-9]+)[[:space:]]+(.*)$ ]] || return 0
	name=${BASH_REMATCH[1]}
	rest=${BASH_REMATCH[2]}
	[[ $rest =~ ([0-9]+)s[[:space:]]*$ ]] && secs=${BASH_REMATCH[1]}
	if [ "$2" != "$name" ]; then
		# no start seen: check's own time for the test
		_rapido_res_now
		_rapido_res_t0[$name]=$((REPLY - secs * 1000000))
	fi
	case $rest in
	*"[not run]"*) rapido_test_skip "$name" "${rest#*"[not run]" }" > /dev/null ;;
	*"[expunged]"*) rapido_test_skip "$name" "expunged" > /dev/null ;;
	*"output mismatch"*|*"[failed"*|*_check_*|*"no qualified output"*)
		for f in "${RESULT_BASE:-results}/$name.out.bad" "${RESULT_BASE:-results}/$name.dmesg"; do
			[ -r "$f" ] && out+="==> $f <=="$'\n'"$(< "$f")"$'\n'
		done
		rapido_test_fail "$name" "$rest" "$out" > /dev/null
		;;
	*[0-9]s) rapido_test_pass "$name" > /dev/null ;;
	*) rapido_test_fail "$name" "$rest" > /dev/null ;;
	esac
	echo "$name" >> "$_fstests_res_done"
}

# _fstests_res_import: the testcases of result.xml not recorded from the console
_fstests_res_import() {
	local f xml chunk name msg
	local -A done=()
	while read -r name; do done[$name]=1; done < "$_fstests_res_done"
	for f in "${RESULT_BASE:-results}"/result.xml "${RESULT_BASE:-results}"/*/result.xml; do
		[ -r "$f" ] || continue
		xml=$(< "$f")
		while [[ $xml == *"<testcase"* ]]; do
			xml=${xml#*<testcase}
			chunk=${xml%%<testcase*}
			[[ $chunk =~ [[:space:]]name=\"([^\"]*)\" ]] || continue
			name=${BASH_REMATCH[1]}
			[ -z "${done[$name]:-}" ] || continue
			done[$name]=1
			msg=
			[[ $chunk =~ message=\"([^\"]*)\" ]] && msg=${BASH_REMATCH[1]}
			msg=${msg//&lt;/<}
			msg=${msg//&gt;/>}
			msg=${msg//&quot;/\"}
			msg=${msg//&amp;/&}
			case $chunk in
			*"<skipped"*) rapido_test_skip "$name" "$msg" ;;
			*"<failure"*|*"<error"*) rapido_test_fail "$name" "${msg:-failed}" ;;
			*) rapido_test_pass "$name" ;;
			esac
		done
	done
}
