# SPDX-License-Identifier: GPL-2.0
# lio.sh: shell functions for profiles with a LIO target in the guest
# (lio_local, lio_rbd, tcmu_rbd_loop): the SCSI disks tcm_loop makes, and
# open-iscsi's iscsid and the disks of its sessions, for logging in to the
# guest's own iSCSI portal. Sourced into every profile's shell: only
# function definitions here, nothing runs.

LIO_ISCSID_LOG=/tmp/iscsid.log

# lio_sd WWN LUN VAR: set VAR to the SCSI disk tcm_loop made for LUN of
# target port WWN (waits)
lio_sd() {
	local addr dev d

	addr=$(cat "/sys/kernel/config/target/loopback/$1/tpgt_1/address") ||
		rapido_fail "tcm_loop: no SCSI address for $1"
	d=/sys/bus/scsi/devices/$addr:$2/block
	rapido_wait 30 test -e "$d" ||
		rapido_fail "tcm_loop: LUN $2: no SCSI disk at $addr:$2 (sd_mod loaded?)"
	for dev in "$d"/*; do
		[ -e "$dev" ] && { printf -v "$3" '/dev/%s' "${dev##*/}"; return 0; }
	done
	rapido_fail "tcm_loop: LUN $2: no block device in $d"
}

# lio_iscsid_up: iscsid listens for iscsiadm (its abstract UNIX socket)
lio_iscsid_up() {
	local l

	while read -r l; do
		[[ $l == *@ISCSIADM_ABSTRACT_NAMESPACE* ]] && return 0
	done < /proc/net/unix
	return 1
}

# lio_iscsid_start INITIATOR-IQN: open-iscsi's daemon (it logs sessions in
# and keeps them), in the foreground of a background job: LIO_ISCSID is
# its pid, LIO_ISCSID_LOG its output. The image has no /etc/iscsi: the
# initiator name and a configuration without iscsid.startup (Debian's runs
# systemctl when iscsiadm finds no iscsid) are written here. iscsid serves
# only root, by name: /etc/passwd.
lio_iscsid_start() {
	net_users || return 1
	mkdir -p /etc/iscsi /run/lock/iscsi || return 1
	echo "InitiatorName=$1" > /etc/iscsi/initiatorname.iscsi || return 1
	printf '%s\n' "node.startup = manual" \
		"node.conn[0].timeo.login_timeout = 30" \
		"node.session.initial_login_retry_max = 2" > /etc/iscsi/iscsid.conf || return 1
	# its own session: at SIGTERM iscsid signals its whole process group
	setsid iscsid -f > "$LIO_ISCSID_LOG" 2>&1 < /dev/null &
	LIO_ISCSID=$!
	rapido_wait -p "$LIO_ISCSID" 30 lio_iscsid_up
}

# lio_iscsid_stop: stop iscsid by its pid (SIGTERM) and reap it
lio_iscsid_stop() {
	kill "$LIO_ISCSID" || return 1
	wait "$LIO_ISCSID"
	! kill -0 "$LIO_ISCSID" 2> /dev/null
}

# lio_iscsi_sd LUN VAR: set VAR to the SCSI disk of LUN in the iSCSI session
lio_iscsi_sd() {
	local b

	for b in /sys/class/iscsi_session/session*/device/target*/*:"$1"/block/*; do
		[ -e "$b" ] && { printf -v "$2" '/dev/%s' "${b##*/}"; return 0; }
	done
	return 1
}

# lio_on_fail STATUS MSG: what iscsid said, if it ran (a rapido_on_fail hook)
lio_on_fail() {
	[ -s "$LIO_ISCSID_LOG" ] || return 0
	echo "rapido: $RAPIDO_PROFILE: --- $LIO_ISCSID_LOG" >&2
	cat "$LIO_ISCSID_LOG" >&2
}
