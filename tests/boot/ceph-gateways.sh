#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ceph-gateways.sh: the Ceph gateway profiles against one ./ceph-local
# cluster (tests/boot/lib-ceph.inc, the mechanism ceph.sh uses; one cluster
# for all of them):
#   - usb_rbd plain and with dm-crypt, lio_rbd, tcmu_rbd_loop, samba_cephfs
#     each exit 0: data round-trips and teardown leaves configfs,
#     device-mapper and the rbd mappings as they were; the host's rbd CLI
#     finds usb_rbd's pattern in the plain image and not in the crypt one
#   - bad input fails clearly, non-zero, without hanging, and the failure's
#     teardown leaves nothing: a wrong LUKS key, a wrong Ceph key, a missing
#     image, a gadget spec that fails midway (a UDC that does not exist), no
#     tcmu-runner in the image (./cut finds one only outside the guest's
#     PATH: a host tree without tcmu-runner in /usr/bin)
#   - tcmu_rbd_loop with a tcmu-runner late to be ready passes: it waits
#     for the daemon's readiness, not for a time (a wrapper execs the real
#     one 12 s late, after a first tcmu-runner ran in that boot; see below)
#   - the user-space clients: rbd_nbd (rbd-nbd on rbd/gw-nbd) and cephfs_fuse
#     (ceph-fuse) pass their write/fsync/read check; rbd_nbd on a missing
#     image and cephfs_fuse on a missing file system fail, saying so, in
#     ./vm's status and in junit.xml
#   - down leaves no daemon, and no watcher was left on the images
# A test of its own beside ceph.sh: together they would outlast one boot
# test's time limit (tests/run, BOOT_TIMEOUT). The cluster may be the run's
# shared one (lib-ceph.inc): the gateways' images are removed at the end.
# tests/run uses: ceph-cluster
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-ceph.inc"

cluster_up
section "the gateways"

gw_rbd() {
	ip netns exec "$NS" rbd -c "$CL/ceph.conf" -k "$CL/keyring" "$@"
}
# gw_marker IMAGE: how many lines of usb_rbd's pattern the image holds
gw_marker() {
	gw_rbd export "rbd/$1" - 2> /dev/null | grep -a -c "^rapido usb_rbd pattern "
}
# gw_pass NAME PROFILE: the common checks of a VM that passed
gw_pass() {
	check "  configfs, device-mapper and rbd mappings as before" \
		guest_says "$T/$1" "rapido: $2: configfs, device-mapper and rbd mappings as before the setup"
	check "  PASS" guest_says "$T/$1" "rapido: $2: PASS"
}
# gw_results_fail NAME WHAT SAYS: NAME, booted with --results $T/NAME-res
# (less its gw-), failed; its guest said SAYS, and junit.xml holds the failure
gw_results_fail() {
	booted "$1" 1 "$2"
	check "  naming it" guest_says "$T/$1" "$3"
	check "  junit.xml holds the failure" \
		grep -q '<failure message="the guest&apos;s scripts failed"' "$T/${1#gw-}-res/junit.xml"
}
# gw_clean_fail NAME PROFILE: a failed VM's teardown left nothing
gw_clean_fail() {
	check "  tore down after the failure, nothing left" guest_says "$T/$1" \
		"rapido: $2: configfs, device-mapper and rbd mappings as before the setup"
}

for img in gw-usb gw-usbc gw-lio gw-tcmu gw-nbd; do
	gw_rbd create "rbd/$img" --size 64M --image-feature layering || echo "# rbd create rbd/$img failed"
done
# ./cut copies a program at its host path: this one lands outside the
# guest's PATH, so the guest has no tcmu-runner, as on a host without it
mkdir -p "$T/gw-bin"
printf '#!/bin/sh\nexit 1\n' > "$T/gw-bin/tcmu-runner"
chmod +x "$T/gw-bin/tcmu-runner"
# A tcmu-runner late to be ready (seen once at load 20: its handlers took
# 10 s to load, and the backstore's enable got EAGAIN, "Interface is
# blocked"). The profile's own text, from a profile directory
# (RAPIDO_PROFILE_PATH), with a header line more that puts a wrapper
# first in the guest's PATH (/usr/sbin) and, before its start of
# tcmu-runner, a prelude: a tcmu-runner runs to readiness and stops, so
# the kernel waits for a daemon's replies from then on (a restart, the
# case tcmu-runner's netlink block is for). The wrapper takes
# tcmu-runner's first step, the kernel's netlink block, and execs the real
# one 12 s later: a delay the profile must wait out, not a race.
mkdir -p "$T/gw-slow" "$T/gw-prof"
cat > "$T/gw-slow/tcmu-runner" << 'EOF'
#!/bin/bash
# a tcmu-runner late to be ready (tests/boot/ceph-gateways.sh)
echo 1 > /sys/module/target_core_user/parameters/block_netlink || exit 1
# said on the console (the test checks the wrapper, not the real one, ran)
echo "rapido-test: tcmu-runner wrapper: netlink blocked, the real one in 12 s" > /dev/kmsg
read -r -t 12 _ <> <(:)
exec /usr/bin/tcmu-runner "$@"
EOF
chmod +x "$T/gw-slow/tcmu-runner"
cat > "$T/gw-prime" << 'EOF'
# test prelude (tests/boot/ceph-gateways.sh): a tcmu-runner ran in this boot
gw_nl=/sys/module/target_core_user/parameters/block_netlink
gw_unblocked() { [ "$(< "$gw_nl")" = unblocked ]; }
mkdir -p /tmp/tcmu-prime
echo 1 > "$gw_nl" || rapido_fail "test prelude: cannot block netlink"
/usr/bin/tcmu-runner --tcmu-log-dir /tmp/tcmu-prime > /tmp/tcmu-prime/stdout 2>&1 < /dev/null &
gw_prime=$!
rapido_wait -p "$gw_prime" 120 gw_unblocked || {
	gw_stop "$gw_prime"
	rapido_fail "test prelude: the first tcmu-runner was not ready: $(cat /tmp/tcmu-prime/*)"
}
gw_stop "$gw_prime" || rapido_fail "test prelude: the first tcmu-runner needed SIGKILL"
echo "rapido: test prelude: a tcmu-runner ran to readiness and stopped"
EOF
# (after its tcmu.conf, which tcmu-runner needs, before anything of its
# own about tcmu-runner's start; its includes are the checkout's)
ln -s "$TOP/autorun/include" "$T/gw-prof/include"
awk -v files="#@ files: $T/gw-slow/tcmu-runner:/usr/sbin/tcmu-runner" -v prime="$T/gw-prime" '
	/^#@ / && !h { print files; h = 1 }
	{ print }
	/> \/etc\/tcmu\/tcmu\.conf \|\| rapido_fail/ { while ((getline l < prime) > 0) print l; p = 1 }
	END { if (!h || !p) exit 1 }' "$TOP/autorun/tcmu_rbd_loop.sh" > "$T/gw-prof/tcmu_rbd_loop.sh"
expect_rc "the late tcmu-runner's profile copy made" 0 $?
sed 's|^\(\s*key = \).*|\1AQBX3CtpAAAAABAAbb0SvdRA3VmFr/YRUaA8uQ==|' "$CL/keyring" > "$T/gw-bad.keyring"
CEPH_RBD_IMAGE=gw-usb "$CUT" usb_rbd -o "$T/gw-usb.img" > "$T/out" 2>&1 &&
	CEPH_RBD_IMAGE=gw-usbc USB_RBD_CRYPT=1 USB_RBD_KEY=gw-key-$nonce \
		"$CUT" usb_rbd -o "$T/gw-usbc.img" > "$T/out" 2>&1 &&
	CEPH_RBD_IMAGE=gw-lio "$CUT" lio_rbd -o "$T/gw-lio.img" > "$T/out" 2>&1 &&
	CEPH_RBD_IMAGE=gw-tcmu "$CUT" tcmu_rbd_loop -o "$T/gw-tcmu.img" > "$T/out" 2>&1 &&
	"$CUT" samba_cephfs -o "$T/gw-samba.img" > "$T/out" 2>&1
expect_rc "cut usb_rbd (plain, crypt), lio_rbd, tcmu_rbd_loop, samba_cephfs" 0 $? ||
	sed 's/^/# /' "$T/out" | tail -n 5
CEPH_RBD_IMAGE=gw-usbc USB_RBD_CRYPT=1 USB_RBD_KEY=not-the-key "$CUT" usb_rbd \
	-o "$T/gw-badluks.img" > "$T/out" 2>&1 &&
	CEPH_RBD_IMAGE=gw-usb CEPH_KEYRING=$T/gw-bad.keyring "$CUT" usb_rbd \
		-o "$T/gw-badkey.img" > "$T/out" 2>&1 &&
	CEPH_RBD_IMAGE=gw-missing "$CUT" lio_rbd -o "$T/gw-noimage.img" > "$T/out" 2>&1 &&
	CEPH_RBD_IMAGE=gw-usb USB_RBD_UDC=nosuch_udc.0 "$CUT" usb_rbd -o "$T/gw-badudc.img" \
		> "$T/out" 2>&1 &&
	CEPH_RBD_IMAGE=gw-tcmu PATH=$T/gw-bin:$PATH "$CUT" tcmu_rbd_loop -o "$T/gw-notcmu.img" \
		> "$T/out" 2>&1 &&
	CEPH_RBD_IMAGE=gw-tcmu RAPIDO_PROFILE_PATH=$T/gw-prof "$CUT" tcmu_rbd_loop \
		-o "$T/gw-tcmulate.img" > "$T/out" 2>&1
expect_rc "cut the gateways' bad-input images" 0 $? || sed 's/^/# /' "$T/out" | tail -n 5

boot gw-usb "$T/gw-usb.img" --net tap
boot gw-usbc "$T/gw-usbc.img" --net tap
wait
booted gw-usb 0 "usb_rbd: rbd image as a USB disk on dummy_hcd"
check "  usb-storage saw the gadget's disk" guest_says "$T/gw-usb" "bound to dummy_udc.0, USB device 1-1, usb-storage disk /dev/sd"
check "  the pattern round-tripped through the USB disk" guest_says "$T/gw-usb" "4 MiB written to /dev/sda and read back"
check "  a fresh mapping holds it" guest_says "$T/gw-usb" "rapido: usb_rbd: rbd/gw-usb holds what was written through the USB disk"
gw_pass gw-usb usb_rbd
check "  the host's rbd export finds the pattern in the image" test "$(gw_marker gw-usb)" -gt 0
booted gw-usbc 0 "usb_rbd, USB_RBD_CRYPT=1: dm-crypt between the image and the gadget"
check "  LUKS2 made with USB_RBD_KEY" guest_says "$T/gw-usbc" "LUKS2 made on rbd/gw-usbc (USB_RBD_KEY)"
check "  the raw image lacks the plain text" guest_says "$T/gw-usbc" "the raw image rbd/gw-usbc does not hold the pattern's plain text"
check "  decrypted again it holds the pattern" guest_says "$T/gw-usbc" "rbd/gw-usbc, decrypted again, holds what was written through the USB disk"
gw_pass gw-usbc usb_rbd
check "  the host's rbd export does not find the pattern" test "$(gw_marker gw-usbc)" = 0

# Debian's 6.1 kernel now and then warns at the iSCSI logout that one of
# its workqueues flushes another against the workqueue rules
# (check_flush_dependency: kernel code's doing, no input of the profile's
# reaches it; seen once in 4 runs, under load). It is listed, with that
# reason, so it fails nothing, and only that report is let through below.
flush_re='WARNING: CPU: [0-9]+ PID: [0-9]+ at kernel/workqueue\.c:[0-9]+ check_flush_dependency'
printf '^%s # Debian 6.1 kernel: a workqueue flush against the rules at the iSCSI logout, now and then\n' \
	"$flush_re" > "$T/lio.allow"
boot gw-lio "$T/gw-lio.img" --net tap --splats-allow "$T/lio.allow"
boot gw-tcmu "$T/gw-tcmu.img" --net tap
wait
booted gw-lio 0 "lio_rbd: iblock on the mapped image over tcm_loop and iSCSI"
check "  I/O through tcm_loop" guest_says "$T/gw-lio" "lio_rbd: tcm_loop /dev/sda on /dev/rbd0: 4 MiB written to /dev/sda and read back"
check "  I/O through open-iscsi" guest_says "$T/gw-lio" "iSCSI (open-iscsi): logged in, read the pattern through /dev/sd"
check "  a fresh mapping holds both" guest_says "$T/gw-lio" "rbd/gw-lio holds what tcm_loop and iSCSI wrote"
gw_pass gw-lio lio_rbd
booted gw-tcmu 0 "tcmu_rbd_loop: tcmu-runner's rbd handler over tcm_loop"
check "  tcmu-runner serves the image" guest_says "$T/gw-tcmu" "tcmu-runner serves rbd/gw-tcmu (67108864 bytes)"
check "  the kernel client finds the pattern" guest_says "$T/gw-tcmu" "rbd/gw-tcmu, mapped by the kernel, holds what was written through tcmu-runner"
gw_pass gw-tcmu tcmu_rbd_loop

boot gw-samba "$T/gw-samba.img" --net tap
boot gw-badluks "$T/gw-badluks.img" --net tap
wait
booted gw-samba 0 "samba_cephfs: smbd with vfs_ceph, cifs on loopback"
check "  the share is on libcephfs" guest_says "$T/gw-samba" "as //127.0.0.1/cephfs through vfs_ceph"
check "  written through the share, found through the kernel's CephFS client" \
	guest_says "$T/gw-samba" "the kernel's CephFS client finds the same bytes in /rapido-samba."
check "  written through CephFS, read through the share" \
	guest_says "$T/gw-samba" "a file written through the kernel's CephFS client reads back through the share"
check "  nothing left" guest_says "$T/gw-samba" "rapido: samba_cephfs: no cifs or CephFS mount, no smbd left"
check "  PASS" guest_says "$T/gw-samba" "rapido: samba_cephfs: PASS"
booted gw-badluks 1 "usb_rbd: a wrong LUKS key fails"
check "  naming it" guest_says "$T/gw-badluks" "rbd/gw-usbc holds a LUKS header that USB_RBD_KEY does not open (wrong key"
gw_clean_fail gw-badluks usb_rbd

boot gw-badkey "$T/gw-badkey.img" --net tap
boot gw-noimage "$T/gw-noimage.img" --net tap
wait
booted gw-badkey 1 "usb_rbd: a wrong Ceph key fails"
check "  the guest says the key was refused" guest_says "$T/gw-badkey" "the cluster refused client.admin's key"
gw_clean_fail gw-badkey usb_rbd
booted gw-noimage 1 "lio_rbd: a missing image fails"
check "  naming it" guest_says "$T/gw-noimage" "image rbd/gw-missing does not exist"
gw_clean_fail gw-noimage lio_rbd

boot gw-badudc "$T/gw-badudc.img" --net tap
boot gw-notcmu "$T/gw-notcmu.img" --net tap
boot gw-tcmulate "$T/gw-tcmulate.img" --net tap
wait
booted gw-badudc 1 "usb_rbd: the gadget spec fails midway (USB_RBD_UDC names no UDC)"
check "  the writer names the spec line and rolls the gadget back" \
	guest_says "$T/gw-badudc" "usb-msc.spec:54: write /sys/kernel/config/usb_gadget/g1/UDC nosuch_udc.0"
check "  nothing of the gadget left" guest_says "$T/gw-badudc" "rolled back 6 operations; nothing is left behind"
check "  the profile names the UDC" guest_says "$T/gw-badudc" "USB_RBD_UDC=nosuch_udc.0: no such UDC in /sys/class/udc"
gw_clean_fail gw-badudc usb_rbd
booted gw-notcmu 1 "tcmu_rbd_loop: no tcmu-runner in the image fails"
check "  saying so and what to install" guest_says "$T/gw-notcmu" "tcmu_rbd_loop: tcmu-runner is not in the image (apt-get install tcmu-runner"
gw_clean_fail gw-notcmu tcmu_rbd_loop
booted gw-tcmulate 0 "tcmu_rbd_loop: a tcmu-runner ready 12 s late, after one that ran before"
check "  the first tcmu-runner ran and stopped" guest_says "$T/gw-tcmulate" "rapido: test prelude: a tcmu-runner ran to readiness and stopped"
check "  the late one is the test's wrapper" console_says "$T/gw-tcmulate" "rapido-test: tcmu-runner wrapper: netlink blocked"
check "  waited for the late one's readiness" guest_says "$T/gw-tcmulate" "ready: the kernel's netlink block lifted"
check "  it serves the image" guest_says "$T/gw-tcmulate" "tcmu-runner serves rbd/gw-tcmu (67108864 bytes)"
gw_pass gw-tcmulate tcmu_rbd_loop

section "the user-space clients: rbd-nbd, ceph-fuse"
CEPH_RBD_IMAGE=gw-nbd "$CUT" rbd_nbd -o "$T/gw-nbd.img" > "$T/out" 2>&1 &&
	CEPH_RBD_IMAGE=gw-missing "$CUT" rbd_nbd -o "$T/gw-nbdbad.img" > "$T/out" 2>&1 &&
	"$CUT" cephfs_fuse -o "$T/gw-fuse.img" > "$T/out" 2>&1 &&
	CEPH_FS_NAME=gw-nosuchfs "$CUT" cephfs_fuse -o "$T/gw-fusebad.img" > "$T/out" 2>&1
expect_rc "cut rbd_nbd and cephfs_fuse, each also on something missing" 0 $? || sed 's/^/# /' "$T/out" | tail -n 5
boot gw-nbd "$T/gw-nbd.img" --net tap
boot gw-nbdbad "$T/gw-nbdbad.img" --net tap --results "$T/nbdbad-res"
wait
booted gw-nbd 0 "rbd_nbd: rbd-nbd maps rbd/gw-nbd over the nbd driver"
check "  mapped at /dev/nbd0" guest_says "$T/gw-nbd" "rapido: rbd_nbd: rbd/gw-nbd mapped by rbd-nbd at /dev/nbd0"
check "  write, fsync, read back" guest_says "$T/gw-nbd" "rapido: rbd_nbd: write, fsync, read back of 1 MiB on /mnt/rbd: ok"
check "  rbd-nbd unmapped at exit" console_says "$T/gw-nbd" "nbd0: Disconnected due to user request"
check "  the host finds the ext4 it made on the image" \
	test "$(gw_rbd export rbd/gw-nbd - 2> /dev/null | head -c 2048 | tail -c 1024 | od -An -tx1 -j56 -N2 | tr -d ' ')" = 53ef
gw_results_fail gw-nbdbad "rbd_nbd: a missing image fails" "rbd_nbd: rbd-nbd map rbd/gw-missing failed"
boot gw-fuse "$T/gw-fuse.img" --net tap
boot gw-fusebad "$T/gw-fusebad.img" --net tap --results "$T/fusebad-res"
wait
booted gw-fuse 0 "cephfs_fuse: ceph-fuse mounts CephFS"
check "  mounted by ceph-fuse" guest_says "$T/gw-fuse" "rapido: cephfs_fuse: ceph-fuse on /mnt/cephfs (fuse.ceph-fuse)"
check "  write, fsync, read back" guest_says "$T/gw-fuse" "rapido: cephfs_fuse: write, fsync, read back of 1 MiB on /mnt/cephfs: ok"
gw_results_fail gw-fusebad "cephfs_fuse: a missing file system fails" \
	"cephfs_fuse: ceph-fuse cannot mount the cluster's file system on /mnt/cephfs"

for f in gw-usb gw-usbc gw-tcmu gw-samba gw-badluks gw-badkey gw-noimage gw-badudc gw-notcmu gw-tcmulate gw-nbd gw-nbdbad gw-fuse gw-fusebad; do
	check "$f: console clean but for hung-task reports" cluster_console_clean "$f"
done
hung_reports gw-lio "$T/gw-lio"
check "gw-lio: console clean but for the listed workqueue warning and hung-task reports" \
	console_clean_but "$T/gw-lio" "($flush_re|INFO: task [^ ]+ blocked for more than)"
# which workqueues, when it happens (the kernel's line before the WARNING)
grep -a 'workqueue: WQ_MEM_RECLAIM' "$T/gw-lio" | sed 's/^/# gw-lio: /' 
check "no rbd watcher left on the gateways' images" \
	test -z "$(for i in gw-usb gw-usbc gw-lio gw-tcmu gw-nbd; do gw_rbd status "rbd/$i" | grep 'watcher='; done)"

for i in gw-usb gw-usbc gw-lio gw-tcmu gw-nbd; do
	gw_rbd rm --no-progress "rbd/$i" || echo "# rbd rm rbd/$i failed"
done
check "the gateways' images removed, the others' kept" \
	test -z "$(gw_rbd ls rbd | grep '^gw-')" -a -n "$(gw_rbd ls rbd | grep -x rapido)"
cluster_down
echo "# all done after $((SECONDS - start))s"
done_testing
