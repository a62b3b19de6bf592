#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cifs-bridge.sh: samba_local and cifs as in cifs.sh, but on the bridge
# ./netsetup makes inside a network namespace this test creates (never the
# host's interfaces): the server is VM 1 at 192.168.155.101, the client
# VM 2 at .102; the client writes a file, the server's autorun sees it.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { echo "# SKIP needs root for network namespaces"; exit 77; }
netns_or_skip
for b in smbd smbpasswd; do
	command -v $b > /dev/null || { echo "# SKIP needs $b (samba, samba-common-bin)"; exit 77; }
done
NS=rapido-test-$$
NETSETUP=$TOP/netsetup
cleanup() {
	"$NETSETUP" --netns "$NS" down > /dev/null 2>&1
	ip netns del "$NS" 2> /dev/null
	[ -n "${KEEP_TEST_DIR:-}" ] || rm -rf "$T"
}
trap cleanup EXIT

unset CIFS_SERVER CIFS_SHARE CIFS_MOUNT_OPTS CIFS_WAIT_SECS SAMBA_FS SAMBA_ZRAM_SIZE \
	SAMBA_SERVE_SECS SAMBA_LOG_LEVEL
export CIFS_USER=rapido-tester CIFS_PASS=bridge-pass

"$NETSETUP" --netns "$NS" up > "$T/out" 2>&1
expect_rc "netsetup up in a fresh namespace" 0 $?

# xfs this time (the link test uses the default ext4); xfs wants >= 300M
SAMBA_FS=xfs "$CUT" samba_local -o "$T/server.img" > "$T/out" 2>&1
expect_rc "cut samba_local (SAMBA_FS=xfs)" 0 $?
CIFS_SERVER=192.168.155.101 CIFS_MOUNT_OPTS=vers=3.0 "$CUT" cifs -o "$T/client.img" \
	-x 'echo "bridged hello from rapido$RAPIDO_VM" > /mnt/cifs/bridge.txt || exit 1' \
	-x 'touch /mnt/cifs/rapido-done' > "$T/out" 2>&1
expect_rc "cut cifs" 0 $?

start=$SECONDS
ip netns exec "$NS" "$VM" "$T/server.img" --batch --net tap --timeout 600 > "$T/server" 2>&1 &
p1=$!
# the server must hold VM number 1 (so 192.168.155.101) before the client starts
for ((i = 0; i < 300; i++)); do
	[ -e "$VM_STATE_DIR/vm1.log" ] && break
	kill -0 $p1 2> /dev/null || break
	sleep 0.1
done
ip netns exec "$NS" "$VM" "$T/client.img" --batch --net tap --timeout 600 > "$T/client" 2>&1 &
p2=$!
wait $p2; r2=$?
[ $r2 = 0 ] || kill $p1 2> /dev/null
wait $p1; r1=$?
echo "# both VMs done after $((SECONDS - start))s"
expect_rc "server VM" 0 $r1
expect_rc "client VM" 0 $r2
check "server is VM 1 at 192.168.155.101, on xfs" grep -aq "rapido: samba_local: //192.168.155.101/share (eth0)" "$T/server"
check "the share is on xfs" grep -aq "rapido: samba_local: xfs on /dev/zram" "$T/server"
check "client mounted with vers=3.0" grep -aq "rapido: cifs: //192.168.155.101/share on /mnt/cifs (cifs).*vers=3.0" "$T/client"
check "server saw the client's file" grep -aq "^SERVER-SAW bridge.txt bridged hello from rapido2" "$T/server"
check "server console clean" console_clean "$T/server"
check "client console clean" console_clean "$T/client"
[ $fails = 0 ] || for f in server client; do
	grep -av '^\[ ' "$T/$f" | tail -n 20 | sed "s/^/# $f: /"
done

"$NETSETUP" --netns "$NS" down > "$T/out" 2>&1
expect_rc "netsetup down" 0 $?
done_testing
