#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lio_rbd: a Ceph RBD image exported by LIO. The kernel rbd client maps
# CEPH_RBD_POOL/CEPH_RBD_IMAGE and LIO's iblock backstore serves that block
# device (autorun/configfs/lio-iblock.spec, through rapido-configfs) as
# LUN 0 of a tcm_loop port and of an iSCSI target on 127.0.0.1:3260. A
# pattern is written and read back through tcm_loop's SCSI disk; open-iscsi
# (iscsid, iscsiadm, the kernel's iscsi_tcp) logs in to the guest's own
# portal, reads the pattern and writes a second one through the session's
# disk; logout, then teardown in order (LIO tree, unmap), and the image is
# mapped again to prove both patterns are on it. Exit 0 only when all of
# that held and configfs and the rbd mappings are as they were; any
# failure tears down what was set up and exits 1.
#
# Why iblock and not target_core_rbd: target_core_rbd (LIO's own RBD
# backstore, talking to the OSDs from the target) is SUSE's out-of-tree
# patch set; mainline Linux, hence Debian's kernel, has no such module.
# A kernel-mapped /dev/rbdN behind iblock is what mainline offers (the
# user-space way, tcmu-runner's rbd handler, is tcmu_rbd_loop).
#
# The image's first 4 MiB and the MiB at 8 MiB are overwritten: give it its
# own image (rbd create rbd/lio --size 64M --image-feature layering).
#
# rapido.conf (or environment) keys:
#   CEPH_CONF, CEPH_KEYRING, CEPH_USER, CEPH_TIMEOUT   as for cephfs
#   CEPH_RBD_POOL, CEPH_RBD_IMAGE   the image (default rbd/rapido)
#@ description: LIO iblock over a kernel-mapped rbd image (no target_core_rbd in mainline) as LUN 0 of tcm_loop and iSCSI on 127.0.0.1; I/O through both, bytes proven on the image, ordered teardown
#@ include: ceph configfs
#@ files: autorun/configfs/lio-iblock.spec:/usr/share/rapido/configfs/lio-iblock.spec
#@ bins: blockdev iscsid iscsiadm setsid yes head grep timeout
#@ bins-optional: lsscsi diff
#@ modules: rbd target_core_mod target_core_iblock tcm_loop iscsi_target_mod sd_mod iscsi_tcp
#@ kconfig: CONFIG_BLK_DEV_RBD=m CONFIG_TARGET_CORE=m CONFIG_TCM_IBLOCK=m
#@ kconfig: CONFIG_LOOPBACK_TARGET=m CONFIG_ISCSI_TARGET=m CONFIG_BLK_DEV_SD=m CONFIG_ISCSI_TCP=m
#@ kconfig-optional: CONFIG_BLK_DEV=y CONFIG_SCSI=y CONFIG_SCSI_LOWLEVEL=y
#@ conf-optional: CEPH_RBD_POOL CEPH_RBD_IMAGE
#@ cpus: 1
#@ memory: 1G

LR_SPEC=/usr/share/rapido/configfs/lio-iblock.spec
LR_WWN=naa.5001405e1a2b3c21	# the spec's loop_wwn
LR_IQN=iqn.2003-01.org.linux-iscsi.rapido:rbd
LR_INITIATOR=iqn.2003-01.org.linux-iscsi.rapido:initiator
LR_PORTAL=127.0.0.1:3260
LR_MIB=4
lr_spec=${CEPH_RBD_POOL:-rbd}/${CEPH_RBD_IMAGE:-rapido}
lr_defs=()

# lr_teardown: undo whatever of the setup is there, in order: the iSCSI
# session logged out and iscsid stopped, the LIO tree removed (its SCSI
# disks go with it), the image unmapped
lr_teardown() {
	local rc=0

	if [ -n "${LIO_ISCSID:-}" ]; then
		iscsiadm -m node -T "$LR_IQN" -p "$LR_PORTAL" --logout > /dev/null 2>&1
		iscsiadm -m node -T "$LR_IQN" -p "$LR_PORTAL" -o delete > /dev/null 2>&1
		lio_iscsid_stop || rc=1
		LIO_ISCSID=
	fi
	if [ ${#lr_defs[@]} -gt 0 ]; then
		rapido-configfs "${lr_defs[@]}" --teardown "$LR_SPEC" || rc=1
		[ -z "${sd:-}" ] || rapido_wait 30 test ! -e "/sys/block/${sd#/dev/}" || rc=1
	fi
	if [ -n "${lr_rbd:-}" ] && [ -e "$lr_rbd" ]; then
		rapido-ceph unmap "$lr_rbd" || rc=1
	fi
	return $rc
}

lr_on_fail() {
	echo "rapido: lio_rbd: tearing down after the failure" >&2
	lr_teardown
	gw_clean || echo "rapido: lio_rbd: teardown after the failure left the above" >&2
}

rapido_on_fail rapido_kernel_tail
rapido_on_fail lio_on_fail
rapido_on_fail lr_on_fail
ceph_need_net
cfs_mount
gw_begin

lr_rbd=$(ceph_client map "$lr_spec") || rapido_fail "lio_rbd: cannot map $lr_spec (see above)"
ceph_say "lio_rbd: $lr_spec mapped at $lr_rbd ($(blockdev --getsize64 "$lr_rbd") bytes)"
lr_defs=(-D "blockdev=$lr_rbd" -D "loop_wwn=$LR_WWN" -D "iqn=$LR_IQN")
rapido-configfs "${lr_defs[@]}" "$LR_SPEC" || rapido_fail "lio_rbd: rapido-configfs $LR_SPEC (exit $?)"
net_tcp_listening 3260 || rapido_fail "lio_rbd: iSCSI: nothing listens on $LR_PORTAL"
lio_sd "$LR_WWN" 0 sd
ceph_say "lio_rbd: iblock on $lr_rbd: tcm_loop disk $sd, iSCSI $LR_IQN on $LR_PORTAL"
command -v lsscsi > /dev/null && lsscsi
[ "$(blockdev --getsize64 "$sd")" = "$(blockdev --getsize64 "$lr_rbd")" ] ||
	rapido_fail "lio_rbd: $sd is not the size of $lr_rbd"

gw_pattern /tmp/lio-rbd.data "$LR_MIB"
cfs_rw_check "$sd" /tmp/lio-rbd.data "lio_rbd: tcm_loop $sd on $lr_rbd"

# open-iscsi: read what tcm_loop wrote, write a MiB at 8 MiB
lio_iscsid_start "$LR_INITIATOR" || rapido_fail "lio_rbd: iscsid did not start (see above)"
iscsiadm -m discovery -t sendtargets -p "$LR_PORTAL" > /tmp/lio-rbd.disc ||
	rapido_fail "lio_rbd: iscsiadm -m discovery -t sendtargets -p $LR_PORTAL (exit $?)"
[[ $(< /tmp/lio-rbd.disc) == *"$LR_PORTAL,1 $LR_IQN"* ]] ||
	rapido_fail "lio_rbd: iSCSI discovery on $LR_PORTAL did not find $LR_IQN: $(< /tmp/lio-rbd.disc)"
iscsiadm -m node -T "$LR_IQN" -p "$LR_PORTAL" --login ||
	rapido_fail "lio_rbd: iscsiadm -m node -T $LR_IQN -p $LR_PORTAL --login (exit $?)"
rapido_wait 30 lio_iscsi_sd 0 isd || rapido_fail "lio_rbd: iSCSI: no SCSI disk for LUN 0 in the session"
dd if="$isd" of=/tmp/lio-rbd.isc bs=1M count="$LR_MIB" iflag=direct status=none ||
	rapido_fail "lio_rbd: iSCSI: read $isd"
cmp /tmp/lio-rbd.isc /tmp/lio-rbd.data || rapido_fail "lio_rbd: iSCSI: $isd reads other data than tcm_loop wrote"
cfs_data_file /tmp/lio-rbd.isc 1
dd if=/tmp/lio-rbd.isc of="$isd" bs=1M seek=8 oflag=direct conv=fsync status=none ||
	rapido_fail "lio_rbd: iSCSI: write $isd"
dd if="$isd" of=/tmp/lio-rbd.back bs=1M skip=8 count=1 iflag=direct status=none ||
	rapido_fail "lio_rbd: iSCSI: read back $isd"
cmp /tmp/lio-rbd.back /tmp/lio-rbd.isc || rapido_fail "lio_rbd: iSCSI: $isd read back other data than written"
iscsiadm -m node -T "$LR_IQN" -p "$LR_PORTAL" --logout ||
	rapido_fail "lio_rbd: iscsiadm --logout (exit $?)"
rapido_wait 30 test ! -e "/sys/block/${isd#/dev/}" || rapido_fail "lio_rbd: $isd still there after the logout"
iscsiadm -m node -T "$LR_IQN" -p "$LR_PORTAL" -o delete || rapido_fail "lio_rbd: iscsiadm -m node -o delete"
lio_iscsid_stop || rapido_fail "lio_rbd: iscsid (pid $LIO_ISCSID) did not stop"
LIO_ISCSID=
ceph_say "lio_rbd: iSCSI (open-iscsi): logged in, read the pattern through $isd, wrote 1 MiB at 8 MiB; logged out, iscsid stopped"

lr_teardown || rapido_fail "lio_rbd: teardown failed (see above)"
lr_defs=() lr_rbd=''
net_tcp_listening 3260 && rapido_fail "lio_rbd: iSCSI: $LR_PORTAL still listening after teardown"
gw_clean || rapido_fail "lio_rbd: teardown left the above behind"
ceph_say "lio_rbd: torn down: iSCSI session, LIO tree, mapping"

# the bytes on the image, from a fresh mapping
lr_rbd=$(ceph_client map "$lr_spec") || rapido_fail "lio_rbd: cannot map $lr_spec again (see above)"
dd if="$lr_rbd" of=/tmp/lio-rbd.back bs=1M count="$LR_MIB" iflag=direct status=none ||
	rapido_fail "lio_rbd: read $lr_rbd"
cmp /tmp/lio-rbd.back /tmp/lio-rbd.data || rapido_fail "lio_rbd: $lr_spec does not hold what tcm_loop wrote"
dd if="$lr_rbd" of=/tmp/lio-rbd.back bs=1M skip=8 count=1 iflag=direct status=none ||
	rapido_fail "lio_rbd: read $lr_rbd"
cmp /tmp/lio-rbd.back /tmp/lio-rbd.isc || rapido_fail "lio_rbd: $lr_spec does not hold what iSCSI wrote"
ceph_say "lio_rbd: $lr_spec holds what tcm_loop and iSCSI wrote"
rm -f /tmp/lio-rbd.*
lr_teardown || rapido_fail "lio_rbd: unmapping $lr_rbd failed"
lr_rbd=
gw_clean || rapido_fail "lio_rbd: the second mapping left the above behind"
echo "rapido: lio_rbd: PASS"
