# SPDX-License-Identifier: GPL-2.0
# net.sh: shell functions for network server and client profiles (dropbear,
# samba_local, cifs, nfs_server, nfs_client): users, addresses, TCP ports, serving until told to
# stop. Sourced into every profile's shell: only function definitions here,
# nothing runs. Bash builtins only, so any image can use them, but for
# net_port_open (and net_wait_server, its caller), which needs timeout in
# the profile's #@ bins (a connect to an address that never answers would
# hang); failures and waits go through rapido_fail and rapido_wait
# (rapido.sh, rapido-wait.sh).

# net_addrs: this VM's addresses as ./vm gave them (rapido.ip= on the
# kernel command line), one "IFACE ADDR/PREFIX" line each
net_addrs() {
	local w ifc addr rest

	for w in $(< /proc/cmdline); do
		case $w in
		rapido.ip=*)
			IFS=, read -r ifc addr rest <<< "${w#rapido.ip=}"
			echo "$ifc $addr"
			;;
		esac
	done
}

# net_users: /etc/passwd, /etc/group and /etc/shells with root (home /root,
# shell /bin/bash). The image has none of them; servers need them
# (getpwnam for the home directory and shell, getusershell).
net_users() {
	[ -e /etc/passwd ] || echo "root:x:0:0:root:/root:/bin/bash" > /etc/passwd || return 1
	[ -e /etc/group ] || echo "root:x:0:" > /etc/group || return 1
	[ -e /etc/shells ] || printf '/bin/sh\n/bin/bash\n/usr/bin/bash\n' > /etc/shells || return 1
	# Samba's guest account, and what unmapped ids become
	net_user_uid nobody > /dev/null ||
		echo "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin" >> /etc/passwd || return 1
	_net_has_group nogroup || echo "nogroup:x:65534:" >> /etc/group
}

# _net_has_group NAME: true if /etc/group has NAME
_net_has_group() {
	local name

	while IFS=: read -r name _; do
		[ "$name" = "$1" ] && return 0
	done < /etc/group
	return 1
}

# net_user_uid NAME: print NAME's uid from /etc/passwd; false if absent
net_user_uid() {
	local name uid

	while IFS=: read -r name _ uid _; do
		[ "$name" = "$1" ] && { echo "$uid"; return 0; }
	done < /etc/passwd
	return 1
}

# net_add_user NAME: a user with a group of its own, the first free uid
# from 1000, home /home/NAME; nothing if NAME exists
net_add_user() {
	local uid=1000 u

	net_users || return 1
	net_user_uid "$1" > /dev/null && return 0
	while IFS=: read -r _ _ u _; do
		# system ids above 60000 (nobody) do not count
		[ "$u" -ge "$uid" ] 2> /dev/null && [ "$u" -lt 60000 ] && uid=$((u + 1))
	done < /etc/passwd
	echo "$1:x:$uid:$uid::/home/$1:/bin/bash" >> /etc/passwd || return 1
	echo "$1:x:$uid:" >> /etc/group || return 1
	mkdir -p "/home/$1" && chown "$uid:$uid" "/home/$1"
}

# _net_tcp_count PORT STATE [remote]: sockets on local (or remote) TCP PORT
# in STATE (0A listening, 01 established), IPv4 and IPv6, from /proc/net/tcp{,6}
_net_tcp_count() {
	local hex f laddr raddr st end n=0

	printf -v hex '%04X' "$1"
	for f in /proc/net/tcp /proc/net/tcp6; do
		[ -r "$f" ] || continue
		while read -r _ laddr raddr st _; do
			end=$laddr
			[ "${3:-}" = remote ] && end=$raddr
			[ "${end##*:}" = "$hex" ] && [ "$st" = "$2" ] && n=$((n + 1))
		done < "$f"
	done
	echo $n
}

# net_port_open HOST PORT: something answers on HOST's TCP PORT (a
# connect, 5 s at most)
net_port_open() {
	timeout 5 bash -c 'exec 3<> "/dev/tcp/$1/$2"' _ "$1" "$2" 2> /dev/null
}

# net_check_mount DIR "TYPE..." VERS KEY LABEL: a network file system's
# client reads back what it mounted on DIR: one of the TYPEs, with the
# option vers=VERS (the version the rapido.conf KEY asked for, not the
# one client and server settled on by themselves), or rapido_fail says
# what is there; prints the mount's source, type and options
net_check_mount() {
	local what=${2%% *} t

	rapido_mounted "$1" || rapido_fail "$what: nothing is mounted on $1"
	for t in $2; do
		[ "${RAPIDO_MOUNT[2]}" = "$t" ] && break
	done
	[ "${RAPIDO_MOUNT[2]}" = "$t" ] || rapido_fail "$what: $1 is ${RAPIDO_MOUNT[2]}, not $5"
	case ,${RAPIDO_MOUNT[3]}, in
	*",vers=$3,"*) ;;
	*) rapido_fail "$what: $1 is mounted with ${RAPIDO_MOUNT[3]}: not vers=$3 ($4)" ;;
	esac
	echo "$what: ${RAPIDO_MOUNT[0]} on $1 (${RAPIDO_MOUNT[2]}): ${RAPIDO_MOUNT[3]}"
}

# net_wait_server WHAT HOST PORT SECS CMD...: a client waiting for a
# server that may still be booting, on its state, not for a time: until
# HOST answers on TCP PORT, then until CMD (a mount, say) succeeds,
# retried every 2 s, SECS in all; says how long each took. False when
# either did not happen in time (the caller says what failed, with CMD's
# messages).
net_wait_server() {
	local what=$1 host=$2 port=$3 secs=$4 start=$SECONDS left

	shift 4
	rapido_wait -i 1 "$secs" net_port_open "$host" "$port" || {
		echo "$what: nothing answers on $host port $port after ${secs}s" >&2
		return 1
	}
	echo "$what: $host answers on port $port after $((SECONDS - start))s"
	left=$((secs - (SECONDS - start)))
	rapido_wait -i 2 "$((left > 0 ? left : 1))" "$@" || return 1
	echo "$what: $* succeeded after $((SECONDS - start))s"
}

# net_tcp_listening PORT: true if something listens on TCP PORT
net_tcp_listening() {
	[ "$(_net_tcp_count "$1" 0A)" -gt 0 ]
}

# net_tcp_clients PORT: print how many connections to local TCP PORT are open
net_tcp_clients() {
	_net_tcp_count "$1" 01
}

# _net_disconnected PORT: this VM has no connection to remote TCP PORT
_net_disconnected() {
	[ "$(_net_tcp_count "$1" 01 remote)" = 0 ]
}

# net_wait_disconnect PORT SECS: wait up to SECS for this VM's connections
# to remote TCP PORT to close (a client making sure its server saw it leave)
net_wait_disconnect() {
	rapido_wait -i 0.2 "$2" _net_disconnected "$1"
}

# net_wait_listen PORT SECS [PID]: wait up to SECS for a listener on TCP
# PORT; false at once if process PID (the server) is gone
net_wait_listen() {
	rapido_wait ${3:+-p "$3"} "$2" net_tcp_listening "$1"
}

# _net_no_clients PORT: no connection to local TCP PORT is open
_net_no_clients() {
	[ "$(net_tcp_clients "$1")" = 0 ]
}

# net_start_bg PIDFILE LOG CMD...: start CMD in the background (outside
# the console shell's job table) with its output in LOG; PIDFILE gets its pid
net_start_bg() {
	local pidfile=$1 log=$2

	shift 2
	( "$@" > "$log" 2>&1 < /dev/null & echo $! > "$pidfile" )
	[ -s "$pidfile" ]
}

# net_serve WHAT PORT MARKER SECS: in batch mode, keep serving until the
# file MARKER exists or SECS seconds have passed (0 or empty: no limit; the
# host's ./vm --timeout still applies), then give the clients connected to
# TCP PORT up to 10 s to close, so the one that wrote MARKER sees its
# command finish before the VM powers off. Returns at once when not in
# batch mode (the console shell is the user's). Status 0 either way.
net_serve() {
	local what=$1 port=$2 marker=$3 secs=${4:-0} start=$SECONDS

	[ "${RAPIDO_BATCH:-0}" = 1 ] || return 0
	case $secs in
	'' | *[!0-9]*) rapido_fail "$what: serve time '$secs' is not a number of seconds" ;;
	esac
	if [ "$secs" -gt 0 ]; then
		echo "rapido: $what: serving until $marker exists or ${secs}s pass"
	else
		echo "rapido: $what: serving until $marker exists"
	fi
	if ! rapido_wait -i 0.2 "$secs" test -e "$marker"; then
		echo "rapido: $what: served ${secs}s, stopping"
		return 0
	fi
	echo "rapido: $what: $marker appeared after $((SECONDS - start))s, stopping"
	rapido_wait -i 0.2 10 _net_no_clients "$port" ||
		echo "rapido: $what: clients still connected to port $port after 10s; going on" >&2
	return 0
}

# net_server_saw DIR: what clients left at the top of a server's DIR, a
# line each: "SERVER-SAW NAME FIRST-LINE" (200 characters of it),
# directories "SERVER-SAW NAME/"; rapido-done (the clients' stop marker)
# and lost+found left out
net_server_saw() {
	local f name line

	for f in "$1"/*; do
		[ -e "$f" ] || continue
		name=${f##*/}
		case $name in
		rapido-done | lost+found) continue ;;
		esac
		if [ -d "$f" ]; then
			echo "SERVER-SAW $name/"
		else
			line=
			read -r line < "$f"
			echo "SERVER-SAW $name ${line:0:200}"
		fi
	done
}
