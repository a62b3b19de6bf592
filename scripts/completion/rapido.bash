# SPDX-License-Identifier: GPL-2.0
# rapido.bash: bash completion for cut, vm, vmctl, netsetup and bisect (./cut in a
# checkout as well). Options come from the program's own --help, profiles
# from cut --list and VM numbers from the QMP sockets in the state dir, so
# nothing here can drift from the programs.
#   . scripts/completion/rapido.bash     (make install puts it where
#   bash-completion loads it by command name)

# _rapido_opts PROG: the long and short options PROG --help lists.
_rapido_opts()
{
	"$1" --help 2>/dev/null | grep -oE -- '(^|[ ,])--?[a-zA-Z][a-zA-Z0-9-]*(\[?=)?' |
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

# _rapido_bisect PROG CUR PREV: bisect's words: git revisions of KERNEL_SRC
# (else the current directory) after --good, --bad and --compare, the
# profiles of the cut beside it, the --flaky policies
_rapido_bisect()
{
	local prog=$1 cur=$2 prev=$3 i words=0 revs=0 src=${KERNEL_SRC:-.}

	case "$prev" in
	--good|--bad)
		mapfile -t COMPREPLY < <(compgen -W "$(git -C "$src" for-each-ref \
			--format='%(refname:short)' 2>/dev/null)" -- "$cur")
		return ;;
	--flaky)
		mapfile -t COMPREPLY < <(compgen -W "bad skip good" -- "$cur")
		return ;;
	--build-cmd|--fragment)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return ;;
	-O|--build-dir|--state)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return ;;
	--runs|--match|-j|--jobs|--base)
		return ;;
	esac
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_rapido_opts "$prog")" -- "$cur")
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
		mapfile -t COMPREPLY < <(compgen -W "$(git -C "$src" for-each-ref \
			--format='%(refname:short)' 2>/dev/null)" -- "$cur")
	elif [ $words -eq $revs ]; then
		mapfile -t COMPREPLY < <(compgen -W "$("${prog%bisect}cut" --list 2>/dev/null |
			awk '{ print $1 }')" -- "$cur")
	fi
}

_rapido()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=
	local prog=${COMP_WORDS[0]} name i words=() args=0

	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	name=${prog##*/}
	name=${name#rapido-}
	COMPREPLY=()
	if [ "$name" = bisect ]; then
		_rapido_bisect "$prog" "$cur" "$prev"
		return
	fi

	# option arguments
	case "$prev" in
	-o|--output|-f|--file|--log|--mpath)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return ;;
	--share)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return ;;
	--accel)
		mapfile -t COMPREPLY < <(compgen -W "auto kvm tcg" -- "$cur")
		return ;;
	--net)
		mapfile -t COMPREPLY < <(compgen -W "tap user none" -- "$cur")
		return ;;
	-x|--cmd|-t|--timeout|--cpus|--memory|--mpath-paths|--tap|--hostfwd|\
	--link-listen|--link-connect|--append|--netns)
		return ;;
	esac
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_rapido_opts "$prog")" -- "$cur")
		[[ ${COMPREPLY[0]:-} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	# the non-option words before the cursor
	for ((i = 1; i < COMP_CWORD; i++)); do
		case "${COMP_WORDS[i]}" in
		-o|--output|-f|--file|--log|--mpath|--share|--accel|--net|-x|--cmd|-t|\
		--timeout|--cpus|--memory|--mpath-paths|--tap|--hostfwd|--link-listen|\
		--link-connect|--append|--netns) i=$((i + 1)) ;;
		--) args=-1; break ;;
		-*) ;;
		*) words+=("${COMP_WORDS[i]}") ;;
		esac
	done
	[ $args -lt 0 ] && return	# qemu's arguments
	case "$name" in
	cut)
		[ ${#words[@]} -eq 0 ] &&
			mapfile -t COMPREPLY < <(compgen -W "$("$prog" --list 2>/dev/null |
				awk '{ print $1 }')" -- "$cur") ;;
	vm)
		[ ${#words[@]} -eq 0 ] && mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
	vmctl)
		if [ ${#words[@]} -eq 0 ]; then
			local d q nums=
			d=$(_rapido_state_dir)
			for q in "$d"/vm*.qmp; do
				[ -S "$q" ] || continue
				q=${q##*/vm}
				nums="$nums ${q%.qmp}"
			done
			mapfile -t COMPREPLY < <(compgen -W "$nums" -- "$cur")
		elif [ ${#words[@]} -eq 1 ]; then
			# the commands of vmctl --help's usage lines
			mapfile -t COMPREPLY < <(compgen -W "$("$prog" --help 2>/dev/null |
				sed -nE 's/^ *vmctl \[options\] N ([a-z]+).*/\1/p')" -- "$cur")
		fi ;;
	netsetup)
		[ ${#words[@]} -eq 0 ] && mapfile -t COMPREPLY < <(compgen -W "up down" -- "$cur") ;;
	esac
}

complete -F _rapido cut vm vmctl netsetup ./cut ./vm ./vmctl ./netsetup ./bisect
complete -F _rapido rapido-cut rapido-vm rapido-vmctl rapido-netsetup rapido-bisect
