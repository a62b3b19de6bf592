#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nfs_client: the kernel's NFS client mounting NFS_SERVER:NFS_EXPORT at
# /mnt/nfs with NFS_VERS over the network (./vm --net tap|user, or
# --link-listen/--link-connect with an nfs_server VM). The server may still
# be booting: the client waits for its state, not for a time: first until
# NFS_SERVER answers on port 2049 (nfsd listens only once the exports are
# made), then the mount is retried until it succeeds, NFS_WAIT_SECS at
# most. The version mounted is read back from /proc/mounts. Then the test
# nfs/client-io: 4 MiB of random data written to rapidoN/data (N: the VM
# number) and a line to rapidoN.txt, the mount dropped and made again (no
# page cache left), the data read back from the server and compared, and
# its checksum left beside it (rapidoN/data.sha256, which nfs_server checks
# on its own disk); then the -x/-f extras (they see /mnt/nfs). At
# exit, in batch mode, rapido-done is written at the top of the mount (an
# nfs_server stops serving then) and the mount is dropped.
#
# rapido.conf (or environment) keys:
#   NFS_SERVER     the server's IPv4 address (required), e.g. 192.168.156.1
#                  for the nfs_server VM 1 of a --link-listen/--link-connect
#                  pair
#   NFS_EXPORT     the export's path (default /export/nfs, nfs_server's)
#   NFS_VERS       3, 4.1 or 4.2 (default); NFSv3 mounts with nolock
#   NFS_WAIT_SECS  how long to wait for the server (default 180)
#@ description: mount NFS_SERVER:NFS_EXPORT (nfs_server's) at /mnt/nfs with NFS_VERS, a data round trip, then the extras
#@ include: net nfs-client
#@ bins: head cmp sha256sum timeout bash cp
#@ bins-optional: ls mv rm touch stat df dd sync
#@ conf: NFS_SERVER
#@ conf-optional: NFS_EXPORT NFS_WAIT_SECS
#@ conf-type: NFS_EXPORT path
#@ conf-type: NFS_WAIT_SECS uint 1-86400
#@ cpus: 1
#@ memory: 512M

NFS_DIR=/mnt/nfs
_nfs_src=$NFS_SERVER:${NFS_EXPORT:-/export/nfs}
_nfs_wait=${NFS_WAIT_SECS:-180}
case $NFS_SERVER in
*[!0-9.]* | *..* | .* | *.)
	rapido_fail "nfs_client: NFS_SERVER='$NFS_SERVER' is not an IPv4 address (the image cannot resolve names)"
	;;
esac
[ -n "$(net_addrs)" ] ||
	rapido_fail "nfs_client: no network: boot with ./vm --net tap|user or --link-listen/--link-connect"
nfs_vers_ok
nfs_mount_options
# retry=0: one try each, the waiting is rapido_wait's (mount.nfs would
# retry for 2 minutes in the foreground)
_nfs_opts=$REPLY,retry=0

nfs_client_mount() {
	mount -t nfs -o "$_nfs_opts" "$_nfs_src" "$NFS_DIR" > /tmp/nfs-mount.log 2>&1
}
# _nfs_done: tell the server this client is done, then unmount (bounded:
# the server may be gone)
_nfs_done() {
	rapido_mounted "$NFS_DIR" || return 0
	[ "${RAPIDO_BATCH:-0}" != 1 ] || : > "$NFS_DIR/rapido-done" ||
		echo "nfs_client: cannot write $NFS_DIR/rapido-done" >&2
	timeout -s KILL 30 umount "$NFS_DIR" || echo "nfs_client: umount $NFS_DIR failed" >&2
}

mkdir -p "$NFS_DIR" || rapido_fail "nfs_client: mkdir $NFS_DIR"
net_wait_server nfs_client "$NFS_SERVER" 2049 "$_nfs_wait" nfs_client_mount || {
	[ ! -e /tmp/nfs-mount.log ] || cat /tmp/nfs-mount.log >&2
	rapido_fail "nfs_client: cannot mount $_nfs_src on $NFS_DIR with -o $_nfs_opts within ${_nfs_wait}s"
}
trap _nfs_done EXIT
nfs_check_mount "$NFS_DIR"

# the round trip: written, unmounted, mounted again, read back from the
# server; the data in a directory of its own (the server prints the first
# line of each file at the top)
nfs_client_io() {
	local dir=rapido$RAPIDO_VM sum

	head -c 4M /dev/urandom > /tmp/data || return 1
	mkdir -p "$NFS_DIR/$dir" && cp /tmp/data "$NFS_DIR/$dir/data" || return 1
	echo "written through NFS $NFS_VERS by rapido$RAPIDO_VM" > "$NFS_DIR/$dir.txt" || return 1
	umount "$NFS_DIR" && nfs_client_mount || { cat /tmp/nfs-mount.log; return 1; }
	cmp /tmp/data "$NFS_DIR/$dir/data" || return 1
	sum=$(cd /tmp && sha256sum data) && echo "$sum" > "$NFS_DIR/$dir/data.sha256" || return 1
	echo "nfs_client: $dir/data: sha256 ${sum%% *}, read back from $_nfs_src"
}
rapido_test nfs/client-io nfs_client_io
