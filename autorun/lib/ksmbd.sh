# SPDX-License-Identifier: GPL-2.0
# ksmbd.sh: an SMB server in the guest (the kernel's ksmbd with Debian's
# ksmbd-tools: ksmbd.mountd, ksmbd.addshare, ksmbd.adduser) sharing zram
# file systems with the guest's own cifs client over loopback (ksmbd_local,
# fstests_cifs):
#   ksmbd_prepare              the server's user (a Unix one too: ksmbd.mountd
#                              maps a login to its uid and gid) in ksmbdpwd.db
#   ksmbd_share NAME FS SIZE   a zram disk of SIZE with FS on it, mounted at
#                              /srv/smb/NAME and shared as //127.0.0.1/NAME
#   ksmbd_server_up            start ksmbd.mountd (once the shares are made)
#                              and wait for ksmbd on port 445
#   ksmbd_mount_options        the client's options for KSMBD_VERS, in REPLY
#   ksmbd_mount SHARE DIR OPTS mount //127.0.0.1/SHARE on DIR with cifs; fails
#                              at once when the kernel oopses meanwhile
#   ksmbd_check_mount DIR      DIR is a cifs mount of version KSMBD_VERS, as
#                              /proc/mounts says (net_check_mount); printed
# Sourced into every image before the profile, so it only defines functions.

# One user, one password: server and client are this guest, over loopback
KSMBD_USER=rapido
KSMBD_PASS=rapido
KSMBD_CONF=/etc/ksmbd/ksmbd.conf
KSMBD_PWDDB=/etc/ksmbd/ksmbdpwd.db
KSMBD_LOG=/var/log/ksmbd.mountd.log

ksmbd_prepare() {
	mkdir -p /etc/ksmbd /var/log /run || rapido_fail "cannot make ksmbd's directories"
	net_add_user "$KSMBD_USER" || rapido_fail "cannot add the Unix user $KSMBD_USER"
	# --verbose's lines are what the console shows when something fails
	ksmbd.adduser -c "$KSMBD_CONF" -i "$KSMBD_PWDDB" -a "$KSMBD_USER" -p "$KSMBD_PASS" \
		> /tmp/ksmbd-adduser.log 2>&1 || {
		cat /tmp/ksmbd-adduser.log >&2
		rapido_fail "ksmbd.adduser -a $KSMBD_USER failed"
	}
}

ksmbd_share() {
	local name=$1 fs=$2 size=$3 dir=/srv/smb/$1 dev
	mkdir -p "$dir" || rapido_fail "mkdir $dir failed"
	# shellcheck disable=SC2046 # --mkfs-arg words
	dev=$(zram_add "/tmp/ksmbd-zram-$name.log" -s "$size" --mkfs "$fs" \
		$(zram_mkfs_args "$fs") --mount "$dir") ||
		rapido_fail "cannot make a $size $fs zram disk for $dir (see above)"
	chown "$KSMBD_USER:" "$dir" || rapido_fail "chown $KSMBD_USER $dir failed"
	# one "name = value" per line, as ksmbd.addshare's --options takes them
	ksmbd.addshare -c "$KSMBD_CONF" -a "$name" \
		-o "path = $dir"$'\n'"read only = no"$'\n'"valid users = $KSMBD_USER" \
		> "/tmp/ksmbd-addshare-$name.log" 2>&1 || {
		cat "/tmp/ksmbd-addshare-$name.log" >&2
		rapido_fail "ksmbd.addshare -a $name failed"
	}
	echo "ksmbd: $dev ($fs, $size) at $dir shared as //127.0.0.1/$name"
}

ksmbd_server_up() {
	local pid
	# -n: in the foreground, its log in one file rather than syslog (the
	# image has none); ksmbd.mountd sends the kernel its configuration,
	# then ksmbd listens on port 445. The preload sets the share
	# configuration's payload_sz that ksmbd-tools 3.4.7 leaves 0 and
	# 6.1.192's ksmbd requires (preload/ksmbd-ipc.c)
	LD_PRELOAD=/usr/bin/rapido-ksmbd-ipc.so net_start_bg /run/ksmbd.rapido.pid "$KSMBD_LOG" \
		ksmbd.mountd -n -c "$KSMBD_CONF" -u "$KSMBD_PWDDB" ||
		rapido_fail "cannot start ksmbd.mountd"
	pid=$(< /run/ksmbd.rapido.pid)
	rapido_on_fail _ksmbd_fail_log
	net_wait_listen 445 60 "$pid" ||
		rapido_fail "ksmbd does not listen on port 445 (ksmbd.mountd exited, or not within 60s)"
	echo "ksmbd: ksmbd.mountd (pid $pid) up, ksmbd listening on port 445"
}

# _ksmbd_fail_log: a rapido_on_fail hook: what ksmbd.mountd said (logins
# and shares refused are told there, not to the client). Its output to a
# file is buffered until it exits: it is stopped first (SIGTERM: it exits
# cleanly, flushing it)
_ksmbd_fail_log() {
	local pid
	read -r pid < /run/ksmbd.rapido.pid 2> /dev/null &&
		kill -TERM "$pid" 2> /dev/null &&
		rapido_wait 10 rapido_pid_gone "$pid"
	echo "rapido: --- $KSMBD_LOG" >&2
	cat "$KSMBD_LOG" >&2
}

# mount.cifs takes the password among the options; xfstests' CIFS_MOUNT_OPTIONS
# are given to mount the same way
ksmbd_mount_options() {
	REPLY="vers=${KSMBD_VERS:-3.1.1},username=$KSMBD_USER,password=$KSMBD_PASS"
}

# _ksmbd_settled PID: the mount PID is done, or the kernel oopsed (a
# ksmbd worker that dies leaves the client waiting three echo intervals,
# 180 s, before it gives up)
_ksmbd_settled() {
	rapido_pid_gone "$1" || rapido_kernel_died
}

ksmbd_mount() {
	local pid rc
	mount -t cifs -o "$3" "//127.0.0.1/$1" "$2" > /tmp/ksmbd-mount.log 2>&1 &
	pid=$!
	rapido_wait -i 0.2 300 _ksmbd_settled "$pid"
	if ! rapido_pid_gone "$pid"; then
		cat /tmp/ksmbd-mount.log >&2
		rapido_kernel_died &&
			rapido_fail "the kernel oopsed while cifs mounted //127.0.0.1/$1 (see the console)"
		rapido_fail "mounting //127.0.0.1/$1 on $2 took over 300s"
	fi
	wait "$pid"
	rc=$?
	[ "$rc" = 0 ] || cat /tmp/ksmbd-mount.log >&2
	return "$rc"
}

# ksmbd_check_mount DIR: what the kernel mounted, read back (the dialect
# the client and server agreed on is in /proc/mounts' vers=)
ksmbd_check_mount() {
	net_check_mount "$1" cifs "${KSMBD_VERS:-3.1.1}" KSMBD_VERS cifs
}
