# SPDX-License-Identifier: GPL-2.0
# unionmount.sh: the unionmount profile's steps (unionmount-testsuite at
# /unionmount, its layers on zram file systems):
#   unionmount_disks FS SIZE  the zram disks of /lower, /upper (--ov) and
#                             /base (--samefs), made with FS, in /etc/fstab
#                             (the suite mounts "mount /lower" or tmpfs)
#   unionmount_run            each test of each mode a result: MODE/TEST
#   unionmount_one MODE TEST  one ./run of one test, its layers checked
# Sourced into every image before the profile, so it only defines functions.

# the modes UNIONMOUNT_MODES may name and ./run's options for each
declare -gA _unionmount_args=([ov]="--ov" [samefs]="--ov --samefs"
	[ov-verify]="--ov --verify" [samefs-verify]="--ov --samefs --verify")
# the directories the suite mounts on, and each one's zram disk
_unionmount_dirs=(/lower /upper /base)
declare -gA _unionmount_dev=()

# unionmount_disks FS SIZE: a zram disk with FS for each of the suite's
# mount points, listed in /etc/fstab: the suite's set_up runs "mount
# /lower 2>/dev/null || mount -t tmpfs ..." (so without an fstab line the
# layers would be tmpfs)
unionmount_disks() {
	local fs=$1 size=$2 d
	mkdir -p /mnt "${_unionmount_dirs[@]}" || rapido_fail "mkdir /mnt ${_unionmount_dirs[*]} failed"
	for d in "${_unionmount_dirs[@]}"; do
		# shellcheck disable=SC2046 # the mkfs arguments are words on purpose
		_unionmount_dev[$d]=$(zram_add "/tmp/unionmount-zram${d//\//-}.log" -s "$size" \
			--mkfs "$fs" $(zram_mkfs_args "$fs")) ||
			rapido_fail "cannot make the $fs zram disk for $d: see above"
		printf '%s %s %s noauto 0 0\n' "${_unionmount_dev[$d]}" "$d" "$fs" >> /etc/fstab ||
			rapido_fail "cannot write /etc/fstab"
	done
	echo "unionmount: $fs ($size) on $(for d in "${_unionmount_dirs[@]}"; do
		printf '%s %s, ' "$d" "${_unionmount_dev[$d]}"; done)in /etc/fstab"
}

# _unionmount_unmount: every mount on the suite's directories gone, the
# deepest first: ./run leaves its union mounted at the end and unmounts
# only tmpfs layers (lower_layer, upper_layer) before the next, so a
# layer on a zram disk must go before the next ./run mounts it again
_unionmount_unmount() {
	local src mnt rest mnts=() i
	while read -r src mnt rest; do
		case $mnt in
		/mnt | /mnt/* | /lower | /lower/* | /upper | /upper/* | /base | /base/*)
			mnts+=("$mnt") ;;
		esac
	done < /proc/mounts
	for ((i = ${#mnts[@]} - 1; i >= 0; i--)); do
		umount "${mnts[$i]}" || return 1
	done
}

# _unionmount_layers_ok MODE: the layers the mode uses are the zram disks
# (not the suite's tmpfs fallback), said on stdout; 1 where one is not
_unionmount_layers_ok() {
	local d want src mnt rest rc=0 seen
	want="/lower /upper"
	[[ $1 != samefs* ]] || want=/base
	for d in $want; do
		seen=
		while read -r src mnt rest; do
			[ "$mnt" = "$d" ] && seen=$src
		done < /proc/mounts
		if [ "$seen" != "${_unionmount_dev[$d]}" ]; then
			echo "unionmount: $d is ${seen:+mounted from $seen}${seen:-not mounted}," \
				"not from its zram disk ${_unionmount_dev[$d]}"
			rc=1
		fi
	done
	return $rc
}

# unionmount_one MODE TEST: ./run with MODE's options and TEST, in
# /unionmount, its status (0 passed; 1, the suite's exit_error, failed);
# a run whose layers were not the zram disks fails
unionmount_one() {
	local rc
	_unionmount_unmount || { echo "unionmount: cannot unmount the last test's layers"; return 1; }
	# shellcheck disable=SC2086 # the options are words
	rapido_harness ./run ${_unionmount_args[$1]} "$2"
	rc=$?
	_unionmount_layers_ok "$1" || return 1
	return $rc
}

# _unionmount_tests: the tests to run in _unionmount_sel: UNIONMOUNT_TESTS,
# else ./run's own list, which is tests/*.py but rename-exdev (./run takes
# it instead of the directory rename tests only with --xdev or a kernel
# before 4.10), less UNIONMOUNT_SKIP; fails naming a test the tree has not,
# and if it selects no test
_unionmount_tests() {
	local t skip=" " bad=() found='' nullglob=off
	shopt -q nullglob && nullglob=on
	rapido_words "${UNIONMOUNT_SKIP:-}" .py
	for t in "${RAPIDO_WORDS[@]}"; do
		skip+="$t "
	done
	_unionmount_sel=()
	if [ -n "${UNIONMOUNT_TESTS:-}" ]; then
		rapido_words "$UNIONMOUNT_TESTS" .py
		for t in "${RAPIDO_WORDS[@]}"; do
			[ -f "tests/$t.py" ] || bad+=("$t")
			[[ $skip == *" $t "* ]] || _unionmount_sel+=("$t")
		done
		[ ${#bad[@]} -eq 0 ] ||
			rapido_fail "UNIONMOUNT_TESTS: no test tests/NAME.py in $UNIONMOUNT_SRC for: ${bad[*]}"
	else
		# no tests/*.py: no word (not a literal '*'), said below
		shopt -s nullglob
		for t in tests/*.py; do
			t=${t#tests/}
			t=${t%.py}
			case $t in
			rename-exdev | __init__) continue ;;
			esac
			found=1
			[[ $skip == *" $t "* ]] || _unionmount_sel+=("$t")
		done
		[[ $nullglob == on ]] || shopt -u nullglob
		[ -n "$found" ] ||
			rapido_fail "no test (tests/NAME.py) in UNIONMOUNT_SRC=${UNIONMOUNT_SRC:-}: is UNIONMOUNT_SRC unionmount-testsuite?"
	fi
	rapido_selected ${#_unionmount_sel[@]} UNIONMOUNT_TESTS/UNIONMOUNT_SKIP
}

# unionmount_run: in /unionmount, each test of each mode of
# UNIONMOUNT_MODES (default "ov samefs") a result MODE/TEST, the list
# planned up front; 1 if a test failed
unionmount_run() {
	local m t rc=0 names=()
	cd /unionmount || rapido_fail "cd /unionmount failed"
	rapido_words "${UNIONMOUNT_MODES:-ov samefs}" .py
	_unionmount_modes=("${RAPIDO_WORDS[@]}")
	for m in "${_unionmount_modes[@]}"; do
		[ -n "${_unionmount_args[$m]:-}" ] ||
			rapido_fail "UNIONMOUNT_MODES: unknown mode '$m' (known: ov samefs ov-verify samefs-verify)"
	done
	_unionmount_tests
	for m in "${_unionmount_modes[@]}"; do
		for t in "${_unionmount_sel[@]}"; do
			names+=("$m/$t")
		done
	done
	echo "unionmount: ${#_unionmount_sel[@]} tests in modes ${_unionmount_modes[*]}"
	rapido_test_plan "${names[@]}"
	for m in "${_unionmount_modes[@]}"; do
		for t in "${_unionmount_sel[@]}"; do
			rapido_test "$m/$t" unionmount_one "$m" "$t" || rc=1
		done
	done
	_unionmount_unmount
	return $rc
}
