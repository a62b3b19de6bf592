#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# samba_local: a Samba file server (the host's smbd) exporting a zram-backed
# file system as //ADDR/CIFS_SHARE to the user CIFS_USER with password
# CIFS_PASS, on TCP port 445 of every guest address (./vm --net tap,
# --net user with a port forward, or --link-listen/--link-connect). The
# cifs profile, in another VM, is its client.
#
# rapido.conf (or environment) keys:
#   CIFS_USER, CIFS_PASS  the one Samba user (required; made a Unix user too
#                         unless root) and its password
#   CIFS_SHARE            share name (default "share"), path /mnt/share
#   SAMBA_FS              ext4 (default) or xfs, made on the zram disk
#   SAMBA_ZRAM_SIZE       size of the zram disk (default 512M; memory is used
#                         only for what is written; xfs needs 300M or more)
#   SAMBA_SERVE_SECS      batch mode: serve at most this long (default 0:
#                         until told to stop, see below)
#   SAMBA_LOG_LEVEL       smbd's debug level (default 1); its log is
#                         /var/log/samba/smbd.log in the guest
#
# Interactive (./vm): smbd runs beside the console shell.
# Batch (./vm --batch): the profile serves until a client writes a file
# named rapido-done at the top of the share, or SAMBA_SERVE_SECS pass;
# gives the clients up to 10 s to disconnect; prints one line per file
# found at the top of the share, "SERVER-SAW NAME FIRST-LINE" (directories
# "SERVER-SAW NAME/"); then the -x/-f extras run (they see the files in
# /mnt/share) and the VM powers off with their status (0 without extras).
#
# Samba comes from the host's packages (Debian: samba, samba-common-bin):
# smbd with its libraries; the plugins under the Samba module directory
# (smbd -b: MODULESDIR) are not needed for a standalone file server with
# tdbsam and are not copied. SAMBA_SRC (a Samba build tree) is not
# supported: ./cut cannot yet take binaries from a configured tree.
#@ description: Samba (smbd) sharing a zram ext4/xfs as //ADDR/CIFS_SHARE for CIFS_USER; batch: serves until rapido-done
#@ include: net zram
#@ bins: smbd smbpasswd cat mkdir chmod chown sleep
#@ bins-optional: mkfs.ext4 mkfs.xfs
#@ bins-optional: pdbedit smbstatus testparm smbcontrol
#@ bins-optional: /usr/libexec/samba/samba-dcerpcd /usr/libexec/samba/rpcd_classic
#@ bins-optional: /usr/libexec/samba/rpcd_epmapper /usr/libexec/samba/rpcd_lsad
#@ bins-optional: /usr/libexec/samba/rpcd_winreg
#@ bins-optional: ls cp mv rm touch stat df mount umount ps grep sed hostname dmesg
#@ bins-optional: head tail less
#@ modules-optional: ext4 xfs
# smbd: file locks, extended attributes and ACLs on the share
#@ kconfig-optional: CONFIG_EXT4_FS=m CONFIG_XFS_FS=m CONFIG_FILE_LOCKING=y
#@ kconfig-optional: CONFIG_EXT4_FS_POSIX_ACL=y CONFIG_XFS_POSIX_ACL=y
#@ conf: CIFS_USER CIFS_PASS
#@ secret: CIFS_PASS
#@ conf-optional: CIFS_SHARE SAMBA_FS SAMBA_ZRAM_SIZE SAMBA_SERVE_SECS SAMBA_LOG_LEVEL
#@ cpus: 1
#@ memory: 1G

SAMBA_SHARE=${CIFS_SHARE:-share}
SAMBA_DIR=/mnt/share
SAMBA_CONF=/etc/samba/smb.conf
SAMBA_LOG=/var/log/samba/smbd.log
SAMBA_DONE=$SAMBA_DIR/rapido-done
SAMBA_PORT=445
samba_fs=${SAMBA_FS:-ext4}

case $SAMBA_SHARE in
'' | *[!A-Za-z0-9._-]* | global | homes | printers)
	rapido_fail "samba_local: CIFS_SHARE='$SAMBA_SHARE': use letters, digits, '.', '_' and '-'"
	;;
esac
case $CIFS_USER in
'' | *[!A-Za-z0-9._-]* | -*)
	rapido_fail "samba_local: CIFS_USER='$CIFS_USER': use letters, digits, '.', '_' and '-'"
	;;
esac
case $samba_fs in
ext4 | xfs) ;;
*) rapido_fail "samba_local: SAMBA_FS='$samba_fs': ext4 or xfs" ;;
esac
command -v "mkfs.$samba_fs" > /dev/null ||
	rapido_fail "samba_local: mkfs.$samba_fs is not in the image (install it on the host and cut again)"

# the file system the share lives on
mkfs_args=()
[ "$samba_fs" = xfs ] && mkfs_args=(--mkfs-arg -f)
samba_zram=$(rapido-zram add -s "${SAMBA_ZRAM_SIZE:-512M}" --mkfs "$samba_fs" "${mkfs_args[@]}" \
	--mount "$SAMBA_DIR" 2> /tmp/samba-zram.log) || {
	cat /tmp/samba-zram.log >&2
	rapido_fail "samba_local: rapido-zram add -s ${SAMBA_ZRAM_SIZE:-512M} --mkfs $samba_fs --mount $SAMBA_DIR"
}

# the user, Unix and Samba
net_users || rapido_fail "samba_local: cannot write /etc/passwd"
if [ "$CIFS_USER" != root ]; then
	net_add_user "$CIFS_USER" || rapido_fail "samba_local: cannot add the user $CIFS_USER"
fi
chown "$CIFS_USER:" "$SAMBA_DIR" || rapido_fail "samba_local: chown $CIFS_USER $SAMBA_DIR"
chmod 0755 "$SAMBA_DIR"

samba_dirs || rapido_fail "samba_local: cannot make Samba's directories"
{
	echo "# written by rapido's samba_local profile"
	samba_global "$SAMBA_PORT" "${SAMBA_LOG_LEVEL:-1}"
	cat <<EOF

[$SAMBA_SHARE]
	path = $SAMBA_DIR
	read only = no
	valid users = $CIFS_USER
EOF
} > "$SAMBA_CONF" || rapido_fail "samba_local: cannot write $SAMBA_CONF"
samba_add_user "$CIFS_USER" "$CIFS_PASS" "$SAMBA_CONF" || rapido_fail "samba_local: smbpasswd -a $CIFS_USER"

# --foreground --debug-stdout: the log stays in one file, shown on failure
net_start_bg /run/samba/smbd.rapido.pid "$SAMBA_LOG" \
	smbd --foreground --no-process-group --debug-stdout -s "$SAMBA_CONF" ||
	rapido_fail "samba_local: cannot start smbd"
net_wait_listen "$SAMBA_PORT" 120 "$(< /run/samba/smbd.rapido.pid)" || {
	cat "$SAMBA_LOG" >&2
	rapido_fail "samba_local: smbd does not listen on port $SAMBA_PORT (exited, or not within 120s)"
}
echo "rapido: samba_local: $samba_fs on $samba_zram at $SAMBA_DIR, shared as $SAMBA_SHARE for $CIFS_USER"
while read -r ifc addr; do
	echo "rapido: samba_local: //${addr%/*}/$SAMBA_SHARE ($ifc)"
done < <(net_addrs)

if [ "${RAPIDO_BATCH:-0}" = 1 ]; then
	net_serve samba_local "$SAMBA_PORT" "$SAMBA_DONE" "${SAMBA_SERVE_SECS:-0}"
	net_server_saw "$SAMBA_DIR"
fi
