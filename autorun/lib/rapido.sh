# SPDX-License-Identifier: GPL-2.0
# rapido.sh: shell functions for every profile script, sourced before the
# profile: the one way to fail (rapido_fail), the autorun's sticky status,
# its parts and its EXIT trap, poweroff. Only definitions here, nothing
# runs. Every batch autorun parses this file on every boot (under TCG the
# first parse of its 14.6 KB some 20 ms, a second 5: qemu translates the
# parser's code once; in a boot, 12 to 14 ms at load 1-3, of which its
# comment lines, 60% of the bytes, cost nothing measurable (blanked: 12.3
# against 12.9 ms), and 3.8 KB of function bodies about 2), so what only
# some runs call lives apart, in files ./cut has a batch autorun source
# only when its profile or extras name a function of theirs
# (src/cut/libpick.c):
# rapido-wait.sh (the one wait loop, rapido_wait; rapido_mounted; a
# daemon's clean-up on failure), rapido-suite.sh (a suite's selection and
# keys, rapido_harness) and rapido-shell.sh (the interactive shell's
# prompt, Ctrl-C and leaving, sourced by every interactive autorun, never
# by a batch one).
#
# The autorun's status (./vm's exit status) is its first failure: the
# profile's status, each -x/-f extra's, a failed test record, a
# rapido_fail anywhere (a subshell's too), an exit with a status other
# than 0. The parts after a failure still run, unless it was rapido_fail
# or an exit; an "exit 0" or a passing part later does not undo it. The
# first failure is kept in RAPIDO_RUN_DIR/rapido.status (/run: shared by
# every subshell); autorun.sh (written by ./cut) is
#	source LIB...; _rapido_autorun_begin
#	_rapido_part NAME; source PART; _rapido_part_done $?	(per part)
#	_rapido_autorun_end

# Functions rapido_fail calls before it exits, in the order given
RAPIDO_FAIL_HOOKS=()

# rapido_on_fail FUNC: have rapido_fail call "FUNC STATUS MSG" before it
# exits: a profile's state dump, a note for the host (once per FUNC)
rapido_on_fail() {
	local h

	for h in "${RAPIDO_FAIL_HOOKS[@]}"; do
		[ "$h" = "$1" ] && return 0
	done
	RAPIDO_FAIL_HOOKS+=("$1")
}

# rapido_fail [-s STATUS] MSG...: report "rapido: FAILED: MSG" on the
# console, run the rapido_on_fail hooks, and stop the autorun with STATUS
# (default 1; one that is no status from 1 to 255 is said and made 1), which is ./vm's exit status unless an earlier failure was
# kept. Called in a subshell (rapido_test's CMD, a pipeline), it exits
# that subshell and the autorun stops at its next rapido_test or part.
rapido_fail() {
	local rc=1 h

	if [ "${1:-}" = -s ]; then
		rc=$2
		shift 2
	fi
	# bash exits with STATUS modulo 256: -s 256 would be a pass
	if ! [[ $rc =~ ^[0-9]{1,3}$ ]] || ((10#$rc > 255)); then
		echo "rapido: rapido_fail -s '$rc': no exit status from 1 to 255: status 1" >&2
		rc=1
	fi
	rc=$((10#$rc))
	[ "$rc" != 0 ] || rc=1
	echo "rapido: FAILED: $*" >&2
	_rapido_status_keep "$rc" "rapido_fail: $*"
	printf '%s %s\n' "$rc" "$*" >| "${RAPIDO_RUN_DIR:-/run}/rapido.stop"
	for h in "${RAPIDO_FAIL_HOOKS[@]}"; do
		"$h" "$rc" "$*"
	done
	exit "$rc"
}

# _rapido_status_keep STATUS WHY [test]: STATUS (not 0) is the autorun's,
# unless a failure was kept before; noclobber's O_EXCL makes the first one
# win among subshells without a fork. A failure that is not a failed
# test's ("test": results.sh) is noted apart, in rapido.status-other: only
# an autorun whose every failure was a test's is told to ./vm (by the guest
# init's status record: tools/init reads these two files once every other
# process is gone), which may then excuse them as known failures or flaky.
_rapido_status_keep() {
	local f=${RAPIDO_RUN_DIR:-/run}/rapido.status opts=$-
	[ "$1" != 0 ] || return 0
	[ "${3:-}" = test ] || printf '%s %s\n' "$1" "$2" >> "$f-other" ||
		echo "rapido: cannot note a failure in $f-other" >&2
	set -C
	{ printf '%s %s\n' "$1" "$2" > "$f"; } 2> /dev/null
	[[ $opts == *C* ]] || set +C
	return 0
}

# _rapido_status: the kept failure in REPLY, "STATUS WHY"; false if none
_rapido_status() {
	local f=${RAPIDO_RUN_DIR:-/run}/rapido.status
	REPLY=
	[ -s "$f" ] || return 1
	read -r REPLY < "$f"
	[ -n "$REPLY" ]
}

# _rapido_stop_asked: rapido_fail ran (maybe in a subshell): "STATUS MSG" in REPLY
_rapido_stop_asked() {
	local f=${RAPIDO_RUN_DIR:-/run}/rapido.stop
	REPLY=
	[ -s "$f" ] || return 1
	read -r REPLY < "$f"
}

# A profile's "trap CMD EXIT" (its clean-up) must not replace the
# autorun's own EXIT trap, which keeps the verdict: while the autorun
# runs, and at the prompt of an interrupted one (the profile sourced
# again there), the main shell's EXIT command is kept apart and runs first.
_rapido_exit_cmd=
_rapido_debug_cmd=
_rapido_autorun=
_rapido_interrupted_in=${_rapido_interrupted_in-}
trap() {
	local a=("$@") s cmd other=() is_exit=

	[ "${a[0]:-}" != -- ] || a=("${a[@]:1}")
	if [ -z "$_rapido_autorun$_rapido_interrupted_in" ] || [ "$BASHPID" != $$ ] ||
		[ ${#a[@]} -lt 2 ] || [[ ${a[0]} == -[lp]* ]]; then
		builtin trap "$@"
		return
	fi
	cmd=${a[0]}
	for s in "${a[@]:1}"; do
		case ${s^^} in
		EXIT | 0 | SIGEXIT) is_exit=1 ;;
		DEBUG)
			# the prompt's own: the tests' DEBUG bookkeeping ended there
			if [ -z "$_rapido_autorun" ]; then
				other+=("$s")
				continue
			fi
			_rapido_debug_cmd=$cmd
			[ "$cmd" != - ] || _rapido_debug_cmd=
			[ -z "$_rapido_debug_cmd" ] || builtin trap _rapido_debug DEBUG
			;;
		*) other+=("$s") ;;
		esac
	done
	if [ -n "$is_exit" ]; then
		[ "$cmd" != - ] || cmd=
		_rapido_exit_cmd=$cmd
	fi
	[ ${#other[@]} -eq 0 ] || builtin trap -- "$cmd" "${other[@]}"
}

# Which failures are the tests' (_rapido_part_status): a test function
# that failed says so by _rapido_test_ret STATUS, and any command of the
# profile's that runs after it takes that back, so that a part's status
# is the test's only when the test was its last command. The status
# alone cannot say (rapido_test t false; false: both 1). A DEBUG trap,
# inherited by functions (set -T), sees each command before it runs; it
# is armed only from a failed test to the profile's next command, as
# under TCG a trap on every command would cost each profile a good part
# of its boot. The library's own commands (functions defined in this
# directory) and the autorun's _rapido_* steps are not the profile's,
# but a user's command that a library function evaluates (_rapido_eval_user:
# FSTESTS_AUTORUN_CMD) is. A profile's own DEBUG trap (the trap wrapper
# keeps it) runs after.
_rapido_lib_dir=${BASH_SOURCE[0]%/*}
# _rapido_eval_user CMD: eval CMD, a user's command, as the profile's own
# (its commands run in this function's frame, which _rapido_debug knows);
# its status. No positional parameters reach CMD.
_rapido_eval_user() {
	local _rapido_cmd=$1
	shift
	eval "$_rapido_cmd"
}
_rapido_test_ret() {
	_rapido_res_ret=$1
	[ -z "$1" ] || [ -z "$_rapido_autorun" ] || builtin trap _rapido_debug DEBUG
}
_rapido_debug() {
	if [ -n "${_rapido_res_ret:-}" ]; then
		[[ ( ${BASH_SOURCE[1]-} == "$_rapido_lib_dir"/* && ${FUNCNAME[1]} != _rapido_eval_user ) ||
			$BASH_COMMAND == _rapido_* ]] || _rapido_res_ret=
	fi
	if [ -n "$_rapido_debug_cmd" ]; then
		eval "$_rapido_debug_cmd"
	elif [ -z "${_rapido_res_ret:-}" ]; then
		builtin trap - DEBUG
	fi
}

_rapido_autorun_begin() {
	_rapido_autorun=1
	_rapido_shell=$$
	builtin trap _rapido_autorun_exit EXIT
	set -T
	# interactive (bash --rcfile): a prompt before the end of the parts
	# is a Ctrl-C that left the rc file (rapido-shell.sh)
	[[ $- != *i* ]] || _rapido_interactive begin
}

# An interactive autorun's own steps are rapido-shell.sh's, which ./cut
# has only an interactive run source (libpick.c: no word here names a
# function of that file, else a batch run would parse it too; with the
# waits and a suite's helpers split off, batch simple's source of
# rapido.sh went from 42 to 36 ms, medians of 7 boots at load 6-7). That
# file leaves its function's name here as it is sourced (+=, as
# results.sh's end hook: libpick.c takes NAME= for a definition of NAME).
_rapido_shell_steps=(${_rapido_shell_steps[@]+"${_rapido_shell_steps[@]}"})
# _rapido_interactive begin|end: that step of the interactive shell
_rapido_interactive() {
	# never a pass for want of the prompt's own keeping of the verdict
	[ ${#_rapido_shell_steps[@]} -gt 0 ] ||
		rapido_fail "an interactive autorun without the interactive shell's library (autorun/lib/rapido-shell.sh)"
	"${_rapido_shell_steps[0]}" "$@"
}

# _rapido_no_verdict WHY: end the run before the profile finished, as
# busybox's poweroff does: the init asked by SIGUSR2 with no status left
# (never a pass: the init reports no verdict, ./vm 123), WHY said here and
# left for the init's message in RAPIDO_RUN_DIR/rapido.early
_rapido_no_verdict() {
	echo "rapido: $1: no verdict" >&2
	printf '%s\n' "$1" >| "${RAPIDO_RUN_DIR:-/run}/rapido.early"
	builtin kill -USR2 "$_rapido_init_pid" || return 1
	# the init kills every process before it reports: nothing more runs here
	while :; do
		rapido_sleep 60
	done
}

# _rapido_part NAME: the part about to run (named in its failure)
_rapido_part() {
	_rapido_part_name=$1
	_rapido_res_ret=
	# the profile's own part runs the suites: no busybox (rapido_harness)
	case $1 in
	autorun/00-*) _rapido_path harness ;;
	*) _rapido_path shell ;;
	esac
	PATH=$REPLY
}

# _rapido_part_status STATUS WHY: a part's or the autorun's own STATUS
# kept; it is the tests' when it is the status the part's last command, a
# test function (rapido_test, rapido_test_tap, rapido_tests_done,
# rapido_fstests_check), returned for failed tests (_rapido_res_ret, which
# the profile's next command clears: _rapido_test_ret).
_rapido_part_status() {
	if [ "$1" = "${_rapido_res_ret:-}" ]; then
		_rapido_status_keep "$1" "$2" test
	else
		_rapido_status_keep "$1" "$2"
	fi
}

# _rapido_part_done STATUS: after a part: its failure kept; a rapido_fail
# in one of its subshells stops the autorun
_rapido_part_done() {
	if [ "$1" != 0 ]; then
		_rapido_part_status "$1" "$_rapido_part_name: exit status $1"
		echo "rapido: FAILED: $_rapido_part_name: exit status $1" >&2
	fi
	! _rapido_stop_asked || exit "${REPLY%% *}"
}

# The end of the parts: in batch mode the autorun exits with its verdict;
# an interactive shell (bash --rcfile) stays, says when it failed, and
# leaves with that verdict, not its last command's (rapido-shell.sh)
_rapido_autorun_end() {
	# rapido run -- CMD: CMD as the last part, its output in frames on the
	# console (rapido-exec NONCE CRC BASE64), which ./vm alone copies out
	if [ -n "${RAPIDO_EXEC:-}" ]; then
		_rapido_part "the command"
		# shellcheck disable=SC2086 # three words
		rapido-exec $RAPIDO_EXEC
		_rapido_part_done $?
	fi
	_rapido_part_name="the interactive shell"
	_rapido_path shell
	PATH=$REPLY
	[[ $- == *i* ]] || exit 0
	_rapido_interactive end
}

# What a library does as the autorun's shell ends, before its verdict:
# results.sh closes the tests left open as failed. A library adds its
# function here as it is sourced, so that rapido.sh names none of them: a
# batch autorun sources only the libraries its profile and extras name
# (./cut's libpick.c), and a run that starts no test (simple) leaves
# results.sh unparsed, tens of ms of bash under TCG on every boot.
_rapido_end_hooks=(${_rapido_end_hooks[@]+"${_rapido_end_hooks[@]}"})
_rapido_end_run() {
	local h
	for h in ${_rapido_end_hooks[@]+"${_rapido_end_hooks[@]}"}; do
		"$h"
	done
}

# The autorun's EXIT trap: the profile's own EXIT command, then the tests
# left open closed as failed, then the first failure as the exit status
_rapido_autorun_exit() {
	local rc=$? ret=${_rapido_res_ret:-}

	builtin trap - EXIT DEBUG
	[ -z "$_rapido_exit_cmd" ] || eval "$_rapido_exit_cmd"
	# the status is the one the autorun exited with, before the clean-up
	_rapido_res_ret=$ret
	[ "$rc" = 0 ] || _rapido_part_status "$rc" "${_rapido_part_name:-autorun}: exit status $rc"
	_rapido_end_run
	_rapido_status || exit 0
	echo "rapido: the autorun FAILED with status ${REPLY%% *}: ${REPLY#* }" >&2
	exit "${REPLY%% *}"
}

# rapido_sleep SECS: sleep without a fork (under TCG each fork costs a
# good part of a second): a read with a timeout on a pipe nobody writes to
rapido_sleep() {
	[ -n "${RAPIDO_SLEEPFD:-}" ] || exec {RAPIDO_SLEEPFD}<> <(:)
	read -r -t "$1" -u "$RAPIDO_SLEEPFD" _
	return 0
}

# _rapido_mark WHAT: "rapido: mark WHAT" in the kernel's log at debug
# level, stamped by its clock: what bench/boot --timeline shows as the
# time from the mark before (the init's up mark) to this one. Neither the
# console (below its level) nor a failure: a write to /dev/kmsg, no fork.
_rapido_mark() {
	{ printf '<7>rapido: mark %s\n' "$*" > /dev/kmsg; } 2> /dev/null
	return 0
}

# _rapido_path harness|shell: PATH without busybox's applets
# (RAPIDO_BUSYBOX_DIR, which the guest init puts at the end of PATH), or
# with them at its end, in REPLY. A suite's harness must find the image's
# own program or none (it probes for hexdump, then skips), never
# busybox's by surprise: the profile's part and rapido_harness run with
# the first; the -x/-f extras and the interactive shell with the second.
_rapido_path() {
	local d=${RAPIDO_BUSYBOX_DIR:-} p=":$PATH:"

	if [ -z "$d" ]; then
		REPLY=$PATH
		return 0
	fi
	# as the init sets PATH, busybox's directory once and last: cut off
	# without the substitution below, whose first run (this one, on
	# every boot) was 0.6 ms of TCG (_rapido_part 3.3 against 2.7 ms,
	# instrumented boots, medians of 8, load 1-2)
	[[ $p != *":$d:" || ${p%":$d:"} == *":$d:"* ]] || p=${p%"$d:"}
	while [[ $p == *":$d:"* ]]; do
		p=${p//":$d:"/:}
	done
	p=${p#:}
	p=${p%:}
	[ "$1" = harness ] || p=${p:+$p:}$d
	REPLY=$p
}

# poweroff, shutdown, reboot, halt [ARG]...: end the run as the shell's
# exit would, whatever the arguments (shutdown -h now): in a part (the
# profile, an -x/-f extra) with the status of the command before
# (`-x 'cmd; poweroff'`: cmd's); at the prompt, where leaving is no verdict
# (rapido-shell.sh), with the autorun's kept failure, else 0. In the
# autorun's own shell that is an exit, which the init reports as it does
# any end of the shell; anywhere else (a subshell, a pipeline, ./vmctl's
# second shell) the status is left in RAPIDO_RUN_DIR/rapido.poweroff and
# the init asked to end the run by SIGUSR2, as busybox's poweroff asks it
# from programs outside bash (which, before the prompt, ends the run with
# no verdict: the init cannot tell a suite's stray poweroff from a pass).
# Outside the parts and before the profile finished (a second shell, an
# interrupted profile's prompt) there is no verdict either: no status left.
_rapido_poweroff() {
	local rc=$1

	if [ -n "${_rapido_shell:-}" ] && [ "$BASHPID" = "$_rapido_shell" ]; then
		exit "$rc"
	fi
	if [ -z "${_rapido_autorun:-}" ]; then
		# the prompt after the parts (the init's mark, a regular file) is leaving
		[ -f "${RAPIDO_RUN_DIR:-/run}/rapido.prompt" ] ||
			_rapido_no_verdict "poweroff before the profile finished"
		rc=0
		! _rapido_status || rc=${REPLY%% *}
	fi
	printf '%s\n' "$rc" >| "${RAPIDO_RUN_DIR:-/run}/rapido.poweroff" &&
		builtin kill -USR2 "$_rapido_init_pid" || return 1
	while :; do
		rapido_sleep 60
	done
}
# the guest init (a unit test's stand-in on a host)
_rapido_init_pid=1
poweroff() { _rapido_poweroff $?; }
shutdown() { _rapido_poweroff $?; }
reboot() { _rapido_poweroff $?; }
halt() { _rapido_poweroff $?; }
