# SPDX-License-Identifier: GPL-2.0
# rapido-wait.sh: waiting in the guest without a fork: the one wait loop
# (rapido_wait) and what it waits on (rapido_mounted, rapido_pid_gone,
# rapido_kernel_died), and a daemon's clean-up on failure
# (rapido_on_fail_kill, rapido_kernel_tail). Apart from rapido.sh: a batch
# autorun sources it only when its profile or extras name one of these
# (src/cut/libpick.c). Only definitions here, nothing runs.

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

# rapido_mounted DIR [TYPE]: a file system (of TYPE) is mounted on DIR;
# the last one's /proc/mounts fields in RAPIDO_MOUNT (DEV DIR TYPE
# OPTIONS). Read in this shell: no findmnt, no fork.
rapido_mounted() {
	local dev dir type opts _
	RAPIDO_MOUNT=()
	while read -r dev dir type opts _; do
		[ "$dir" = "$1" ] && [ "${2:-$type}" = "$type" ] &&
			RAPIDO_MOUNT=("$dev" "$dir" "$type" "$opts")
	done < /proc/mounts
	[ ${#RAPIDO_MOUNT[@]} -gt 0 ]
}

# rapido_pid_gone PID: true once process PID is gone (a wait's COMMAND)
rapido_pid_gone() {
	! kill -0 "$1" 2> /dev/null
}

# rapido_kernel_died: true once the kernel has oopsed (TAINT_DIE, 128, in
# /proc/sys/kernel/tainted): a wait for the kernel's answer can stop there
rapido_kernel_died() {
	local t
	read -r t < /proc/sys/kernel/tainted && (((t & 128) != 0))
}

# rapido_kernel_tail [STATUS MSG]: the kernel's last 30 lines, if the image
# has dmesg (a rapido_on_fail hook for profiles that drive the kernel)
rapido_kernel_tail() {
	command -v dmesg > /dev/null || return 0
	echo "rapido: --- dmesg" >&2
	dmesg | { mapfile -t l; printf '%s\n' "${l[@]: -30}"; } >&2
}

# rapido_on_fail_kill PIDFILE: have rapido_fail kill the daemon whose PID
# PIDFILE holds (it wrote it when it started), so that no failure path
# leaves it running; a PIDFILE emptied (: > PIDFILE) after its own stop is
# left alone
_rapido_fail_pidfiles=()
rapido_on_fail_kill() {
	_rapido_fail_pidfiles+=("$1")
	rapido_on_fail _rapido_fail_kill
}
_rapido_fail_kill() {
	local f pid
	for f in "${_rapido_fail_pidfiles[@]}"; do
		[ -s "$f" ] && read -r pid < "$f" && [[ $pid =~ ^[0-9]+$ ]] || continue
		kill "$pid" 2> /dev/null && echo "rapido: killed $pid ($f)" >&2
	done
	return 0
}
