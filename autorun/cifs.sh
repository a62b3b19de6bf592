#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cifs: the kernel's SMB client. Mounts //CIFS_SERVER/CIFS_SHARE at
# /mnt/cifs as CIFS_USER, then the -x/-f extras run (e.g. write a file
# there); the share is unmounted when the autorun shell exits. The server
# is another VM (samba_local) or any SMB server the guest can reach.
#
# rapido.conf (or environment) keys:
#   CIFS_SERVER      the server's IPv4 address (required), e.g. 192.168.156.1
#                    for the samba_local VM 1 of a --link-listen/--link-connect
#                    pair, or 192.168.155.101 for VM 1 on the ./netsetup bridge
#   CIFS_USER        user name (required)
#   CIFS_PASS        password (required; given to mount.cifs in PASSWD, not on
#                    a command line)
#   CIFS_SHARE       share name (default "share")
#   CIFS_MOUNT_OPTS  more mount options, comma separated (e.g. vers=3.1.1,seal)
#   CIFS_WAIT_SECS   how long to wait for the server's port 445 and keep
#                    retrying the mount (default 180: the server may still be
#                    booting)
#
# mount.cifs (cifs-utils) is used when the host has it; without it
# mount -t cifs passes the options to the kernel itself, and then CIFS_PASS
# cannot hold a comma (the guest says so).
#
# With samba_local as the server, write a file named rapido-done at the top
# of the share when done (touch /mnt/cifs/rapido-done): the server then
# stops serving and reports what it found. The unmount at exit lets it see
# the session end.
#@ description: mount //CIFS_SERVER/CIFS_SHARE (SMB, kernel cifs) at /mnt/cifs as CIFS_USER, then run the extras
#@ include: net
#@ bins: mount umount cat mkdir sleep timeout
#@ bins-optional: mount.cifs
#@ bins-optional: ls cp mv rm touch stat df dd cmp sync ps grep sed hostname dmesg
#@ bins-optional: head tail less sha256sum
#@ modules: cifs
#@ modules-optional: gcm ccm cmac ecb ctr ghash_generic sha512_generic nls_utf8
# The SMB3 signing and encryption algorithms (optional modules above) are
# built in by make kernel-config.
#@ kconfig: CONFIG_CIFS=m
#@ kconfig-optional: CONFIG_NETWORK_FILESYSTEMS=y CONFIG_NLS=y CONFIG_NLS_UTF8=m CONFIG_CRYPTO=y
#@ kconfig-optional: CONFIG_CRYPTO_GCM=y CONFIG_CRYPTO_CCM=y CONFIG_CRYPTO_CMAC=y
#@ kconfig-optional: CONFIG_CRYPTO_ECB=y CONFIG_CRYPTO_CTR=y CONFIG_CRYPTO_SHA512=y
#@ conf: CIFS_SERVER CIFS_USER CIFS_PASS
#@ secret: CIFS_PASS
#@ conf-optional: CIFS_SHARE CIFS_MOUNT_OPTS CIFS_WAIT_SECS
#@ cpus: 1
#@ memory: 512M

CIFS_DIR=/mnt/cifs
cifs_unc=//$CIFS_SERVER/${CIFS_SHARE:-share}
cifs_wait=${CIFS_WAIT_SECS:-180}

case $CIFS_SERVER in
*[!0-9.]* | *..* | .* | *.)
	rapido_fail "cifs: CIFS_SERVER='$CIFS_SERVER' is not an IPv4 address (the image cannot resolve names)"
	;;
esac
case $cifs_wait in
'' | *[!0-9]*) rapido_fail "cifs: CIFS_WAIT_SECS='$cifs_wait' is not a number of seconds" ;;
esac
case $CIFS_MOUNT_OPTS in
*username=* | *password=* | *user=* | *pass=*)
	rapido_fail "cifs: CIFS_MOUNT_OPTS must not hold the user or password: set CIFS_USER and CIFS_PASS"
	;;
esac
[ -n "$(net_addrs)" ] || rapido_fail "cifs: no network: boot with ./vm --net tap|user or --link-*"

# cifs_mount_once: one mount attempt; its messages in /tmp/cifs-mount.log
cifs_mount_once() {
	local opts="username=$CIFS_USER${CIFS_MOUNT_OPTS:+,$CIFS_MOUNT_OPTS}"

	if command -v mount.cifs > /dev/null; then
		PASSWD=$CIFS_PASS mount.cifs "$cifs_unc" "$CIFS_DIR" -o "$opts" > /tmp/cifs-mount.log 2>&1
	else
		# mount(8) hands the options to the kernel: no way to quote a comma
		mount -t cifs "$cifs_unc" "$CIFS_DIR" -o "$opts,password=$CIFS_PASS" \
			> /tmp/cifs-mount.log 2>&1
	fi
}

# cifs_port_open: something answers on CIFS_SERVER's port 445
cifs_port_open() {
	timeout 5 bash -c 'exec 3<> "/dev/tcp/$1/445"' _ "$CIFS_SERVER" 2> /dev/null
}

# cifs_mount_try: one mount attempt; a server that answers no to the user
# or the share will not change its mind: fail at once
cifs_mount_try() {
	cifs_mount_once && return 0
	case $(< /tmp/cifs-mount.log) in
	*"Permission denied"* | *"No such file or directory"*)
		cat /tmp/cifs-mount.log >&2
		rapido_fail "cifs: $CIFS_SERVER refuses $cifs_unc to $CIFS_USER (wrong CIFS_USER, CIFS_PASS or CIFS_SHARE?)"
		;;
	esac
	return 1
}

# cifs_umount: at exit, so the server sees the session end; bounded, as
# the server may be gone
cifs_umount() {
	rapido_mounted "$CIFS_DIR" || return 0
	sync
	timeout -s KILL 30 umount "$CIFS_DIR" || {
		echo "rapido: cifs: umount $CIFS_DIR failed" >&2
		return
	}
	# the kernel closes the connection after umount returns: let it go
	# out before the VM powers off, so the server sees the end
	net_wait_disconnect 445 10 ||
		echo "rapido: cifs: still connected to port 445 10s after umount" >&2
}

case $CIFS_PASS in
*,*)
	command -v mount.cifs > /dev/null ||
		rapido_fail "cifs: CIFS_PASS has a comma, which only mount.cifs can pass on: install cifs-utils on the host and cut again"
	;;
esac
mkdir -p "$CIFS_DIR" || rapido_fail "cifs: mkdir $CIFS_DIR"
start=$SECONDS
rapido_wait -i 1 "$((cifs_wait > 0 ? cifs_wait : 1))" cifs_port_open ||
	rapido_fail "cifs: nothing answers on $CIFS_SERVER port 445 after ${cifs_wait}s"
left=$((cifs_wait - (SECONDS - start)))
rapido_wait -i 2 "$((left > 0 ? left : 1))" cifs_mount_try || {
	cat /tmp/cifs-mount.log >&2
	rapido_fail "cifs: cannot mount $cifs_unc on $CIFS_DIR as $CIFS_USER within ${cifs_wait}s"
}
trap cifs_umount EXIT
! rapido_mounted "$CIFS_DIR" ||
	echo "rapido: cifs: ${RAPIDO_MOUNT[0]} on $CIFS_DIR (${RAPIDO_MOUNT[2]}) after" \
		"$((SECONDS - start))s: ${RAPIDO_MOUNT[3]}"
