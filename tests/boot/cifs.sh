#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cifs.sh: samba_local in one VM, cifs in another, joined by a rootless
# qemu socket link (--link-listen / --link-connect on loopback). The
# client mounts the share, writes a file and says it is done; the server's
# autorun sees the file ("SERVER-SAW NAME CONTENT") and both exit 0.
# Also: ./cut cifs without CIFS_SERVER names the key.
. "$(dirname "$0")/lib.sh"
for b in smbd smbpasswd; do
	command -v $b > /dev/null || { echo "# SKIP needs $b (samba, samba-common-bin)"; exit 77; }
done

unset CIFS_SERVER CIFS_SHARE CIFS_MOUNT_OPTS CIFS_WAIT_SECS SAMBA_FS SAMBA_ZRAM_SIZE \
	SAMBA_SERVE_SECS SAMBA_LOG_LEVEL
export CIFS_USER=rapido-tester
# a blank and a comma: neither may be cut up on the way
export CIFS_PASS='pass word,1'

"$CUT" cifs -o "$T/client.img" > "$T/out" 2>&1
rc=$?
check "cut cifs without CIFS_SERVER fails" test $rc -ne 0
check "the error names CIFS_SERVER" grep -q "config key CIFS_SERVER is not set" "$T/out"
check "no image written" test ! -e "$T/client.img"

"$CUT" samba_local -o "$T/server.img" > "$T/out" 2>&1
expect_rc "cut samba_local" 0 $?
[ -s "$T/server.img" ] || sed 's/^/# /' "$T/out"
# the server is VM 1 (this test's own VM_STATE_DIR, and it starts first):
# 192.168.156.1 on the link
CIFS_SERVER=192.168.156.1 "$CUT" cifs -o "$T/client.img" \
	-x 'echo "hello from rapido$RAPIDO_VM via cifs" > /mnt/cifs/hello.txt || exit 1' \
	-x 'echo "CLIENT-READ $(cat /mnt/cifs/hello.txt)"' \
	-x 'touch /mnt/cifs/rapido-done' > "$T/out" 2>&1
expect_rc "cut cifs" 0 $?
[ -s "$T/client.img" ] || sed 's/^/# /' "$T/out"

absent() {
	! grep -aq "$1" "$2"
}
link_boot "$T/server" "$T/client" "$T/server.img" --batch --timeout 600 -- \
	"$T/client.img" --batch --timeout 600
echo "# both VMs done after ${link_secs}s"
expect_rc "server VM" 0 $r1
expect_rc "client VM" 0 $r2
check "server is VM 1 at 192.168.156.1" grep -aq "rapido: samba_local: //192.168.156.1/share (eth0)" "$T/server"
check "client mounted the share" grep -aq "rapido: cifs: //192.168.156.1/share on /mnt/cifs (cifs)" "$T/client"
check "client read back what it wrote" grep -aq "^CLIENT-READ hello from rapido2 via cifs" "$T/client"
check "server saw the client's file" grep -aq "^SERVER-SAW hello.txt hello from rapido2 via cifs" "$T/server"
check "client left before the server stopped" absent "clients still connected" "$T/server"
check "server console clean" console_clean "$T/server"
check "client console clean" console_clean "$T/client"
[ $fails = 0 ] || for f in server client; do
	grep -av '^\[ ' "$T/$f" | tail -n 20 | sed "s/^/# $f: /"
done
done_testing
