#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# samba_cephfs: Samba sharing CephFS through libcephfs. smbd (Debian's
# samba) with vfs_ceph (vfs/ceph.so: Debian 13's samba-vfs-ceph, 12's
# samba-vfs-modules) exports a
# directory of the cluster's file system as //127.0.0.1/cephfs; the same
# guest mounts that share with the kernel's cifs client over loopback,
# writes a pattern file and reads it back, and the kernel's CephFS client
# (mounted beside it) must find the same bytes in CephFS; a file written
# through CephFS must read back through the share. Then teardown in order:
# the cifs mount, smbd, the directory, the CephFS mount. Exit 0 only when
# all of that held and nothing is left mounted or running; any failure
# tears down what was set up and exits 1.
#
# The share is CephFS directory /rapido-samba.VM.NONCE, made here (owned
# by the Samba user) and removed at the end.
#
# rapido.conf (or environment) keys:
#   CEPH_CONF, CEPH_KEYRING, CEPH_USER, CEPH_TIMEOUT   as for cephfs
#   CEPH_FS_NAME    the file system (default: the cluster's default)
#   CIFS_USER       the Samba (and Unix) user (default rapido)
#   CIFS_PASS       its password (default: a random one)
#@ description: smbd with vfs_ceph (libcephfs) sharing a CephFS directory; cifs mount on loopback in the same guest, I/O both ways checked through the kernel CephFS client, ordered teardown
#@ include: ceph
#@ bins: smbd smbpasswd mount umount mount.cifs setsid mkdir cat chown chmod sync yes head grep timeout dd cmp od tr rm
#@ bins-optional: smbstatus diff
#@ bins-optional: /usr/libexec/samba/samba-dcerpcd /usr/libexec/samba/rpcd_classic
#@ bins-optional: /usr/libexec/samba/rpcd_epmapper /usr/libexec/samba/rpcd_lsad
#@ bins-optional: /usr/libexec/samba/rpcd_winreg
# vfs_ceph is loaded by smbd with dlopen(): libcephfs is the one library of
# it that smbd does not link; the rbd CLI links libceph-common and the rest
#@ bins-optional: /usr/lib/x86_64-linux-gnu/samba/vfs/ceph.so /usr/lib/x86_64-linux-gnu/libcephfs.so.2 rbd
#@ modules: ceph cifs
#@ modules-optional: gcm ccm cmac ecb ctr ghash_generic sha512_generic nls_utf8
#@ kconfig: CONFIG_CEPH_FS=m CONFIG_CIFS=m
#@ kconfig-optional: CONFIG_NETWORK_FILESYSTEMS=y CONFIG_NLS=y CONFIG_NLS_UTF8=m CONFIG_CRYPTO=y
#@ kconfig-optional: CONFIG_CRYPTO_GCM=y CONFIG_CRYPTO_CCM=y CONFIG_CRYPTO_CMAC=y
#@ conf-optional: CEPH_FS_NAME CIFS_USER CIFS_PASS
#@ secret: CIFS_PASS
#@ cpus: 1
#@ memory: 1G

SC_CEPHFS=/mnt/cephfs
SC_CIFS=/mnt/cifs
SC_SHARE=cephfs
SC_PORT=445
SC_CONF=/etc/samba/smb.conf
SC_CEPH_CONF=/etc/ceph/samba.conf
SC_LOG=/var/log/samba/smbd.log
SC_VFS=/usr/lib/x86_64-linux-gnu/samba/vfs/ceph.so
SC_MIB=4
sc_user=${CIFS_USER:-rapido}
sc_dir=/rapido-samba.$RAPIDO_VM.$RANDOM
sc_pid=

case $sc_user in
'' | *[!A-Za-z0-9._-]* | -*)
	rapido_fail "samba_cephfs: CIFS_USER='$sc_user': use letters, digits, '.', '_' and '-'"
	;;
esac
sc_pass=${CIFS_PASS:-}
[ -n "$sc_pass" ] || sc_pass=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n') ||
	rapido_fail "samba_cephfs: cannot make a password"

# sc_teardown: undo whatever of the setup is there, in order: the cifs
# mount, smbd, the share's directory in CephFS, the CephFS mount
sc_teardown() {
	local rc=0

	if rapido_mounted "$SC_CIFS"; then
		timeout -s KILL 60 umount "$SC_CIFS" || rc=1
	fi
	if [ -n "$sc_pid" ]; then
		gw_stop "$sc_pid" || rc=1
		sc_pid=
	fi
	if rapido_mounted "$SC_CEPHFS"; then
		rm -rf "${SC_CEPHFS:?}$sc_dir" || rc=1
		ceph_umount "$SC_CEPHFS"
		! rapido_mounted "$SC_CEPHFS" || rc=1
	fi
	return $rc
}

# sc_left: fail when a cifs or ceph mount or an smbd is left
sc_left() {
	local left='' p c

	rapido_mounted "$SC_CIFS" && left+=" cifs mount $SC_CIFS;"
	rapido_mounted "$SC_CEPHFS" && left+=" CephFS mount $SC_CEPHFS;"
	for p in /proc/[0-9]*/comm; do
		read -r c 2> /dev/null < "$p" && [ "$c" = smbd ] && left+=" smbd pid ${p//[!0-9]/};"
	done
	if [ -n "$left" ]; then
		echo "rapido: samba_cephfs: left behind:$left" >&2
		return 1
	fi
	echo "rapido: samba_cephfs: no cifs or CephFS mount, no smbd left"
}

sc_on_fail() {
	if [ -s "$SC_LOG" ]; then
		echo "rapido: samba_cephfs: --- $SC_LOG (last 30 lines)" >&2
		mapfile -t l < "$SC_LOG"
		printf '%s\n' "${l[@]:${#l[@]} > 30 ? ${#l[@]} - 30 : 0}" >&2
	fi
	[ ! -s /tmp/cifs-mount.log ] || cat /tmp/cifs-mount.log >&2
	echo "rapido: samba_cephfs: tearing down after the failure" >&2
	sc_teardown
	sc_left || echo "rapido: samba_cephfs: teardown after the failure left the above" >&2
}

rapido_on_fail rapido_kernel_tail
rapido_on_fail sc_on_fail
ceph_need_net
[ -e "$SC_VFS" ] ||
	rapido_fail "samba_cephfs: $SC_VFS is not in the image (Debian 13: apt-get install samba-vfs-ceph, Debian 12: samba-vfs-modules; or rapido deps --install samba_cephfs; then ./cut again)"

# the share's directory, through the kernel client, owned by the user
ceph_client mount ${CEPH_FS_NAME:+--fs "$CEPH_FS_NAME"} "$SC_CEPHFS" ||
	rapido_fail "samba_cephfs: cannot mount CephFS on $SC_CEPHFS (see above)"
mkdir "$SC_CEPHFS$sc_dir" || rapido_fail "samba_cephfs: mkdir $sc_dir in CephFS"
net_users || rapido_fail "samba_cephfs: cannot write /etc/passwd"
if [ "$sc_user" != root ]; then
	net_add_user "$sc_user" || rapido_fail "samba_cephfs: cannot add the user $sc_user"
fi
chown "$sc_user:" "$SC_CEPHFS$sc_dir" || rapido_fail "samba_cephfs: chown $sc_user $sc_dir"

# smbd, its share on libcephfs
samba_dirs || rapido_fail "samba_cephfs: cannot make Samba's directories"
ceph_librados_conf "$SC_CEPH_CONF"
{
	echo "# written by rapido's samba_cephfs profile"
	samba_global "$SC_PORT" 1
	cat <<EOF

[$SC_SHARE]
	path = $sc_dir
	vfs objects = ceph
	ceph:config_file = $SC_CEPH_CONF
	ceph:user_id = ${CEPH_USER:-admin}
	# libcephfs holds no kernel file descriptors to lease or lock
	kernel share modes = no
	read only = no
	valid users = $sc_user
EOF
} > "$SC_CONF" || rapido_fail "samba_cephfs: cannot write $SC_CONF"
samba_add_user "$sc_user" "$sc_pass" "$SC_CONF" || rapido_fail "samba_cephfs: smbpasswd -a $sc_user"
# CEPH_KEYRING: see ceph_librados_conf. Its own session: smbd stopping
# signals its whole process group
CEPH_KEYRING=/etc/ceph/keyring net_start_bg /run/samba/smbd.rapido.pid "$SC_LOG" \
	setsid smbd --foreground --no-process-group --debug-stdout -s "$SC_CONF" ||
	rapido_fail "samba_cephfs: cannot start smbd"
sc_pid=$(< /run/samba/smbd.rapido.pid)
net_wait_listen "$SC_PORT" 120 "$sc_pid" ||
	rapido_fail "samba_cephfs: smbd does not listen on port $SC_PORT (exited, or not within 120s)"
ceph_say "samba_cephfs: smbd (pid $sc_pid) shares CephFS $sc_dir as //127.0.0.1/$SC_SHARE through vfs_ceph"

# the client: cifs on loopback, no client cache (reads go to the server)
mkdir -p "$SC_CIFS"
PASSWD=$sc_pass mount.cifs "//127.0.0.1/$SC_SHARE" "$SC_CIFS" \
	-o "username=$sc_user,cache=none,vers=3.1.1" > /tmp/cifs-mount.log 2>&1 ||
	rapido_fail "samba_cephfs: mount.cifs //127.0.0.1/$SC_SHARE $SC_CIFS failed"
ceph_say "samba_cephfs: //127.0.0.1/$SC_SHARE mounted on $SC_CIFS (cifs, user $sc_user)"

gw_pattern /tmp/samba-cephfs.data "$SC_MIB"
dd if=/tmp/samba-cephfs.data of="$SC_CIFS/pattern" bs=64K conv=fsync status=none ||
	rapido_fail "samba_cephfs: write $SC_CIFS/pattern"
cmp "$SC_CIFS/pattern" /tmp/samba-cephfs.data ||
	rapido_fail "samba_cephfs: $SC_CIFS/pattern reads back other data than written"
ceph_say "samba_cephfs: $SC_MIB MiB written to $SC_CIFS/pattern and read back through the share"
sync
echo 3 > /proc/sys/vm/drop_caches
cmp "$SC_CEPHFS$sc_dir/pattern" /tmp/samba-cephfs.data ||
	rapido_fail "samba_cephfs: CephFS $sc_dir/pattern (kernel client) does not hold what was written through the share"
ceph_say "samba_cephfs: the kernel's CephFS client finds the same bytes in $sc_dir/pattern"
cfs_data_file /tmp/samba-cephfs.back 1
dd if=/tmp/samba-cephfs.back of="$SC_CEPHFS$sc_dir/from-cephfs" bs=64K conv=fsync status=none ||
	rapido_fail "samba_cephfs: write $SC_CEPHFS$sc_dir/from-cephfs"
cmp "$SC_CIFS/from-cephfs" /tmp/samba-cephfs.back ||
	rapido_fail "samba_cephfs: a file written through CephFS reads back otherwise through the share"
ceph_say "samba_cephfs: a file written through the kernel's CephFS client reads back through the share"
rm -f /tmp/samba-cephfs.*

sc_teardown || rapido_fail "samba_cephfs: teardown failed (see above)"
sc_left || rapido_fail "samba_cephfs: teardown left the above behind"
ceph_say "samba_cephfs: torn down: cifs mount, smbd, $sc_dir, CephFS mount"
echo "rapido: samba_cephfs: PASS"
