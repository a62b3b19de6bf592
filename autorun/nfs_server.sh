#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nfs_server: the kernel's nfsd (Debian's nfs-kernel-server, as in
# nfs_local) exporting a zram disk with NFS_FS on it as ADDR:/export/nfs to
# the guest's networks (./vm --net tap|user, or --link-listen/--link-connect
# between two VMs), NFS versions 3, 4.1 and 4.2 all served. nfs_client, in
# another VM, is its client: the two are images of their own, so the
# server's kernel and the client's are chosen apart (./cut with another
# KERNEL_SRC or KERNEL_RELEASE for each).
#
# rapido.conf (or environment) keys:
#   NFS_FS          the exported file system: ext4 (default), xfs or btrfs
#   NFS_ZRAM_SIZE   its zram disk (default 512M)
#   NFS_SERVE_SECS  batch mode: serve at most this long (default 0: until
#                   told to stop, see below)
#
# Interactive (./vm): nfsd serves beside the console shell.
# Batch (./vm --batch): serves until a client writes rapido-done at the
# top of the export (nfs_client does as it ends), or NFS_SERVE_SECS pass;
# gives the clients up to 10 s to disconnect; prints "SERVER-SAW NAME
# FIRST-LINE" for each file at the top of the export (directories "NAME/");
# checks every NAME.sha256 a client left at the top or one directory down
# (sha256sum -c on the exported file system), failing if its data is not
# what the client wrote; then the -x/-f extras run.
#@ description: nfsd exporting a zram NFS_FS as ADDR:/export/nfs to other VMs (nfs_client); batch: serves until rapido-done
#@ include: nfs net
#@ bins: sha256sum
#@ conf-optional: NFS_ZRAM_SIZE NFS_SERVE_SECS
#@ conf-type: NFS_ZRAM_SIZE size 16M
#@ conf-type: NFS_SERVE_SECS uint 0-86400
#@ cpus: 1
#@ memory: 1G

NFS_DIR=/export/nfs
mapfile -t _nfs_clients < <(nfs_networks)
[ ${#_nfs_clients[@]} -gt 0 ] ||
	rapido_fail "nfs_server: no network: boot with ./vm --net tap|user or --link-listen/--link-connect"
nfs_prepare
nfs_export nfs "${NFS_FS:-ext4}" "${NFS_ZRAM_SIZE:-512M}" "${_nfs_clients[@]}"
nfs_server_up
while read -r ifc addr; do
	echo "nfs_server: ${addr%/*}:$NFS_DIR ($ifc)"
done < <(net_addrs)

if [ "${RAPIDO_BATCH:-0}" = 1 ]; then
	net_serve nfs_server 2049 "$NFS_DIR/rapido-done" "${NFS_SERVE_SECS:-0}"
	net_server_saw "$NFS_DIR"
	for f in "$NFS_DIR"/*.sha256 "$NFS_DIR"/*/*.sha256; do
		[ -e "$f" ] || continue
		( cd "${f%/*}" && sha256sum -c "${f##*/}" > /dev/null ) ||
			rapido_fail "nfs_server: ${f#"$NFS_DIR"/}: the data on the export is not what the client wrote"
		echo "nfs_server: ${f#"$NFS_DIR"/}: the data on the export is what the client wrote"
	done
fi
