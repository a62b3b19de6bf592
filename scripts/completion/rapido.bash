# SPDX-License-Identifier: GPL-2.0
# rapido.bash: bash completion for rapido (its commands, then each
# command's words; rapido results' verbs, rapido deps' profiles), cut, vm, vmctl, netsetup and bisect (./cut in a
# checkout as well). Commands and options come from the program's own --help
# (vm's from its option table: vm --list-options), profiles from cut --list
# and VM numbers from the QMP sockets in the state dir, so nothing here can
# drift from the programs.
#   . scripts/completion/rapido.bash     (make install puts it where
#   bash-completion loads it by command name)
# zsh runs the same functions through its bashcompinit: the Makefile's
# build/completion/_rapido is this file between zsh's lines
# (scripts/completion/zsh-head, zsh-tail).

# _rapido_opts PROG [COMMAND]: the long and short options PROG [COMMAND] --help lists.
_rapido_opts()
{
	"$@" --help 2>/dev/null | grep -oE -- '(^|[ ,])--?[a-zA-Z][a-zA-Z0-9-]*(\[?=)?' |
		sed -E 's/^[ ,]//; s/\[?=$/=/' | sort -u
}

# _rapido_state_dir: where vm puts vmN.qmp (VM_STATE_DIR's default; a value
# set only in rapido.conf is not seen here).
_rapido_state_dir()
{
	if [ -n "${VM_STATE_DIR:-}" ]; then
		echo "$VM_STATE_DIR"
	elif [ -n "${XDG_RUNTIME_DIR:-}" ]; then
		echo "$XDG_RUNTIME_DIR/rapido"
	else
		echo "/tmp/rapido-$(id -u)"
	fi
}

# _rapido_reply: COMPREPLY from stdin, one word a line (bash's mapfile -t,
# which zsh, running this through bashcompinit, lacks)
_rapido_reply()
{
	local w
	COMPREPLY=()
	while IFS= read -r w; do
		COMPREPLY+=("$w")
	done
}

# _rapido_commands PROG: the commands of rapido --help's "Commands:" block.
_rapido_commands()
{
	"$1" --help 2>/dev/null | sed -n '/^Commands:$/,/^$/s/^ \([a-z][a-z-]*\) .*/\1/p'
}

# _rapido_revs: the branches and tags of KERNEL_SRC (else the current directory)
_rapido_revs()
{
	git -C "${KERNEL_SRC:-.}" for-each-ref --format='%(refname:short)' 2>/dev/null
}

# _rapido_bisect CUR PREV RUN...: bisect's words (RUN: ./bisect, or rapido
# bisect): revisions after --good, --bad and --compare, then the profiles
# of the cut beside it, the --flaky policies
_rapido_bisect()
{
	local cur=$1 prev=$2 i words=0 revs=0 cut
	shift 2
	case "$prev" in
	--good|--bad)
		_rapido_reply < <(compgen -W "$(_rapido_revs)" -- "$cur")
		return ;;
	--flaky)
		_rapido_reply < <(compgen -W "fail skip pass" -- "$cur")
		return ;;
	--build-cmd|--fragment)
		_rapido_reply < <(compgen -f -- "$cur")
		return ;;
	-O|--build-dir|--state)
		_rapido_reply < <(compgen -d -- "$cur")
		return ;;
	--runs|--match|-j|--jobs|--base)
		return ;;
	esac
	if [[ $cur == -* ]]; then
		_rapido_reply < <(compgen -W "$(_rapido_opts "$@")" -- "$cur")
		return
	fi
	for ((i = 1; i < COMP_CWORD; i++)); do
		case "${COMP_WORDS[i]}" in
		--good|--bad|--runs|--flaky|--match|--build-cmd|-j|--jobs|-O|--build-dir|\
		--base|--fragment|--state) i=$((i + 1)) ;;
		--compare) revs=2 ;;
		--) return ;;
		-*) ;;
		*) words=$((words + 1)) ;;
		esac
	done
	if [ $words -lt $revs ]; then
		_rapido_reply < <(compgen -W "$(_rapido_revs)" -- "$cur")
	elif [ $words -eq $revs ]; then
		# rapido bisect: rapido cut; ./bisect: the ./cut beside it
		if [ $# -gt 1 ]; then cut=("$1" cut); else cut=("${1%bisect}cut"); fi
		_rapido_reply < <(compgen -W "$("${cut[@]}" --list 2>/dev/null |
			awk '{ print $1 }')" -- "$cur")
	fi
}

# _rapido_vm CUR PREV RUN...: vm's words, all from its option table (vm
# --list-options: one option name a line, TAB, none|required|optional, TAB,
# what its argument is: file, dir, words:W1 W2... or none), then an image
_rapido_vm()
{
	local cur=$1 prev=$2 table name arg what i req=" " words=0
	shift 2
	table=$("$@" --list-options 2>/dev/null)
	while IFS=$'\t' read -r name arg what; do
		[ "$arg" = required ] || continue
		req="$req$name "
		[ "$name" = "$prev" ] || continue
		case "$what" in
		file) _rapido_reply < <(compgen -f -- "$cur") ;;
		dir) _rapido_reply < <(compgen -d -- "$cur") ;;
		words:*) _rapido_reply < <(compgen -W "${what#words:}" -- "$cur") ;;
		esac
		return
	done <<< "$table"
	if [[ $cur == -* ]]; then
		_rapido_reply < <(compgen -W "$(awk -F '\t' '{ print $1 ($2 == "optional" ? "=" : "") }' \
			<<< "$table")" -- "$cur")
		[[ ${COMPREPLY[0]:-} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	for ((i = 1; i < COMP_CWORD; i++)); do
		case "${COMP_WORDS[i]}" in
		--) return ;;	# qemu's arguments
		-*) [[ $req == *" ${COMP_WORDS[i]} "* ]] && i=$((i + 1)) ;;
		*) words=$((words + 1)) ;;
		esac
	done
	[ $words -eq 0 ] && _rapido_reply < <(compgen -f -- "$cur")
}

_rapido()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=
	local prog=${COMP_WORDS[0]} name i words=() args=0 run

	name=${prog##*/}
	name=${name#rapido-}
	COMPREPLY=()
	run=("$prog")
	if [ "$name" = rapido ]; then
		if [ "$COMP_CWORD" -le 1 ] || { [ "$COMP_CWORD" -eq 2 ] &&
			[ "${COMP_WORDS[1]}" = help ]; }; then
			_rapido_reply < <(compgen -W "$(_rapido_commands "$prog")
				$([[ $cur == -* ]] && echo --help --version)" -- "$cur")
			return
		fi
		# rapido COMMAND ARGS: COMMAND's words, as those of the program
		# of that name, which is run as "rapido COMMAND"
		name=${COMP_WORDS[1]}
		run=("$prog" "$name")
		# rapido list and run take cut's options (asked of cut: run would boot)
		case "$name" in
		list | run) name=cut run=("$prog" cut) ;;
		boot) name=vm run=("$prog" vm) ;;
		esac
		local -a COMP_WORDS=("${COMP_WORDS[@]:1}")
		local COMP_CWORD=$((COMP_CWORD - 1))
	fi
	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	if [ "$name" = bisect ]; then
		_rapido_bisect "$cur" "$prev" "${run[@]}"
		return
	fi
	if [ "$name" = vm ]; then
		_rapido_vm "$cur" "$prev" "${run[@]}"
		return
	fi

	# option arguments
	case "$prev" in
	-o|--output|-f|--file|--known-failures|--write-known-failures)
		_rapido_reply < <(compgen -f -- "$cur")
		return ;;
	-x|--cmd|-t|--timeout|--netns)
		return ;;
	esac
	if [[ $cur == -* ]]; then
		_rapido_reply < <(compgen -W "$(_rapido_opts "${run[@]}")" -- "$cur")
		[[ ${COMPREPLY[0]:-} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	# the non-option words before the cursor
	for ((i = 1; i < COMP_CWORD; i++)); do
		case "${COMP_WORDS[i]}" in
		-o|--output|-f|--file|-x|--cmd|-t|--timeout|--netns|--known-failures|\
		--write-known-failures) i=$((i + 1)) ;;
		--) args=-1; break ;;
		-*) ;;
		*) words+=("${COMP_WORDS[i]}") ;;
		esac
	done
	[ $args -lt 0 ] && return	# qemu's arguments
	case "$name" in
	cut)
		[ ${#words[@]} -eq 0 ] &&
			_rapido_reply < <(compgen -W "$("${run[@]}" --list 2>/dev/null |
				awk '{ print $1 }')" -- "$cur") ;;
	vmctl)
		if [ ${#words[@]} -eq 0 ]; then
			local d q nums=
			d=$(_rapido_state_dir)
			for q in "$d"/vm*.qmp; do
				[ -S "$q" ] || continue
				q=${q##*/vm}
				nums="$nums ${q%.qmp}"
			done
			_rapido_reply < <(compgen -W "$nums" -- "$cur")
		elif [ ${#words[@]} -eq 1 ]; then
			# the commands of vmctl --help's usage lines
			_rapido_reply < <(compgen -W "$("${run[@]}" --help 2>/dev/null |
				sed -nE 's/^ *vmctl \[options\] \[N\] ([a-z]+).*/\1/p')" -- "$cur")
		fi ;;
	netsetup)
		[ ${#words[@]} -eq 0 ] && _rapido_reply < <(compgen -W "up down" -- "$cur") ;;
	deps)
		# rapido deps PROFILE...: any number of cut --list's names
		_rapido_reply < <(compgen -W "$("${run[0]}" cut --list 2>/dev/null |
			awk '{ print $1 }')" -- "$cur") ;;
	results)
		if [ ${#words[@]} -eq 0 ]; then
			# the verbs of rapido results --help's "Verbs:" block
			_rapido_reply < <(compgen -W "$("${run[@]}" --help 2>/dev/null |
				sed -n '/^Verbs:$/,/^$/s/^ \([a-z][a-z]*\) .*/\1/p')" -- "$cur")
		else
			# result directories (OUT, DIR..., A B)
			_rapido_reply < <(compgen -d -- "$cur")
		fi ;;
	esac
}

complete -F _rapido cut vm vmctl netsetup ./cut ./vm ./vmctl ./netsetup ./bisect
complete -F _rapido rapido ./rapido rapido-cut rapido-vm rapido-vmctl rapido-netsetup
