# SPDX-License-Identifier: GPL-2.0
# blktests.sh: the blktests profile's steps (blktests at /blktests):
#   blktests_devices         TEST_DEVS made from BLKTESTS_DEVS (blkdevs.sh)
#   blktests_run             ./check per group of the selection, each test
#                            a result of ./vm --results (results.sh)
#   blktests_res_line LINE   one line of ./check's output recorded
# Sourced into every image before the profile, so it only defines functions.

# the device kinds BLKTESTS_DEVS may name (#@ conf-type says so to ./cut)
_blktests_kinds="zram null_blk null_blk_zoned scsi_debug scsi_debug_zoned brd loop"
# the groups these devices serve: the default selection
_blktests_groups="block loop scsi zbd nvme"
_blktests_cfg=/tmp/blktests.config
_blktests_devs=()
_blktests_dev_kind=()

# blktests_devices: one device per BLKTESTS_DEVS word, BLKTESTS_DEV_SIZE
# (MiB, default 256) each, zones of BLKTESTS_ZONE_SIZE MiB (default 4);
# fails naming the kind that could not be made
blktests_devices() {
	local k
	rapido_words "${BLKTESTS_DEVS:-}"
	for k in "${RAPIDO_WORDS[@]}"; do
		[[ " $_blktests_kinds " == *" $k "* ]] ||
			rapido_fail "BLKTESTS_DEVS: unknown device kind '$k' (known: $_blktests_kinds)"
		_blktests_dev_kind+=("$k")
		_blktests_devs+=("")
	done
	_blktests_devices_ensure
}

# _blktests_devices_ensure: each device of BLKTESTS_DEVS there, made (again)
# where it is gone: blktests' own null_blk and scsi_debug tests unload
# those modules, and their devices with them
_blktests_devices_ensure() {
	local i k d
	for i in "${!_blktests_dev_kind[@]}"; do
		k=${_blktests_dev_kind[$i]}
		d=${_blktests_devs[$i]}
		[ -n "$d" ] && [ -b "$d" ] && [ -e "/sys/block/${d##*/}" ] && continue
		blkdev_make "$k" "${BLKTESTS_DEV_SIZE:-256}" "${BLKTESTS_ZONE_SIZE:-4}" ||
			rapido_fail "blktests: cannot make a $k device for TEST_DEVS: see above"
		case $k in
		*_zoned)
			blkdev_zoned_ok "$REPLY" || rapido_fail "blktests: $REPLY ($k) reports no zones"
			;;
		esac
		_blktests_devs[$i]=$REPLY
		echo "blktests: TEST_DEVS: $REPLY ($k${d:+, again: $d was gone})"
	done
}

# _blktests_write_config: the config ./check loads first (-c), as a
# blktests user writes one: the devices, nvme over TCP on loopback (the
# Debian kernel has no nvme-loop, blktests' default); BLKTESTS_CONFIG's
# file is loaded after it, so it may change any of these
_blktests_write_config() {
	{
		echo "# written by rapido's blktests profile"
		printf 'TEST_DEVS=('
		printf ' %q' "${_blktests_devs[@]}"
		printf ' )\n'
		echo "NVMET_TRTYPES=tcp"
	} > "$_blktests_cfg" || rapido_fail "cannot write $_blktests_cfg"
}

# _blktests_selection: the groups to run, in order, in _blktests_sel_groups,
# and each group's words (a group, or its tests) in _blktests_sel[GROUP]
_blktests_selection() {
	local w g
	declare -gA _blktests_sel=()
	_blktests_sel_groups=()
	rapido_words "${BLKTESTS_TESTS:-$_blktests_groups}"
	for w in "${RAPIDO_WORDS[@]}"; do
		w=${w#tests/}
		g=${w%%/*}
		[ -n "${_blktests_sel[$g]+set}" ] || _blktests_sel_groups+=("$g")
		_blktests_sel[$g]+="${_blktests_sel[$g]:+ }$w"
	done
}

# _blktests_excluded TEST: TEST or its group is in BLKTESTS_EXCLUDE
_blktests_excluded() {
	local w
	rapido_words "${BLKTESTS_EXCLUDE:-}"
	for w in "${RAPIDO_WORDS[@]}"; do
		[ "$w" = "$1" ] || [ "$w" = "${1%%/*}" ] && return 0
	done
	return 1
}

# _blktests_shard WORDS...: with ./vm --shard I/N, this shard's tests of
# WORDS (groups expanded from the tree, BLKTESTS_EXCLUDE left out: check
# does not exclude a test named on its command line) in _blktests_w
_blktests_shard() {
	local w t out=()
	for w; do
		if [ -d "tests/$w" ]; then
			for t in "tests/$w"/[0-9][0-9][0-9]; do
				[ -f "$t" ] || continue
				t=${t#tests/}
				_blktests_excluded "$t" || ! rapido_test_in_shard "$t" || out+=("$t")
			done
		elif ! _blktests_excluded "$w" && rapido_test_in_shard "$w"; then
			out+=("$w")
		fi
	done
	_blktests_w=("${out[@]}")
}

# blktests_run: in /blktests, ./check -c the profile's config [-c
# BLKTESTS_CONFIG's] -o RESULTS -x each BLKTESTS_EXCLUDE, once per group
# of BLKTESTS_TESTS (default: the groups the devices serve), the devices
# made again before each where a test took them. Returns 1 if a test
# failed or a check could not run (see _blktests_check).
blktests_run() {
	local g rc=0 x=() w
	rapido_words "${BLKTESTS_EXCLUDE:-}"
	for w in "${RAPIDO_WORDS[@]}"; do
		x+=(-x "$w")
	done
	_blktests_out=/blktests/results
	if [ -n "${RAPIDO_RESULTS_DIR:-}" ]; then
		_blktests_out=$RAPIDO_RESULTS_DIR/blktests
	elif rapido_mounted /host; then
		_blktests_out=/host/results/blktests
	fi
	_blktests_selection
	# the nvme tests (nvmet) and null_blk's need configfs at
	# /sys/kernel/config (common/rc's _have_configfs), which the init
	# mounts only when its module was loaded at boot
	modprobe configfs 2> /dev/null
	# a SCSI disk is sd_mod's: blktests' own scsi_debug tests (block/001,
	# scsi/004, zbd/008...) make their disks and wait for them to appear,
	# which without udev (nothing loads a module by its alias here) they
	# never do unless sd_mod is loaded first
	modprobe sd_mod 2> /dev/null ||
		echo "blktests: warning: modprobe sd_mod failed: the scsi_debug tests will find no disk"
	# the cgroup tests (block/027, block/037: _have_cgroup2) and block/036
	# (debugfs) look for the mounts a booted system has
	rapido_mounted /sys/fs/cgroup cgroup2 || mount -t cgroup2 cgroup2 /sys/fs/cgroup ||
		echo "blktests: warning: cannot mount cgroup2 on /sys/fs/cgroup: the cgroup tests will not run"
	rapido_mounted /sys/kernel/debug debugfs || mount -t debugfs debugfs /sys/kernel/debug ||
		echo "blktests: warning: cannot mount debugfs on /sys/kernel/debug"
	rapido_mounted /sys/kernel/config configfs ||
		mount -t configfs configfs /sys/kernel/config ||
		echo "blktests: warning: configfs is not mounted at /sys/kernel/config: the nvme tests will not run"
	echo "blktests: groups ${_blktests_sel_groups[*]}, results in $_blktests_out"
	for g in "${_blktests_sel_groups[@]}"; do
		# shellcheck disable=SC2086 # words
		set -- ${_blktests_sel[$g]}
		if [ -n "${RAPIDO_SHARD:-}" ]; then
			_blktests_shard "$@"
			set -- "${_blktests_w[@]}"
			if [ $# -eq 0 ]; then
				echo "blktests: shard $RAPIDO_SHARD: no test of $g"
				continue
			fi
		fi
		_blktests_devices_ensure
		_blktests_write_config
		_blktests_expected "$@"
		_blktests_check "${x[@]}" "$@" || rc=1
		_blktests_reported || rc=1
	done
	return $rc
}

# _blktests_expected WORDS...: the tests ./check will run for WORDS (a
# group's tests less the configs' EXCLUDE, -x's and, under QUICK_RUN,
# those neither QUICK nor TIMED; under DEVICE_ONLY those without
# test_device; a named test always), as check's _found_test picks them,
# in _blktests_exp; "TEST dev" for a device test, "TEST none" for one
# check runs on no device (no TEST_DEVS, no fallback_device: it prints
# nothing for it)
_blktests_expected() {
	mapfile -t _blktests_exp < <(
		TEST_DEVS=() EXCLUDE=() QUICK_RUN=0 DEVICE_ONLY=0
		for c in "$_blktests_cfg" /etc/rapido/blktests.config; do
			# shellcheck disable=SC1090
			[ ! -r "$c" ] || . "$c" > /dev/null 2>&1
		done
		for w; do
			if [ -d "tests/$w" ]; then
				for t in "tests/$w"/[0-9][0-9][0-9]; do
					t=${t#tests/}
					[ -f "tests/$t" ] && ! _blktests_excluded "$t" &&
						[[ " ${EXCLUDE[*]} " != *" $t "* && " ${EXCLUDE[*]} " != *" $w "* ]] &&
						_blktests_expected_one "$t" 0
				done
			elif [ -f "tests/$w" ]; then
				_blktests_expected_one "$w" 1
			fi
		done)
}

# _blktests_expected_one TEST EXPLICIT: TEST's line of _blktests_expected
# (in its subshell: TEST_DEVS, QUICK_RUN and DEVICE_ONLY of the configs)
_blktests_expected_one() {
	(
		unset QUICK TIMED
		unset -f test_device fallback_device
		# shellcheck disable=SC1090
		. "tests/$1" > /dev/null 2>&1 || exit 0
		if declare -F test_device > /dev/null; then
			kind=dev
			[ ${#TEST_DEVS[@]} -gt 0 ] || declare -F fallback_device > /dev/null || kind=none
		else
			kind=nodev
			[ "$2" = 1 ] || [ "${DEVICE_ONLY:-0}" = 0 ] || exit 0
		fi
		[ "$2" = 1 ] || (( ! QUICK_RUN || QUICK || TIMED )) || exit 0
		echo "$1 $kind"
	)
}

# _blktests_reported: each test of _blktests_exp ended as a record (any
# device, condition); one of a group skipped ("GROUP/*** [not run]", on a
# device for a device test) or run on no device is a skip; any other
# without a verdict an error (rapido_test_reported). Returns 1 if any.
_blktests_reported() {
	local k l t g ids=()
	local -A grp=()
	_rapido_res_file
	if [ -e "$REPLY" ]; then
		while IFS=' ' read -r k l; do
			[ "$k" = skip ] || continue
			_rapido_res_unesc "$l"
			# a group's skip: GROUP, or DEV/GROUP (a test's has two /)
			[[ $REPLY == */*/* ]] && continue
			[[ $REPLY == */* ]] && grp[${REPLY#*/}]+=dev || grp[$REPLY]+=all
		done < "$REPLY"
	fi
	for l in "${_blktests_exp[@]}"; do
		t=${l% *} g=${t%%/*}
		case ${grp[$g]:-}:${l##* } in
		*all*) continue ;;
		*dev*:dev | *dev*:none) continue ;;
		*:none)
			rapido_test_skip "nodev/$t" "a device test: no TEST_DEVS and no fallback device" \
				> /dev/null
			continue
			;;
		esac
		ids+=("$t")
	done
	rapido_test_reported "blktests: BLKTESTS_TESTS" "${ids[@]}" > /dev/null
}

# _blktests_check ARGS...: one ./check, its output recorded as it comes;
# its status, but 1 where it passed and a test failed, and a failure of
# its own (testcase "blktests/check") where it failed and no test did
_blktests_check() {
	local rc cfg=(-c "$_blktests_cfg")
	[ ! -r /etc/rapido/blktests.config ] || cfg+=(-c /etc/rapido/blktests.config)
	echo "blktests: ./check ${cfg[*]} -o $_blktests_out $*"
	_blktests_failed=
	_blktests_res_begin
	rapido_stream_cmd _blktests_stream ./check "${cfg[@]}" -o "$_blktests_out" "$@"
	rc=$?
	if [ "$rc" -ne 0 ] && [ -z "$_blktests_failed" ]; then
		rapido_test_fail blktests/check "./check $* exited $rc and no test failed:" \
			"it could not run" > /dev/null
		echo "blktests: ./check $* exited $rc and no test failed: it could not run (see above)"
	elif [ "$rc" -eq 0 ] && [ -n "$_blktests_failed" ]; then
		rc=1
	fi
	return "$rc"
}

# the test whose verdict line came, held for the indented lines after it
# (a skip's reasons, a failure's diff): kind, name, reason, output
_blktests_res_begin() {
	_blktests_held=() _blktests_held_out=
	declare -gA _blktests_started=()
}

_blktests_stream() {
	rapido_stream_results _blktests_stream_line
	_blktests_res_flush
}

_blktests_stream_line() {
	[ "$1" = line ] || return 0
	blktests_res_line "$2"
}

# blktests_res_line LINE: one line of ./check's output. check prints a
# test's line ("GROUP/NNN [=> DEV] [(COND)] (DESCRIPTION)") when it starts
# it and again with "[passed]", "[failed]" or "[not run]" when it is done,
# then indented lines: the skip reasons, a failure's diff or status.
# "GROUP/*** [=> DEV] [not run]" is a group skipped (on DEV).
blktests_res_line() {
	local l=${1%$'\r'} t dev rest name st
	if [ ${#_blktests_held[@]} -gt 0 ] && [[ $l == "    "* ]]; then
		_blktests_held_out+=${l#    }$'\n'
		return 0
	fi
	_blktests_res_flush
	if [[ $l =~ no\ group\ or\ test\ named\ (.*)$ ]]; then
		_blktests_failed=1
		rapido_test_fail "blktests/${BASH_REMATCH[1]}" "./check: no group or test of this name" \
			> /dev/null
		return 0
	fi
	[[ $l =~ ^([a-z0-9_-]+/([0-9]{3}|\*\*\*))(\ =\>\ ([^ ]+))?(.*)$ ]] || return 0
	t=${BASH_REMATCH[1]}
	dev=${BASH_REMATCH[4]}
	rest=${BASH_REMATCH[5]# }
	case $rest in
	*"[passed]") st=pass ;;
	*"[failed]") st=fail ;;
	*"[not run]") st=skip ;;
	*) st= ;;
	esac
	if [[ $t == */"***" ]]; then
		[ "$st" = skip ] || return 0
		_blktests_held=(skip "${dev:+$dev/}${t%/*}")
		return 0
	fi
	_blktests_res_name "$t" "$dev" "$rest"
	name=$REPLY
	if [ -z "$st" ]; then
		_blktests_started[$name]=1
		rapido_test_start "$name"
		return 0
	fi
	_blktests_held=("$st" "$name" "$t")
}

# _blktests_res_name TEST DEV REST: the testcase name, in REPLY: the path
# of its results file under ./check's -o, DEV/GROUP/NNN (nodev without a
# device), DEV_COND (COND with blanks and '=' as '_') under a condition
_blktests_res_name() {
	local pf=
	[[ $3 =~ ^\(([^\(\)]*)\)\ \( ]] && pf=_${BASH_REMATCH[1]//[ =]/_}
	REPLY=${2:-nodev}$pf/$1
}

# _blktests_res_flush: the held verdict recorded: its time from the
# results file (runtime) when its start was not seen, a failure with the
# diff check printed, its .out.bad and .dmesg
_blktests_res_flush() {
	local st name out f key val secs=
	[ ${#_blktests_held[@]} -gt 0 ] || return 0
	st=${_blktests_held[0]}
	name=${_blktests_held[1]}
	out=${_blktests_held_out%$'\n'}
	_blktests_held=() _blktests_held_out=
	f=$_blktests_out/$name
	if [ -r "$f" ]; then
		while IFS=$'\t' read -r key val; do
			[ "$key" = runtime ] && secs=${val%s}
		done < "$f"
	fi
	# "not run" before the test ran has no runtime
	secs=${secs%.*}
	[[ $secs =~ ^[0-9]+$ ]] || secs=0
	[ -n "${_blktests_started[$name]:-}" ] || rapido_test_time "$name" "$secs"
	case $st in
	pass) rapido_test_pass "$name" > /dev/null ;;
	skip)
		# the reasons, less the "runtime" line of a test that had run
		# before in the results tree (check prints it for a skip too)
		key=
		while IFS= read -r val; do
			[[ $val == "runtime "* ]] || key+=${key:+; }$val
		done <<< "$out"
		rapido_test_skip "$name" "$key" > /dev/null
		;;
	fail)
		_blktests_failed=1
		for key in out.bad dmesg; do
			[ -r "$f.$key" ] && out+=$'\n'"==> $f.$key <=="$'\n'"$(< "$f.$key")"
		done
		rapido_test_fail "$name" "$(_blktests_reason "$f")" "$out" > /dev/null
		;;
	esac
}

# _blktests_reason FILE: why the results file says its test failed
_blktests_reason() {
	local key val reason= ex=
	[ -r "$1" ] || { echo failed; return; }
	while IFS=$'\t' read -r key val; do
		case $key in
		reason) reason=$val ;;
		exit_status) ex=$val ;;
		esac
	done < "$1"
	case $reason in
	output) echo "output mismatch (see ${1##*/}.out.bad)" ;;
	exit) echo "exited with status $ex" ;;
	dmesg) echo "something found in dmesg (see ${1##*/}.dmesg)" ;;
	*) echo "failed${reason:+ ($reason)}" ;;
	esac
}
