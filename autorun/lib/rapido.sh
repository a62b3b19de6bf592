# SPDX-License-Identifier: GPL-2.0
# rapido.sh: shell functions for every profile script, sourced before the
# profile: the one way to fail (rapido_fail) and the one wait loop
# (rapido_wait). Only definitions here, nothing runs.

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
# (default 1), which is ./vm's exit status
rapido_fail() {
	local rc=1 h

	if [ "${1:-}" = -s ]; then
		rc=$2
		shift 2
	fi
	echo "rapido: FAILED: $*" >&2
	for h in "${RAPIDO_FAIL_HOOKS[@]}"; do
		"$h" "$rc" "$*"
	done
	exit "$rc"
}

# rapido_kernel_tail [STATUS MSG]: the kernel's last 30 lines, if the image
# has dmesg (a rapido_on_fail hook for profiles that drive the kernel)
rapido_kernel_tail() {
	command -v dmesg > /dev/null || return 0
	echo "rapido: --- dmesg" >&2
	dmesg | { mapfile -t l; printf '%s\n' "${l[@]: -30}"; } >&2
}

# rapido_sleep SECS: sleep without a fork (under TCG each fork costs a
# good part of a second): a read with a timeout on a pipe nobody writes to
rapido_sleep() {
	[ -n "${RAPIDO_SLEEPFD:-}" ] || exec {RAPIDO_SLEEPFD}<> <(:)
	read -r -t "$1" -u "$RAPIDO_SLEEPFD" _
	return 0
}

# rapido_wait [-p PID] [-i STEP] SECS COMMAND...: run COMMAND every STEP
# seconds (default 0.1) until it succeeds, for up to SECS whole seconds (0:
# no limit; a TCG guest on a busy host is slow: be generous). False if it
# never did, or at once when process PID (a daemon COMMAND waits for) is
# gone. COMMAND runs in this shell: it may set variables, or rapido_fail
# when waiting is no use. E.g. rapido_wait 30 test -e PATH.
rapido_wait() {
	local pid= step=0.1 end=

	while :; do
		case ${1:-} in
		-p) pid=$2; shift 2 ;;
		-i) step=$2; shift 2 ;;
		*) break ;;
		esac
	done
	[ "$1" = 0 ] || end=$((${EPOCHREALTIME//[!0-9]/} + $1 * 1000000))
	shift
	until "$@"; do
		[ -z "$pid" ] || kill -0 "$pid" 2> /dev/null || return 1
		[ -z "$end" ] || [ "${EPOCHREALTIME//[!0-9]/}" -lt "$end" ] || return 1
		rapido_sleep "$step"
	done
}

PS1="rapido${RAPIDO_VM}:\w# "
