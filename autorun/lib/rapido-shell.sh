# SPDX-License-Identifier: GPL-2.0
# rapido-shell.sh: the interactive autorun's own steps (bash --rcfile, the
# console's shell when ./vm runs without --batch): a Ctrl-C that left the
# profile unfinished, the prompt after the parts, and leaving the shell,
# none of which is a pass of its own. ./cut has every interactive autorun
# source it and no batch one (libpick.c: rapido.sh names none of its
# functions; it calls them through _rapido_shell_steps, added to below).

_rapido_shell_steps+=(_rapido_shell_step)

# _rapido_shell_step begin|end: _rapido_autorun_begin's and
# _rapido_autorun_end's steps for an interactive shell
_rapido_shell_step() {
	case $1 in
	begin)
		# a prompt before the end of the parts is a Ctrl-C that left
		# the rc file (_rapido_interrupted)
		PROMPT_COMMAND=_rapido_interrupted
		;;
	end)
		PROMPT_COMMAND=
		# the profile finished: a power-off the init is signalled for
		# from here on is a person leaving (tools/init), before it no pass
		: >| "${RAPIDO_RUN_DIR:-/run}/rapido.prompt"
		# the user's commands at the prompt are no part's: no more tracing
		builtin trap - DEBUG
		[ -z "$_rapido_debug_cmd" ] || builtin trap -- "$_rapido_debug_cmd" DEBUG
		_rapido_autorun=
		set +T
		if _rapido_status; then
			echo "rapido: the autorun FAILED with status ${REPLY%% *}: ${REPLY#* }" >&2
		fi
		builtin trap _rapido_shell_exit EXIT
		;;
	esac
	return 0
}

# The prompt came up while the parts were running: a Ctrl-C at the
# console left the rc file. The shell is the user's from here, but the
# profile did not finish: leaving it (exit, poweroff) is no pass, nor the
# status of whatever ran at the prompt.
_rapido_interrupted() {
	PROMPT_COMMAND=
	_rapido_interrupted_in=${_rapido_part_name:-the autorun}
	_rapido_autorun=
	builtin trap - DEBUG
	[ -z "$_rapido_debug_cmd" ] || builtin trap -- "$_rapido_debug_cmd" DEBUG
	set +T
	echo "rapido: $_rapido_interrupted_in was interrupted before the profile finished: the" \
		"shell is yours, and leaving it gives no verdict" >&2
	# told to the init now: the shell may end with no trap of ours (exec)
	printf '%s\n' "$_rapido_interrupted_in was interrupted before the profile finished" >| \
		"${RAPIDO_RUN_DIR:-/run}/rapido.early"
	builtin trap _rapido_interrupted_exit EXIT
}
_rapido_interrupted_exit() {
	builtin trap - EXIT DEBUG
	[ -z "$_rapido_exit_cmd" ] || eval "$_rapido_exit_cmd"
	_rapido_end_run
	_rapido_no_verdict "$_rapido_interrupted_in was interrupted before the profile finished"
}

# The interactive shell's EXIT trap: leaving the shell is no verdict. What
# the last command at the prompt returned (a typo's 127, "exit 5") is not
# the run's status: the autorun's kept failure is (the profile's, before
# the prompt; a rapido_fail typed at it), else 0
_rapido_shell_exit() {
	builtin trap - EXIT DEBUG
	[ -z "$_rapido_exit_cmd" ] || eval "$_rapido_exit_cmd"
	_rapido_end_run
	_rapido_status || exit 0
	echo "rapido: the autorun FAILED with status ${REPLY%% *} before the shell: ${REPLY#* }" >&2
	exit "${REPLY%% *}"
}
