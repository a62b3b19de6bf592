# SPDX-License-Identifier: GPL-2.0
# nfs.sh: an NFS server in the guest (the kernel's nfsd with Debian's
# nfs-kernel-server: exportfs, rpc.mountd, rpc.nfsd; rpcbind for NFSv3)
# serving zram file systems to the guest itself over loopback (nfs_local,
# fstests_nfs) or to other VMs (nfs_server), and the client's side
# (nfs_client too):
#   nfs_vers_ok                   NFS_VERS is 3, 4.1 or 4.2 (default 4.2)
#   nfs_mount_options             the client's options for NFS_VERS, in
#                                 REPLY ("vers=4.2"; "vers=3,nolock")
#   nfs_check_mount DIR           DIR is an NFS mount of version NFS_VERS,
#                                 as /proc/mounts says; its line printed
#   nfs_export NAME FS SIZE [CLIENT...]  a zram disk of SIZE with FS on
#                                 it, mounted at /export/NAME and exported
#                                 to each CLIENT (default 127.0.0.1; rw,
#                                 no_root_squash)
#   nfs_networks                  the guest's networks (ADDR/PREFIX, host
#                                 bits cleared), one a line: the clients
#                                 of a server VM
#   nfs_server_up                 start the server (once the exports are made)
# Sourced into every image before the profile, so it only defines functions.

nfs_vers_ok() {
	case ${NFS_VERS:=4.2} in
	3 | 4.1 | 4.2) ;;
	*) rapido_fail "NFS_VERS=$NFS_VERS: expected 3, 4.1 or 4.2" ;;
	esac
}

# NFSv3 locks go through rpc.statd (NLM), which this server does not run:
# nolock keeps the locks on the client
nfs_mount_options() {
	if [ "$NFS_VERS" = 3 ]; then
		REPLY="vers=3,nolock"
	else
		REPLY="vers=$NFS_VERS"
	fi
}

# nfs_check_mount DIR: what the kernel mounted, not what was asked for:
# without vers= mount.nfs and the client settle on the highest version both
# sides have, and options lost on the way would go unseen; so the version
# is read back from /proc/mounts
nfs_check_mount() {
	net_check_mount "$1" "nfs nfs4" "$NFS_VERS" NFS_VERS NFS
}

# nfs_networks: from net_addrs' "IFC ADDR/PREFIX" (192.168.156.1/24),
# the network (192.168.156.0/24): exportfs matches a client against it
nfs_networks() {
	local ifc addr a b c d p m n

	while read -r ifc addr; do
		IFS=./ read -r a b c d p <<< "$addr"
		[ -n "$p" ] || continue
		m=$(( p == 0 ? 0 : (0xffffffff << (32 - p)) & 0xffffffff ))
		n=$(( ((a << 24) | (b << 16) | (c << 8) | d) & m ))
		echo "$((n >> 24)).$(((n >> 16) & 255)).$(((n >> 8) & 255)).$((n & 255))/$p"
	done < <(net_addrs)
}

_nfs_fsid=0
nfs_export() {
	local name=$1 fs=$2 size=$3 dev client
	mkdir -p "/export/$name" || rapido_fail "mkdir /export/$name failed"
	# shellcheck disable=SC2046 # --mkfs-arg words
	dev=$(zram_add "/tmp/nfs-zram-$name.log" -s "$size" --mkfs "$fs" \
		$(zram_mkfs_args "$fs") --mount "/export/$name") ||
		rapido_fail "cannot make a $size $fs zram disk for /export/$name (see above)"
	_nfs_fsid=$((_nfs_fsid + 1))
	# fsid: an export needs one the server can keep across reboots;
	# insecure: the client's source port may be any (over loopback, or
	# from another VM through qemu's user-mode NAT)
	shift 3
	[ $# -gt 0 ] || set -- 127.0.0.1
	for client; do
		exportfs -o "rw,no_root_squash,no_subtree_check,insecure,fsid=$_nfs_fsid" \
			"$client:/export/$name" || rapido_fail "exportfs of /export/$name to $client failed"
	done
	echo "nfs: $dev ($fs, $size) exported as /export/$name to $*"
}

# nfs_prepare: what the daemons expect of a Debian system, made once
nfs_prepare() {
	mkdir -p /var/lib/nfs/rpc_pipefs /var/lib/nfs/v4recovery /run/rpcbind /etc ||
		rapido_fail "cannot make the NFS state directories"
	: >> /var/lib/nfs/etab
	: >> /var/lib/nfs/rmtab
	[ -e /etc/exports ] || : > /etc/exports
	# rpcbind drops to its user
	grep -q '^_rpc:' /etc/passwd 2> /dev/null ||
		echo '_rpc:x:100:65534::/run/rpcbind:/usr/sbin/nologin' >> /etc/passwd
	rapido_mounted /proc/fs/nfsd nfsd || mount -t nfsd nfsd /proc/fs/nfsd ||
		rapido_fail "cannot mount the nfsd file system on /proc/fs/nfsd"
}

nfs_server_up() {
	# NFSv4's grace period (90 s by default) holds every open of a client
	# after the server starts: 10 s, the least nfsd takes
	echo 10 > /proc/fs/nfsd/nfsv4gracetime && echo 10 > /proc/fs/nfsd/nfsv4leasetime ||
		echo "nfs: warning: cannot shorten NFSv4's grace period (90 s then)" >&2
	rpcbind || rapido_fail "rpcbind did not start"
	rpc.mountd || rapido_fail "rpc.mountd did not start"
	rpc.nfsd 4 || rapido_fail "rpc.nfsd did not start nfsd"
	echo "nfs: nfsd up: $(cat /proc/fs/nfsd/versions 2> /dev/null)"
}
