# SPDX-License-Identifier: GPL-2.0
# fstests.sh: the tests of the fstests_* profiles (xfstests at /fstests):
#   fstests_run                  local.config, then the tests rapido.conf picks
#   fstests_net_run FSTYP        the network profiles' end: the tree checked, then
#                                fstests_run (or what was left out, with no tree)
#   rapido_fstests_check ARGS    ./check with rapido.conf's sections and
#                                exclusions, each test a result (results.sh)
# The profiles' steps before it: fstests_settings, fstests_devices
# (fstests_local), fstests_selection_ok (fstests_cephfs), fstests_check_tree.
# Sourced into every image before the profile, so it only defines functions.

# fstests_run: local.config for the devices exported by the profile,
# results on the host (./vm --results DIR: DIR/files/fstests, or --share
# DIR), the users, then in /fstests the tests rapido.conf picks:
# FSTESTS_AUTORUN_CMD, or FSTESTS_GROUPS/FSTESTS_TESTS through
# rapido_fstests_check (the shell stays in /fstests for the -x/-f extras)
fstests_run() {
	local sel=()
	if [ -n "${RAPIDO_RESULTS_DIR:-}" ]; then
		RESULT_BASE=$RAPIDO_RESULTS_DIR/fstests
		export RESULT_BASE
	elif rapido_mounted /host; then
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
	[ "${_fstests_cfg[sections]:-$FSTYP}" = "$FSTYP" ] ||
		echo "fstests: local.config sections: ${_fstests_cfg[sections]}"
	[ ${#_fstests_check_opts[@]} -eq 0 ] ||
		echo "fstests: rapido_fstests_check adds: ${_fstests_check_opts[*]}"
	if [ -n "${FSTESTS_AUTORUN_CMD:-}" ]; then
		echo "fstests: running FSTESTS_AUTORUN_CMD: $FSTESTS_AUTORUN_CMD"
		_fstests_autorun_cmd
	elif [ -n "${FSTESTS_GROUPS:-}${FSTESTS_TESTS:-}" ]; then
		[ -z "${FSTESTS_GROUPS:-}" ] || sel+=(-g "$(_fstests_commas "$FSTESTS_GROUPS")")
		# shellcheck disable=SC2206 # test names are words
		sel+=(${FSTESTS_TESTS//,/ })
		echo "fstests: running ./check ${_fstests_check_opts[*]} ${sel[*]}"
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
	_rapido_eval_user "$FSTESTS_AUTORUN_CMD" >&"$fd" 2>&1
	rc=$?
	set "$pf" pipefail
	exec {fd}>&-
	# the copy ends when the last writer is gone: a process the command
	# left running may hold its output open, so the wait has an end
	if rapido_wait "$_fstests_tee_wait" rapido_pid_gone "$pid"; then
		wait "$pid"
	else
		echo "fstests: warning: a process FSTESTS_AUTORUN_CMD started still holds its" \
			"output: results printed after this are not recorded"
	fi
	_fstests_res_lines "$from" < "$log"
	_fstests_res_import "$from"
	_fstests_res_end "$from" "$rc" FSTESTS_AUTORUN_CMD
}

# rapido_fstests_check [CHECK-ARGS...]: ./check -R xunit, the sections and
# exclusions rapido.conf asks for (FSTESTS_SECTION, FSTESTS_EXCLUDE_*:
# _fstests_check_opts), then ARGS, in the current directory (/fstests). Each
# test is a testcase of ./vm --results as soon as check prints its line:
# "[not run] why" is skipped with the reason, an output mismatch or
# "[failed, ...]" a failure with its .out.bad and .dmesg, "- unknown test"
# a failure (check ignores a mistyped name), anything else with a time a
# pass; with local.config sections a test is named SECTION:TEST (check runs
# it once per section). Tests the console lines missed are taken from
# result.xml at the end (an older one is removed first). With ./vm --shard
# I/N only this shard's part of the list `./check -n ARGS` prints is run,
# so groups (-g) and excludes (-x, -e, -E, -X) work as in xfstests; a
# `./check -n` that fails or lists no test at all fails the shard. With
# ./vm --results, sharded or not, that list goes to ./vm first
# (rapido_test_plan), so a VM stopped halfway (a hung test and
# --test-timeout) names each test it did not run as an error. Under
# ./vm --jobs the tests of the unreliable_in_parallel group (xfstests'
# own list of tests that fail beside others, as check-parallel leaves
# them out) run in the serial VM after the shards (rapido_test_in_shard).
# Returns check's status; 1 if check passed but a test was recorded as
# failed; check's status with a testcase "fstests/check" of its own when
# check failed and no test did (it could not start). With ./vm
# --rerun-failures N each failed test is run again by ./check TEST (with
# the same options, in its section) up to N times, until it passes:
# each run is a record of its own, ./vm calls one that passed flaky.
rapido_fstests_check() {
	local rc
	_fstests_check "$@"
	rc=$?
	# the tests' status: a part that ends with it failed by its tests
	_rapido_res_ret=
	[ "$rc" = 0 ] || _rapido_test_ret "$rc"
	return "$rc"
}

# _fstests_check [CHECK-ARGS...]: rapido_fstests_check's run
_fstests_check() {
	local from rc
	_fstests_res_begin
	from=$REPLY
	set -- "${_fstests_check_opts[@]}" "$@"
	if [ -n "${RAPIDO_SHARD:-}${RAPIDO_SERIAL:-}" ]; then
		_fstests_shard_args "$@"
		_fstests_shard_list || {
			rc=$?
			_fstests_res_end "$from" "$rc" "./check -n" "$(< /tmp/fstests-list.log)"
			return
		}
		[ ${#_fstests_shard[@]} -gt 0 ] || return 0
		_fstests_plan
		set -- "${_fstests_opts[@]}" "${_fstests_shard[@]}"
	elif [ -n "${RAPIDO_RESULTS_PORT:-}" ] && _fstests_plannable; then
		# the list up front, from the same ./check -n, though check then
		# runs its own selection as asked: a VM stopped halfway (a hung
		# test, --test-timeout) still names each test it did not run.
		# Without a list check runs as it would and fails on its own.
		_fstests_shard_args "$@"
		! _fstests_shard_list || _fstests_plan
	fi
	_fstests_res_sect=
	rapido_stream_cmd _fstests_res_stream ./check -R xunit "$@"
	rc=$?
	_fstests_res_import "$from"
	_fstests_rerun "$from" "$@"
	_fstests_res_end "$from" "$rc" ./check
}

# _fstests_plannable: 0 if ./check -n names the tests as their records
# will (a local.config with sections names them SECTION:TEST, which the
# list does not: _fstests_write_config's condition)
_fstests_plannable() {
	[ "${_fstests_cfg[sections]:-$FSTYP}" = "$FSTYP" ] && [ -z "${FSTESTS_SECTION:-}" ]
}

# _fstests_plan: _fstests_shard, the tests about to run, told to ./vm up
# front (rapido_test_plan): one a VM stopped halfway did not run is an
# error that names it, not a test that vanished
_fstests_plan() {
	_fstests_plannable || return 0
	_rapido_res_emit_plan "${_fstests_shard[@]}"
}

# _fstests_recorded FROM NAME STATE: NAME was recorded as STATE after line
# FROM of _fstests_res_done
_fstests_recorded() {
	local n=0 name st
	while read -r name st; do
		n=$((n + 1))
		[ $n -gt "$1" ] && [ "$name" = "$2" ] && [ "$st" = "$3" ] && return 0
	done < "$_fstests_res_done"
	return 1
}

# _fstests_rerun FROM CHECK-ARGS...: the tests that failed after line FROM
# of _fstests_res_done run again, each by ./check TEST with the options
# of CHECK-ARGS (not its selection), up to RAPIDO_RERUN_FAILURES times
_fstests_rerun() {
	local from=$1 n=0 name st t sect i again opts=()
	local -a failed=()
	shift
	_rapido_res_reruns
	[ "$REPLY" -gt 0 ] || return 0
	again=$REPLY
	while read -r name st; do
		n=$((n + 1))
		# fstests/check is check's own failure, no test to run again
		[ $n -gt "$from" ] && [ "$st" = fail ] && [ "$name" != fstests/check ] &&
			failed+=("$name")
	done < "$_fstests_res_done"
	[ ${#failed[@]} -gt 0 ] || return 0
	_fstests_shard_args "$@"
	for name in "${failed[@]}"; do
		t=${name#*:}
		sect=
		opts=("${_fstests_opts[@]}")
		if [ "$t" != "$name" ]; then
			sect=${name%%:*}
			# the test's own section only, not every one asked for
			opts=()
			for ((i = 0; i < ${#_fstests_opts[@]}; i++)); do
				case ${_fstests_opts[i]} in
				-s | -S) i=$((i + 1)) ;;
				*) opts+=("${_fstests_opts[i]}") ;;
				esac
			done
			opts+=(-s "$sect")
		fi
		for ((i = 1; i <= again; i++)); do
			echo "fstests: $name failed: re-run $i of $again: ./check${opts[*]:+ ${opts[*]}} $t"
			# ./vm takes a pass after a failure of one name only in a re-run said so
			_rapido_res_emit rerun "$name" "$i"
			_fstests_res_begin
			n=$REPLY
			_fstests_res_sect=
			rapido_stream_cmd _fstests_res_stream ./check -R xunit "${opts[@]}" "$t"
			_fstests_res_import "$n"
			if _fstests_recorded "$n" "$name" pass; then
				echo "fstests: $name passed on re-run $i of $again: flaky"
				break
			fi
		done
	done
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

# _fstests_unreliable ARRAY: ARRAY (an associative array) gets a key
# DIR/NUM for each test of the unreliable_in_parallel group, from the
# tests/DIR/group.list files `make` writes ("NUM GROUP...", '#' comments)
_fstests_unreliable() {
	local -n _fu_set=$1
	local f d num groups
	for f in tests/*/group.list; do
		[ -e "$f" ] || continue
		d=${f#tests/}
		d=${d%/group.list}
		while read -r num groups; do
			[[ $num != \#* ]] || continue
			[[ " $groups " != *" unreliable_in_parallel "* ]] || _fu_set[$d/$num]=1
		done < "$f"
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
	local t rest rc n=0 log=/tmp/fstests-list.log part=${RAPIDO_SHARD:+shard $RAPIDO_SHARD}
	local -A seen=() alone=()
	_fstests_shard=()
	[ -n "$part" ] || [ -z "${RAPIDO_SERIAL:-}" ] || part="the serial VM"
	part=${part:-the plan}
	[ -z "${RAPIDO_SERIAL:-}" ] || _fstests_unreliable alone
	./check -n "${_fstests_opts[@]}" "${_fstests_sel[@]}" > "$log" 2>&1
	rc=$?
	while read -r t rest; do
		[[ $t =~ ^[a-z0-9_.-]+/[0-9]+$ ]] || continue
		n=$((n + 1))
		[[ $rest == *"[expunged]"* ]] && continue
		[ -z "${seen[$t]:-}" ] || continue
		seen[$t]=1
		rapido_test_in_shard "$t" ${alone[$t]:+serial} && _fstests_shard+=("$t")
	done < "$log"
	if [ $rc -ne 0 ] || [ $n -eq 0 ]; then
		cat "$log"
		t="./check -n${_fstests_opts[*]:+ ${_fstests_opts[*]}}${_fstests_sel[*]:+ ${_fstests_sel[*]}}"
		if [ $rc -ne 0 ]; then
			echo "fstests: $part: $t failed (exit $rc): no test list${RAPIDO_SHARD:+ to shard}"
		else
			echo "fstests: $part: $t listed no test"
			rc=1
		fi
		return $rc
	fi
	echo "fstests: $part: ${#_fstests_shard[@]} of ${#seen[@]} tests:" \
		"${_fstests_shard[*]}"
}

# fstests_net_run FSTYP: the end of a network file system's profile
# (fstests_cephfs, fstests_nfs, fstests_cifs): with a tree, xfstests checked for FSTYP
# and run (its status the profile's); without one, what was left out (a
# batch run of nothing else fails: rapido_no_suite)
fstests_net_run() {
	if [ -z "${FSTESTS_SRC:-}" ]; then
		[ -z "${FSTESTS_AUTORUN_CMD:-}" ] ||
			echo "fstests: FSTESTS_AUTORUN_CMD not run: there is no xfstests tree"
		rapido_no_suite FSTESTS_SRC "fstests: xfstests not included (FSTESTS_SRC unset)"
	else
		fstests_check_tree "$1"
		fstests_run
	fi
}
