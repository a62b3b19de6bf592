#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nfs-link.sh: NFS across two VMs on a rootless qemu socket link
# (--link-listen / --link-connect on loopback), each booting its own
# image: nfs_server (VM 1, 192.168.156.1) exports a zram ext4 with nfsd;
# nfs_client (VM 2) waits for the server's port 2049 and its export
# (booted right after the server's qemu starts, so it waits through the
# server's boot), mounts it with NFS_VERS=3 (not the default, 4.2: the key
# is what chose it, /proc/mounts says vers=3), writes 4 MiB of random data
# and a line, remounts and reads the data back; an extra mounts the export
# again with NFSv4.1 and reads the line; then the client says it is done; the
# server then checks the data's checksum on its own disk and prints what it
# found. Both exit 0; the client's test is a passing testcase of its
# junit.xml. Also: ./cut nfs_client without NFS_SERVER names the key.
# (Both images use the one installed kernel here; users cut each with its
# own KERNEL_SRC or KERNEL_RELEASE.)
. "$(dirname "$0")/lib.sh"
unset NFS_SERVER NFS_EXPORT NFS_VERS NFS_WAIT_SECS NFS_FS NFS_ZRAM_SIZE NFS_SERVE_SECS

run_err "./cut nfs_client without NFS_SERVER: refused, naming the key" \
	"config key NFS_SERVER is not set" "$CUT" nfs_client -o "$T/none.img"
check "  no image written" test ! -e "$T/none.img"

"$CUT" nfs_server -o "$T/server.img" > "$T/out" 2>&1
expect_rc "cut nfs_server" 0 $?
[ -s "$T/server.img" ] || sed 's/^/# /' "$T/out"
# the server is VM 1 (this test's own VM_STATE_DIR, and it starts first)
# and, in an extra, a second mount of the export with NFSv4.1 (the helpers
# the profile uses, with another version)
NFS_SERVER=192.168.156.1 NFS_VERS=3 "$CUT" nfs_client -o "$T/client.img" \
	-x 'NFS_VERS=4.1; nfs_mount_options; mkdir -p /mnt/v41 &&
		mount -t nfs -o "$REPLY" 192.168.156.1:/export/nfs /mnt/v41 && nfs_check_mount /mnt/v41 &&
		read -r l < /mnt/v41/rapido2.txt && echo "V41-READ $l" && umount /mnt/v41' > "$T/out" 2>&1
expect_rc "cut nfs_client" 0 $?
[ -s "$T/client.img" ] || sed 's/^/# /' "$T/out"

link_boot "$T/server" "$T/client" "$T/server.img" --batch --timeout 300 -- \
	"$T/client.img" --batch --timeout 300 --results "$T/res"
expect_rc "server VM (${link_secs}s for both)" 0 $r1
expect_rc "client VM" 0 $r2
says() { guest_says "$T/$1" "$2"; }
check "server is VM 1, exporting 192.168.156.1:/export/nfs" says server "nfs_server: 192.168.156.1:/export/nfs (eth0)"
check "  to the link's network" says server "exported as /export/nfs to 192.168.156.0/24"
check "client waited for the server's port 2049" \
	grep -qE '^nfs_client: 192\.168\.156\.1 answers on port 2049 after [0-9]+s$' <(guest_text "$T/client")
check "client mounted it with vers=3 (/proc/mounts)" grep -qE \
	'^nfs: 192\.168\.156\.1:/export/nfs on /mnt/nfs \(nfs\): ([^ ]*,)?vers=3(,|$)' <(guest_text "$T/client")
check "  and with vers=4.1 in the extra, reading the line it wrote over NFSv3" grep -qE \
	'^nfs: 192\.168\.156\.1:/export/nfs on /mnt/v41 \(nfs4\): ([^ ]*,)?vers=4\.1(,|$)' <(guest_text "$T/client")
check "  (the line read back over NFSv4.1)" says client "V41-READ written through NFS 3 by rapido2"
sum=$(guest_text "$T/client" | sed -n 's#^nfs_client: rapido2/data: sha256 \([0-9a-f]\{64\}\), read back from 192.168.156.1:/export/nfs$#\1#p')
check "client read its data back after a remount" test -n "$sum"
check "junit.xml: nfs/client-io passed" test "$(testcases "$T/res/junit.xml")" = "nfs/client-io pass"
check "server saw the client's line" says server "SERVER-SAW rapido2.txt written through NFS 3 by rapido2"
check "server saw the client's directory" says server "SERVER-SAW rapido2/"
check "server's disk holds the data the client wrote (its sha256)" \
	says server "nfs_server: rapido2/data.sha256: the data on the export is what the client wrote"
check "server stopped when the client said it was done" \
	grep -qE '^rapido: nfs_server: /export/nfs/rapido-done appeared after [0-9]+s, stopping$' <(guest_text "$T/server")
check "server console clean" console_clean "$T/server"
check "client console clean" console_clean "$T/client"
[ $fails = 0 ] || for f in server client; do
	guest_text "$T/$f" | tail -n 30 | sed "s/^/# $f: /"
done
done_testing
