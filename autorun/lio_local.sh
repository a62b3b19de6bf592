#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lio_local: a LIO target inside the guest with three LUNs - fileio on a
# file, iblock on a zram disk, iblock on dm-delay over a zram disk - exported
# over iSCSI (portal 127.0.0.1:3260) and through tcm_loop. The same guest
# writes and reads back each LUN through tcm_loop's SCSI disks (raw, then
# ext4 on the dm-delay LUN), checks the bytes on the backing stores, and
# logs in over iSCSI as users do, with open-iscsi (iscsid started here,
# iscsiadm: discovery, login; the kernel's iscsi_tcp), to read LUN 0 and
# write LUN 1 through the session's SCSI disks; then logs out and stops
# iscsid. Then the tree is torn down and configfs must be as it was. Any
# failure exits 1 (./vm's exit status).
#
# The configfs layout is autorun/configfs/lio.spec, which the image carries
# (#@ files); applied with rapido-configfs, -D values from LIO_* below.
#@ description: LIO target: fileio, zram and dm-delay LUNs over tcm_loop and iSCSI (open-iscsi on 127.0.0.1:3260); I/O, ext4, teardown
#@ include: configfs zram
#@ files: autorun/configfs/lio.spec:/usr/share/rapido/configfs/lio.spec
#@ bins: cp mount umount mkfs.ext4 e2fsck dmsetup blockdev iscsid iscsiadm setsid
#@ bins-optional: lsscsi
#@ modules: target_core_mod target_core_file target_core_iblock tcm_loop
#@ modules: iscsi_target_mod dm_mod dm_delay sd_mod ext4 iscsi_tcp
#@ kconfig: CONFIG_TARGET_CORE=m CONFIG_TCM_FILEIO=m CONFIG_TCM_IBLOCK=m
#@ kconfig: CONFIG_LOOPBACK_TARGET=m CONFIG_ISCSI_TARGET=m CONFIG_BLK_DEV_DM=m CONFIG_DM_DELAY=m
#@ kconfig: CONFIG_BLK_DEV_SD=m CONFIG_EXT4_FS=m CONFIG_ISCSI_TCP=m
#@ kconfig-optional: CONFIG_SCSI=y CONFIG_SCSI_LOWLEVEL=y CONFIG_MD=y
#@ cpus: 1
#@ memory: 1G

LIO_SIZE=32M			# each backstore
LIO_DELAY_MS=5			# dm-delay, reads and writes
LIO_SPEC=/usr/share/rapido/configfs/lio.spec
LIO_FILEIO=/tmp/rapido-lio-fileio.img
LIO_MNT=/mnt/lio
LIO_WWN=naa.5001405e1a2b3c01	# tcm_loop target port (passed as loop_wwn)
LIO_IQN=iqn.2003-01.org.linux-iscsi.rapido:target	# passed as iqn
LIO_INITIATOR=iqn.2003-01.org.linux-iscsi.rapido:initiator
LIO_PORTAL=127.0.0.1:3260
CFS=/sys/kernel/config

rapido_on_fail lio_on_fail
rapido_on_fail rapido_kernel_tail
cfs_mount
cfs_tree "$CFS/target" > /tmp/lio.before

# backing devices: two zram disks, one under dm-delay
LIO_ZRAM=$(rapido-zram add -s "$LIO_SIZE") || rapido_fail "rapido-zram add"
LIO_ZRAM_DELAY=$(rapido-zram add -s "$LIO_SIZE") || rapido_fail "rapido-zram add"
sectors=$(blockdev --getsz "$LIO_ZRAM_DELAY") || rapido_fail "blockdev --getsz $LIO_ZRAM_DELAY"
# no udev in the guest: libdevmapper makes /dev/mapper/NAME itself
DM_DISABLE_UDEV=1 dmsetup create rapido_delay \
	--table "0 $sectors delay $LIO_ZRAM_DELAY 0 $LIO_DELAY_MS" ||
	rapido_fail "dmsetup create rapido_delay (delay over $LIO_ZRAM_DELAY)"
rapido_wait 30 test -e /dev/mapper/rapido_delay || rapido_fail "/dev/mapper/rapido_delay did not appear"
echo "rapido: lio_local: fileio $LIO_FILEIO, iblock $LIO_ZRAM, dm-delay ${LIO_DELAY_MS}ms over $LIO_ZRAM_DELAY"

lio_defs=(-D "fileio_path=$LIO_FILEIO" -D "fileio_size=$(( ${LIO_SIZE%M} << 20 ))"
	  -D "blockdev=$LIO_ZRAM" -D delaydev=/dev/mapper/rapido_delay -D "loop_wwn=$LIO_WWN"
	  -D "iqn=$LIO_IQN")
rapido-configfs "${lio_defs[@]}" --dry-run "$LIO_SPEC" > /dev/null ||
	rapido_fail "rapido-configfs --dry-run $LIO_SPEC (exit $?)"
rapido-configfs "${lio_defs[@]}" "$LIO_SPEC" || rapido_fail "rapido-configfs $LIO_SPEC (exit $?)"

net_tcp_listening 3260 || rapido_fail "iSCSI: nothing listens on $LIO_PORTAL"
echo "rapido: lio_local: iSCSI portal $LIO_PORTAL listening"

lio_sd "$LIO_WWN" 0 sd_fileio
lio_sd "$LIO_WWN" 1 sd_iblock
lio_sd "$LIO_WWN" 2 sd_delay
echo "rapido: lio_local: tcm_loop disks: fileio $sd_fileio, iblock $sd_iblock, dm-delay $sd_delay"
command -v lsscsi > /dev/null && lsscsi

# raw I/O through each SCSI disk, then the same bytes straight from its backing store
cfs_data_file /tmp/lio.0 4
cfs_data_file /tmp/lio.1 4
cfs_data_file /tmp/lio.2 1
cfs_rw_check "$sd_fileio" /tmp/lio.0 "LUN 0 (fileio)"
cfs_rw_check "$sd_iblock" /tmp/lio.1 "LUN 1 (iblock)"
cfs_rw_check "$sd_delay" /tmp/lio.2 "LUN 2 (dm-delay)"
cmp -n $((4 << 20)) /tmp/lio.0 "$LIO_FILEIO" || rapido_fail "fileio: $LIO_FILEIO does not hold what LUN 0 was written"
for pair in "/tmp/lio.1 $LIO_ZRAM 4" "/tmp/lio.2 $LIO_ZRAM_DELAY 1"; do
	set -- $pair
	dd if="$2" of=/tmp/lio.raw bs=1M count="$3" iflag=direct status=none || rapido_fail "read $2"
	cmp /tmp/lio.raw "$1" || rapido_fail "$2 does not hold what was written through its LUN"
done
rm -f /tmp/lio.raw
echo "rapido: lio_local: the backing file and zram disks hold what the LUNs were written"

# the same backstores through open-iscsi: discovery, login, LUN 0 read
# (what tcm_loop wrote) and LUN 1 written through the session's disks, the
# write found through tcm_loop's disk; then logout and iscsid stopped
lio_iscsid_start "$LIO_INITIATOR" || rapido_fail "iscsid did not start (see above)"
iscsiadm -m discovery -t sendtargets -p "$LIO_PORTAL" > /tmp/lio.disc ||
	rapido_fail "iscsiadm -m discovery -t sendtargets -p $LIO_PORTAL (exit $?)"
cat /tmp/lio.disc
[[ $(< /tmp/lio.disc) == *"$LIO_PORTAL,1 $LIO_IQN"* ]] ||
	rapido_fail "iSCSI: discovery on $LIO_PORTAL did not find $LIO_IQN"
iscsiadm -m node -T "$LIO_IQN" -p "$LIO_PORTAL" --login ||
	rapido_fail "iscsiadm -m node -T $LIO_IQN -p $LIO_PORTAL --login (exit $?)"
iscsiadm -m session || rapido_fail "iscsiadm -m session (exit $?)"
rapido_wait 30 lio_iscsi_sd 0 isd0 || rapido_fail "iSCSI: no SCSI disk for LUN 0 in the session"
rapido_wait 30 lio_iscsi_sd 1 isd1 || rapido_fail "iSCSI: no SCSI disk for LUN 1 in the session"
dd if="$isd0" of=/tmp/lio.isc0 bs=1M count=4 iflag=direct status=none || rapido_fail "iSCSI: read $isd0"
cmp /tmp/lio.isc0 /tmp/lio.0 || rapido_fail "iSCSI: LUN 0 ($isd0) reads other data than tcm_loop wrote"
cfs_data_file /tmp/lio.isc1 1
dd if=/tmp/lio.isc1 of="$isd1" bs=1M seek=8 oflag=direct conv=fsync status=none ||
	rapido_fail "iSCSI: write $isd1"
dd if="$isd1" of=/tmp/lio.back bs=1M skip=8 count=1 iflag=direct status=none ||
	rapido_fail "iSCSI: read back $isd1"
cmp /tmp/lio.back /tmp/lio.isc1 || rapido_fail "iSCSI: LUN 1 ($isd1) read back other data than written"
dd if="$sd_iblock" of=/tmp/lio.back bs=1M skip=8 count=1 iflag=direct status=none ||
	rapido_fail "read $sd_iblock"
cmp /tmp/lio.back /tmp/lio.isc1 || rapido_fail "$sd_iblock does not hold what iSCSI wrote to LUN 1"
iscsiadm -m node -T "$LIO_IQN" -p "$LIO_PORTAL" --logout ||
	rapido_fail "iscsiadm -m node -T $LIO_IQN -p $LIO_PORTAL --logout (exit $?)"
for d in "$isd0" "$isd1"; do
	rapido_wait 30 test ! -e "/sys/block/${d#/dev/}" || rapido_fail "$d still there after the logout"
done
iscsiadm -m node -T "$LIO_IQN" -p "$LIO_PORTAL" -o delete || rapido_fail "iscsiadm -m node -o delete"
lio_iscsid_stop || rapido_fail "iscsid (pid $LIO_ISCSID) did not stop"
rm -f /tmp/lio.disc /tmp/lio.isc[01] /tmp/lio.back
echo "rapido: lio_local: iSCSI (open-iscsi): logged in, LUN 0 read through $isd0, LUN 1 written and read through $isd1; $sd_iblock shows the write; logged out, iscsid stopped"

# a filesystem on the dm-delay LUN: write, unmount, mount again, read back
mkfs.ext4 -q -F -E nodiscard "$sd_delay" || rapido_fail "mkfs.ext4 $sd_delay"
mkdir -p "$LIO_MNT"
mount -t ext4 "$sd_delay" "$LIO_MNT" || rapido_fail "mount $sd_delay"
cfs_data_file /tmp/lio.ext4 2
cp /tmp/lio.ext4 "$LIO_MNT/data" || rapido_fail "cp to $LIO_MNT"
umount "$LIO_MNT" || rapido_fail "umount $LIO_MNT"
e2fsck -f -n "$sd_delay" > /tmp/lio.fsck 2>&1 || { cat /tmp/lio.fsck; rapido_fail "e2fsck $sd_delay"; }
mount -t ext4 -o ro "$sd_delay" "$LIO_MNT" || rapido_fail "mount $sd_delay again"
cmp "$LIO_MNT/data" /tmp/lio.ext4 || rapido_fail "ext4 on $sd_delay: file read back differs"
umount "$LIO_MNT" || rapido_fail "umount $LIO_MNT"
rm -f /tmp/lio.[0-9] /tmp/lio.ext4
echo "rapido: lio_local: ext4 on $sd_delay: 2 MiB file written, remounted, read back"

# teardown through the writer, twice (the second finds everything gone)
rapido-configfs "${lio_defs[@]}" --teardown "$LIO_SPEC" || rapido_fail "teardown (exit $?)"
rapido-configfs "${lio_defs[@]}" --teardown "$LIO_SPEC" || rapido_fail "second teardown (exit $?)"
for d in "$sd_fileio" "$sd_iblock" "$sd_delay"; do
	rapido_wait 30 test ! -e "/sys/block/${d#/dev/}" || rapido_fail "$d still there after teardown"
done
cfs_same_tree lio_local /tmp/lio.before "$CFS/target" || rapido_fail "configfs not clean after teardown"
cfs_empty_dir "$CFS/target/loopback" && cfs_empty_dir "$CFS/target/iscsi" ||
	rapido_fail "fabric items left after teardown"
net_tcp_listening 3260 && rapido_fail "iSCSI: $LIO_PORTAL still listening after teardown"

DM_DISABLE_UDEV=1 dmsetup remove rapido_delay || rapido_fail "dmsetup remove rapido_delay"
rapido-zram remove "$LIO_ZRAM_DELAY" || rapido_fail "rapido-zram remove $LIO_ZRAM_DELAY"
rapido-zram remove "$LIO_ZRAM" || rapido_fail "rapido-zram remove $LIO_ZRAM"
rm -f "$LIO_FILEIO" /tmp/lio.before
echo "rapido: lio_local: PASS"
