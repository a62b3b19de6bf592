#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ceph.sh: a real Ceph cluster from the Debian packages (./ceph-local) in a
# network namespace this test makes, and every Ceph profile against it,
# one cluster for all of them:
#   - up refuses what is not there; a cluster that fails half way (an MDS
#     that will not run) or is stopped by a signal is torn down
#   - cephfs and rbd: VM 1 writes, a second VM reads it back; qemu_rbd
#     reads the rbd VMs' file through qemu's rbd driver (fstests_cephfs
#     runs the real xfstests on a cluster of its own: ceph-fstests-real.sh)
#   - bad input fails in seconds, naming the problem: no cluster (./cut and
#     ./vm --rbd), a wrong key, a wrong monitor address, a missing image
#     (kernel client and qemu), the cluster gone from under a VM
#   - down leaves no process, mount, file or namespace behind
# With TEST_CEPH_CLUSTER (tests/run), "the cluster" and everything on it is
# the run's shared one (lib-ceph.inc), and tests/ceph-cluster down makes
# this test's checks of down on it; what needs a cluster of its own (up's
# refusals, the half-made clusters, a VM whose cluster is gone) stays in
# this test's own namespace, OWN_NS, and directory, OWN_CL.
# tests/run uses: ceph-cluster
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-ceph.inc"

# -- before any cluster (of this test's own) ------------------------------------
CEPH_LOCAL_DIR=$OWN_CL "$CEPH_LOCAL" --netns "$OWN_NS" up > "$T/out" 2>&1
expect_rc "up in a namespace that does not exist" 1 $?
check "  says so" says "$T/out" "network namespace $OWN_NS does not exist"
"$NETSETUP" --netns "$OWN_NS" up > "$T/out" 2>&1
expect_rc "netsetup up in a fresh namespace" 0 $?
CEPH_LOCAL_DIR=$OWN_CL "$CUT" cephfs -o "$T/cephfs.img" > "$T/out" 2>&1
expect_rc "no cluster: ./cut cephfs fails" 1 $?
check "  naming the cluster's missing ceph.conf" says "$T/out" "$OWN_CL/ceph.conf: No such file or directory"
"$CUT" qemu_rbd -o "$T/qemu_rbd.img" > "$T/out" 2>&1
expect_rc "cut qemu_rbd (no Ceph in the guest, no cluster needed)" 0 $?
CEPH_LOCAL_DIR=$OWN_CL VM_LOCK_DIR=$OWN_LOCKS ip netns exec "$OWN_NS" \
	"$VM" "$T/qemu_rbd.img" --batch --rbd rbd/rapido > "$T/out" 2>&1
expect_rc "no cluster: ./vm --rbd fails before qemu starts" 125 $?
check "  naming CEPH_CONF" says "$T/out" "CEPH_CONF $OWN_CL/ceph.conf: No such file or directory"

# -- half-made clusters are torn down -----------------------------------------
section "half-made clusters"
mkdir -p "$T/bin"
printf '#!/bin/sh\necho "fake ceph-mds: not today" >&2\nexit 1\n' > "$T/bin/ceph-mds"
chmod +x "$T/bin/ceph-mds"
PATH=$T/bin:$PATH CEPH_OSDS=1 CEPH_LOCAL_DIR=$OWN_CL "$CEPH_LOCAL" --netns "$OWN_NS" up > "$T/out" 2>&1
expect_rc "up with an MDS that will not run fails" 1 $?
check "  naming it" says "$T/out" "mds.a (pid"
check "  and tears the cluster down" says "$T/out" "tearing down the half-made cluster"
check "  leaving no daemon" test -z "$(ours "$OWN_CL")"
check "  and no state" test ! -e "$OWN_CL"
CEPH_OSDS=1 CEPH_LOCAL_DIR=$OWN_CL "$CEPH_LOCAL" --netns "$OWN_NS" up > "$T/out" 2>&1 &
up_pid=$!
for ((i = 0; i < 300; i++)); do
	grep -q "^osd.0 " "$OWN_CL/daemons" 2> /dev/null && break
	sleep 0.1
done
kill -TERM $up_pid
wait $up_pid
expect_rc "up stopped by SIGTERM after its first OSD" 1 $?
check "  tears the cluster down" says "$T/out" "tearing down the half-made cluster"
check "  leaving no daemon" test -z "$(ours "$OWN_CL")"
check "  and no state" test ! -e "$OWN_CL"

# -- the cluster --------------------------------------------------------------
section "the cluster"
cluster_start
expect_rc "ceph-local up: 1 mon, 1 mgr, 3 OSDs, 1 MDS (${up_secs}s)" 0 "$up_rc"
[ "$up_rc" = 0 ] || { sed 's/^/# /' "$T/up"; done_testing; exit; }
check "  HEALTH_OK with a CephFS and rbd/rapido" says "$T/up" "HEALTH_OK after"
check "  the monitor listens on the bridge address only" \
	test "$(ip netns exec "$NS" ss -Hltn | awk '$4 ~ /:6789$/ {print $4}')" = 192.168.155.1:6789
check "  the client keyring is not world-readable" test "$(stat -c %a "$CL/keyring")" = 600
"$CEPH_LOCAL" up > "$T/out" 2>&1
expect_rc "up again (the namespace found from the cluster)" 0 $?
check "  says it is up already" says "$T/out" "is up already (6 daemons)"
"$CEPH_LOCAL" status > "$T/status" 2>&1
expect_rc "status" 0 $?
check "  six daemons running, HEALTH_OK" \
	test "$(grep -c ' running ' "$T/status")" = 6 -a "$(grep -c 'health: HEALTH_OK' "$T/status")" = 1

# -- the profiles ---------------------------------------------------------------
section "the profiles"
# The same image twice: the first VM writes, the second reads back.
shared='f=$D/shared-'$nonce'.txt; if [ -e "$f" ]; then echo "READ-BACK: $(< "$f")"; '
shared+='else echo "data '$nonce' from rapido$RAPIDO_VM" > "$f" && sync && echo WROTE; fi'
"$CUT" cephfs -o "$T/cephfs.img" -x 'echo "KEYRING-MODE $(stat -c %a /etc/ceph/keyring)"' \
	-x "D=/mnt/cephfs; $shared" > "$T/out" 2>&1
expect_rc "cut cephfs" 0 $?
# ./cut makes an image with a #@ secret: key's value readable by its owner only
if grep -q '^#@ secret:' "$TOP/autorun/cephfs.sh"; then
	check "  the image is readable by its owner only" test "$(stat -c %a "$T/cephfs.img")" = 600
else
	skip "  the image is readable by its owner only" "./cut has no #@ secret: yet"
fi
"$CUT" rbd -o "$T/rbd.img" -x "D=/mnt/rbd; $shared" > "$T/out" 2>&1
expect_rc "cut rbd" 0 $?
"$CUT" qemu_rbd -o "$T/qemu_rbd.img" -x 'echo "QEMU-RBD-READ: $(< /mnt/rbd/shared-'$nonce'.txt)"' \
	> "$T/out" 2>&1
expect_rc "cut qemu_rbd" 0 $?

boot cephfs1 "$T/cephfs.img" --net tap
boot rbd1 "$T/rbd.img" --net tap
wait
booted cephfs1 0 "cephfs: VM mounts, checks write/fsync/read, writes a file"
check "  the kernel client mounted the cluster" guest_says "$T/cephfs1" "rapido: cephfs: 192.168.155.1:6789:/ on /mnt/cephfs (ceph)"
check "  write, fsync, read back" guest_says "$T/cephfs1" "write, fsync, read back of 1 MiB on /mnt/cephfs: ok"
check "  wrote the shared file" guest_says "$T/cephfs1" "WROTE"
check "  its keyring in the image is mode 0600" guest_says "$T/cephfs1" "KEYRING-MODE 600"
booted rbd1 0 "rbd: VM maps rbd/rapido, makes ext4, checks, writes a file"
check "  mapped and made ext4" guest_says "$T/rbd1" "rapido: rbd: made ext4 on /dev/rbd0"
check "  wrote the shared file" guest_says "$T/rbd1" "WROTE"
boot cephfs2 "$T/cephfs.img" --net tap
boot rbd2 "$T/rbd.img" --net tap
wait
booted cephfs2 0 "cephfs: a second VM"
check "  reads back the first VM's file" guest_says "$T/cephfs2" "READ-BACK: data $nonce from rapido"
booted rbd2 0 "rbd: a second VM"
check "  keeps the first VM's ext4" guest_says "$T/rbd2" "/dev/rbd0 already holds ext4: mounting it as it is"
check "  reads back the first VM's file" guest_says "$T/rbd2" "READ-BACK: data $nonce from rapido"
boot qemu_rbd "$T/qemu_rbd.img" --rbd rbd/rapido
wait
booted qemu_rbd 0 "qemu_rbd: ./vm --rbd rbd/rapido, a plain virtio disk"
check "  the disk is the rbd VMs' image" guest_says "$T/qemu_rbd" "QEMU-RBD-READ: data $nonce from rapido"
for f in cephfs1 cephfs2 rbd1 rbd2 qemu_rbd; do
	check "$f: console clean but for hung-task reports" cluster_console_clean "$f"
done

# -- bad input ------------------------------------------------------------------
section "bad input"
sed 's|^\(\s*key = \).*|\1AQBX3CtpAAAAABAAbb0SvdRA3VmFr/YRUaA8uQ==|' "$CL/keyring" > "$T/bad.keyring"
sed 's|192\.168\.155\.1:6789|192.168.155.9:6789|' "$CL/ceph.conf" > "$T/badmon.conf"
CEPH_KEYRING=$T/bad.keyring "$CUT" cephfs -o "$T/badkey.img" > "$T/out" 2>&1 &&
	CEPH_CONF=$T/badmon.conf CEPH_KEYRING=$CL/keyring CEPH_TIMEOUT=5 \
		"$CUT" cephfs -o "$T/badmon.img" > "$T/out" 2>&1 &&
	CEPH_RBD_IMAGE=rapido-missing "$CUT" rbd -o "$T/noimage.img" > "$T/out" 2>&1 &&
	CEPH_TIMEOUT=5 "$CUT" cephfs -o "$T/gone.img" > "$T/out" 2>&1
expect_rc "cut the bad-input images" 0 $?
boot badkey "$T/badkey.img" --net tap
boot noimage "$T/noimage.img" --net tap
wait
booted badkey 1 "a wrong key: cephfs fails"
check "  the guest says the key was refused" guest_says "$T/badkey" "the cluster refused client.admin's key"
booted noimage 1 "a missing image: rbd fails"
check "  the guest names it" guest_says "$T/noimage" "rbd: image rbd/rapido-missing does not exist"
boot badmon "$T/badmon.img" --net tap
wait
booted badmon 1 "a wrong monitor address: cephfs fails after CEPH_TIMEOUT=5"
check "  the guest says no monitor answered" guest_says "$T/badmon" "no monitor answered at 192.168.155.9:6789 within 5s"
ip netns exec "$NS" "$VM" "$T/qemu_rbd.img" --batch --rbd rbd/rapido-missing > "$T/out" 2>&1
expect_rc "qemu_rbd, a missing image: qemu refuses at once" 125 $?
check "  naming it" says "$T/out" "error reading header from rapido-missing"
CEPH_KEYRING=$T/bad.keyring ip netns exec "$NS" "$VM" "$T/qemu_rbd.img" --batch --rbd rbd/rapido \
	> "$T/out" 2>&1
expect_rc "qemu_rbd, a wrong key: qemu refuses at once" 125 $?
check "  naming it" says "$T/out" "error connecting: Permission denied"
"$VM" "$T/qemu_rbd.img" --dry-run --rbd 'rbd/a:b' > "$T/out" 2>&1
expect_rc "--rbd with a ':' in the image name" 125 $?

# -- down -------------------------------------------------------------------------
# the shared cluster's down is tests/ceph-cluster down's, with these checks;
# a VM whose cluster is gone is then one in OWN_NS, where no monitor is
# left since the half-made clusters, at the address of gone.img's ceph.conf
section "down"
if [ -n "$SHARED" ]; then
	shared_still_up
else
	cluster_down_checks "$CL" "$NS" 6
fi
NS=$OWN_NS VM_LOCK_DIR=$OWN_LOCKS boot gone "$T/gone.img" --net tap
wait
booted gone 1 "a VM whose cluster is gone fails after CEPH_TIMEOUT=5"
check "  saying no monitor answered" guest_says "$T/gone" "no monitor answered at 192.168.155.1:6789 within 5s"
"$NETSETUP" --netns "$OWN_NS" down > "$T/out" 2>&1
expect_rc "netsetup down" 0 $?
ip netns del "$OWN_NS"
check "no namespace left" test -z "$(ip netns list | grep -w "$OWN_NS")"
echo "# all done after $((SECONDS - start))s"
done_testing
