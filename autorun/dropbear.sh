#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dropbear: an SSH server (dropbear, Debian's dropbear-bin) on TCP port 22
# of every guest address. root logs in with the key in SSH_AUTHORIZED_KEY
# and nothing else (no passwords). A fresh ed25519 host key is made at
# every boot (dropbearkey); its fingerprint is printed on the console.
#
# rapido.conf (or environment) keys:
#   SSH_AUTHORIZED_KEY   the public key line itself, as in authorized_keys,
#                        e.g. "ssh-ed25519 AAAA... me@host" (required; ./cut
#                        refuses to cut without it). Not a path: the guest
#                        cannot see the host's files, and rapido.conf is not
#                        a shell, so from a shell pass
#                        SSH_AUTHORIZED_KEY="$(cat ~/.ssh/id_ed25519.pub)".
#                        A value that looks like a path stops the guest with
#                        an error saying so.
#   DROPBEAR_SERVE_SECS  batch mode: serve at most this long (default 0: until
#                        told to stop, see below; ./vm --timeout still applies)
#
# Reach it with ./vm --net user --hostfwd tcp:127.0.0.1:2222-:22 and
#   ssh -p 2222 -i KEY root@127.0.0.1   (the host key changes every boot:
#   -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null)
# or over --net tap / --link-* at the VM's address. Copy files with
# scp -O (the image has scp); plain scp and sftp need the host's
# openssh-sftp-server (/usr/lib/sftp-server), copied in when installed.
#
# Interactive (./vm): dropbear runs beside the console shell.
# Batch (./vm --batch): the profile serves until a client creates
# /tmp/rapido-done (ssh ... touch /tmp/rapido-done) or DROPBEAR_SERVE_SECS
# pass, waits up to 10 s for SSH sessions to close, then the -x/-f extras
# run and the VM powers off with their status (0 without extras).
#@ description: SSH server (dropbear): root login with SSH_AUTHORIZED_KEY; batch: serves until /tmp/rapido-done
#@ include: net
#@ bins: dropbear dropbearkey cat mkdir chmod sleep
#@ bins-optional: scp /usr/lib/sftp-server /usr/lib/openssh/sftp-server
#@ bins-optional: ls cp mv rm ln touch ps grep sed hostname uname dmesg id tty env
#@ bins-optional: df mount umount less head tail
#@ conf: SSH_AUTHORIZED_KEY
#@ conf-optional: DROPBEAR_SERVE_SECS
#@ cpus: 1
#@ memory: 512M

DROPBEAR_PORT=22
DROPBEAR_KEY=/etc/dropbear/dropbear_ed25519_host_key
DROPBEAR_LOG=/tmp/dropbear.log
DROPBEAR_DONE=/tmp/rapido-done

case $SSH_AUTHORIZED_KEY in
/* | \~* | *.pub)
	rapido_fail "dropbear: SSH_AUTHORIZED_KEY='$SSH_AUTHORIZED_KEY' looks like a path; it must hold the key itself (\"ssh-ed25519 AAAA... user\"), e.g. SSH_AUTHORIZED_KEY=\"\$(cat ~/.ssh/id_ed25519.pub)\" ./cut dropbear"
	;;
*' '*) ;;
*)
	rapido_fail "dropbear: SSH_AUTHORIZED_KEY='$SSH_AUTHORIZED_KEY' is not a public key line (\"TYPE BASE64 [comment]\", as in a .pub file)"
	;;
esac

net_users || rapido_fail "dropbear: cannot write /etc/passwd, /etc/group, /etc/shells"
mkdir -p /root/.ssh || rapido_fail "dropbear: mkdir /root/.ssh"
# dropbear refuses keys in a directory or file others may write to
chmod 0700 /root /root/.ssh
echo "$SSH_AUTHORIZED_KEY" > /root/.ssh/authorized_keys || rapido_fail "dropbear: write authorized_keys"
chmod 0600 /root/.ssh/authorized_keys

mkdir -p /etc/dropbear && chmod 0700 /etc/dropbear || rapido_fail "dropbear: mkdir /etc/dropbear"
if [ ! -e "$DROPBEAR_KEY" ]; then
	dropbearkey -t ed25519 -f "$DROPBEAR_KEY" > /tmp/dropbearkey.out 2>&1 || {
		cat /tmp/dropbearkey.out >&2
		rapido_fail "dropbear: dropbearkey -t ed25519 -f $DROPBEAR_KEY"
	}
fi

# -F -E: stay in the foreground and log to the file (the daemon mode would
# throw the log away); -s: keys only, no passwords
net_start_bg /run/dropbear.rapido.pid "$DROPBEAR_LOG" \
	dropbear -F -E -s -r "$DROPBEAR_KEY" -p "$DROPBEAR_PORT" -P /run/dropbear.pid ||
	rapido_fail "dropbear: cannot start dropbear"
net_wait_listen "$DROPBEAR_PORT" 60 "$(< /run/dropbear.rapido.pid)" || {
	cat "$DROPBEAR_LOG" >&2
	rapido_fail "dropbear: dropbear does not listen on port $DROPBEAR_PORT (exited, or not within 60s)"
}
echo "rapido: dropbear: listening on port $DROPBEAR_PORT, host key $(dropbearkey -y -f "$DROPBEAR_KEY" | while read -r a b; do [ "$a" = Fingerprint: ] && echo "$b"; done)"
while read -r ifc addr; do
	echo "rapido: dropbear: ssh root@${addr%/*} ($ifc)"
done < <(net_addrs)

net_serve dropbear "$DROPBEAR_PORT" "$DROPBEAR_DONE" "${DROPBEAR_SERVE_SECS:-0}"
