#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# autorun-nfs.sh: the guest's NFS helpers (autorun/lib/nfs.sh), run in a
# host bash as the guest runs them, with the mount table and the guest's
# addresses given: NFS_VERS checked and turned into mount options, the
# version read back from the mount table (nfs_check_mount), the networks
# a server VM exports to (nfs_networks), and what a server prints of what
# its clients left (net_server_saw, net.sh: nfs_server, samba_local), and
# a client's wait for its server (net_wait_server: nfs_client).
. "$(dirname "$0")/../tap.sh"
TAP_ON_FAIL=show_run
# guest CODE: run CODE in a bash that sourced the guest libraries, with
# rapido_mounted reading $T/mounts and net_addrs printing $T/addrs; its
# stdout and stderr in $T/out
guest() {
	rm -rf "$T/run" && mkdir "$T/run" || return 1
	RAPIDO_RUN_DIR=$T/run run bash -c 'exec 2>&1
		for f in rapido rapido-wait net nfs ksmbd; do source "$1/autorun/lib/$f.sh"; done
		rapido_mounted() {
			local dev dir type opts _
			RAPIDO_MOUNT=()
			while read -r dev dir type opts _; do
				[ "$dir" = "$1" ] && RAPIDO_MOUNT=("$dev" "$dir" "$type" "$opts")
			done < "$T/mounts"
			[ ${#RAPIDO_MOUNT[@]} -gt 0 ]
		}
		net_addrs() { cat "$T/addrs"; }
		eval "$2"' _ "$TOP" "$1"
}
export T
said() { exits "$1" && out_is "$2"; }

guest 'unset NFS_VERS; nfs_vers_ok; nfs_mount_options; echo "$NFS_VERS $REPLY"'
check "NFS_VERS unset: 4.2, mounted with vers=4.2" said 0 "4.2 vers=4.2"
guest 'NFS_VERS=4.1; nfs_vers_ok; nfs_mount_options; echo "$REPLY"'
check "NFS_VERS=4.1: vers=4.1" said 0 "vers=4.1"
guest 'NFS_VERS=3; nfs_vers_ok; nfs_mount_options; echo "$REPLY"'
check "NFS_VERS=3: vers=3,nolock (no rpc.statd in the guest)" said 0 "vers=3,nolock"
for v in 4.0 4 2; do
	guest "NFS_VERS=$v; nfs_vers_ok; echo after"
	check "NFS_VERS=$v: refused in the guest too" said 1 \
		"rapido: FAILED: NFS_VERS=$v: expected 3, 4.1 or 4.2"
done

cat > "$T/mounts" <<'M'
/dev/zram0 /export/test ext4 rw,relatime 0 0
127.0.0.1:/export/test /mnt/test nfs4 rw,relatime,vers=4.2,rsize=524288,wsize=524288,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=127.0.0.1,local_lock=none,addr=127.0.0.1 0 0
192.168.156.1:/export/nfs /mnt/nfs nfs rw,relatime,vers=3,rsize=131072,wsize=131072,namlen=255,hard,nolock,proto=tcp,timeo=600,retrans=2,sec=sys,mountaddr=192.168.156.1,mountvers=3,mountport=37025,mountproto=udp,local_lock=all,addr=192.168.156.1 0 0
M
guest 'NFS_VERS=4.2; nfs_check_mount /mnt/test'
check "nfs_check_mount: vers=4.2 mounted, its /proc/mounts line printed" said 0 \
	"nfs: 127.0.0.1:/export/test on /mnt/test (nfs4): rw,relatime,vers=4.2,rsize=524288,wsize=524288,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=127.0.0.1,local_lock=none,addr=127.0.0.1"
guest 'NFS_VERS=4.1; nfs_check_mount /mnt/test; echo after'
check "nfs_check_mount: NFS_VERS=4.1 but vers=4.2 mounted: fails" said 1 \
	"rapido: FAILED: nfs: /mnt/test is mounted with rw,relatime,vers=4.2,rsize=524288,wsize=524288,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=127.0.0.1,local_lock=none,addr=127.0.0.1: not vers=4.1 (NFS_VERS)"
guest 'NFS_VERS=3; nfs_check_mount /mnt/nfs > /dev/null && echo ok'
check "nfs_check_mount: vers=3 (not mountvers=3) on NFSv3" said 0 "ok"
sed -i 's/,vers=3,/,vers=4.0,/' "$T/mounts"
guest 'NFS_VERS=3; nfs_check_mount /mnt/nfs; echo after'
check "nfs_check_mount: mountvers=3 alone is not vers=3" exits 1
guest 'NFS_VERS=4.2; nfs_check_mount /export/test; echo after'
check "nfs_check_mount: ext4 is not NFS" said 1 "rapido: FAILED: nfs: /export/test is ext4, not NFS"
# cifs (fstests_cifs, ksmbd_local) reads its mount back the same way
cat >> "$T/mounts" <<'M'
//127.0.0.1/test /mnt/cifs cifs rw,relatime,vers=3.1.1,cache=strict,username=rapido,uid=0,noforceuid,gid=0,noforcegid,addr=127.0.0.1,file_mode=0755,dir_mode=0755,soft,nounix,serverino,mapposix,rsize=4194304,wsize=4194304,bsize=1048576,echo_interval=60,actimeo=1,closetimeo=1 0 0
M
guest 'ksmbd_check_mount /mnt/cifs'
check "ksmbd_check_mount: vers=3.1.1 (the default) mounted, its line printed" said 0 \
	"cifs: //127.0.0.1/test on /mnt/cifs (cifs): rw,relatime,vers=3.1.1,cache=strict,username=rapido,uid=0,noforceuid,gid=0,noforcegid,addr=127.0.0.1,file_mode=0755,dir_mode=0755,soft,nounix,serverino,mapposix,rsize=4194304,wsize=4194304,bsize=1048576,echo_interval=60,actimeo=1,closetimeo=1"
guest 'KSMBD_VERS=3.0; ksmbd_check_mount /mnt/cifs; echo after'
check "ksmbd_check_mount: KSMBD_VERS=3.0 but 3.1.1 mounted: fails, naming the key" exits 1
check "  saying so" grep -q "^rapido: FAILED: cifs: /mnt/cifs is mounted with .*: not vers=3.0 (KSMBD_VERS)$" "$T/out"
guest 'ksmbd_check_mount /mnt/test; echo after'
check "ksmbd_check_mount: nfs4 is not cifs" said 1 "rapido: FAILED: cifs: /mnt/test is nfs4, not cifs"
guest 'NFS_VERS=4.2; nfs_check_mount /mnt/none; echo after'
check "nfs_check_mount: nothing mounted" said 1 "rapido: FAILED: nfs: nothing is mounted on /mnt/none"

printf 'eth0 192.168.156.1/24\neth1 10.1.2.3/8\neth2 172.16.5.77/27\neth3 198.51.100.9/32\n' > "$T/addrs"
guest 'nfs_networks'
check "nfs_networks: each address's network, host bits cleared" said 0 \
	"192.168.156.0/24
10.0.0.0/8
172.16.5.64/27
198.51.100.9/32"
: > "$T/addrs"
guest 'nfs_networks; echo "[$?]"'
check "nfs_networks: no network, nothing" said 0 "[0]"
mkdir -p "$T/export/rapido2" "$T/export/lost+found" &&
	printf 'written by rapido2\nsecond line\n' > "$T/export/rapido2.txt" &&
	: > "$T/export/rapido-done" && : > "$T/export/empty" &&
	printf '%0300d\n' 0 > "$T/export/long" || exit 1
guest 'net_server_saw "$T/export"'
check "net_server_saw: each file's first line, directories with a slash, no marker nor lost+found" \
	said 0 "SERVER-SAW empty 
SERVER-SAW long $(printf '%0200d' 0)
SERVER-SAW rapido2/
SERVER-SAW rapido2.txt written by rapido2"
rm -rf "$T/export" && mkdir "$T/export"
guest 'net_server_saw "$T/export"; echo "[$?]"'
check "net_server_saw: an empty directory, nothing" said 0 "[0]"
# out_like RE: the guest's output, its lines joined by '|', matches RE
# (grep -E; the waits' seconds vary with the machine's load)
out_like() { paste -sd '|' "$T/out" | grep -qE -- "^$1\$"; }
# a loopback port nothing listens on (net_tcp_listening: another test's
# server may hold the first one tried): refused at once
p=$(bash -c '. "$1/autorun/lib/net.sh" && p=$2 && while net_tcp_listening $p; do p=$((p + 1)); done; echo $p' \
	_ "$TOP" $((40000 + $$ % 20000)))
guest "net_wait_server tester 127.0.0.1 $p 1 true; echo \"[\$?]\""
check "net_wait_server: nothing answers: false after SECS, saying so" said 0 \
	"tester: nothing answers on 127.0.0.1 port $p after 1s
[1]"
guest 'n=0; net_port_open() { n=$((n + 1)); [ $n -ge 2 ]; }
	m=0; try() { m=$((m + 1)); [ $m -ge 3 ]; }
	net_wait_server tester 192.0.2.1 2049 20 try; echo "[$?] port $n, try $m"'
check "net_wait_server: the port, then CMD retried until it succeeds" out_like \
	"tester: 192\.0\.2\.1 answers on port 2049 after [12]s\|tester: try succeeded after [4-7]s\|\[0\] port 2, try 3"
guest 'net_port_open() { true; }; net_wait_server tester 192.0.2.1 2049 1 false; echo "[$?]"'
check "net_wait_server: CMD never succeeds: false" out_like \
	"tester: 192\.0\.2\.1 answers on port 2049 after 0s\|\[1\]"
done_testing
