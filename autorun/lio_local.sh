#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lio_local: a LIO target inside the guest with three LUNs - fileio on a
# file, iblock on a zram disk, iblock on dm-delay over a zram disk - exported
# over iSCSI (portal 127.0.0.1:3260) and through tcm_loop. The same guest
# writes and reads back each LUN through tcm_loop's SCSI disks (raw, then
# ext4 on the dm-delay LUN), checks the bytes on the backing stores, and
# logs in over iSCSI (a few lines of bash speaking the protocol: there is
# no open-iscsi in the image) to read LUN 0 and write LUN 1. Then the tree
# is torn down and configfs must be as it was. Any failure exits 1 (./vm's
# exit status).
#
# The configfs layout is autorun/configfs/lio.spec, embedded below (the
# image carries only the profile; tests/boot/lio-local.sh checks that the
# two are the same). Applied with rapido-configfs; -D values come from
# LIO_* below.
#@ description: LIO target: fileio, zram and dm-delay LUNs over tcm_loop and iSCSI (127.0.0.1:3260); I/O, ext4, teardown
#@ bins: cat cp mkdir rm sleep find sort dd cmp stat od timeout mount umount mkfs.ext4 e2fsck dmsetup blockdev
#@ bins-optional: diff dmesg lsscsi
#@ modules: configfs target_core_mod target_core_file target_core_iblock tcm_loop
#@ modules: iscsi_target_mod dm_mod dm_delay zram sd_mod ext4
#@ helpers: configfs zram
#@ kconfig: CONFIG_CONFIGFS_FS CONFIG_TARGET_CORE CONFIG_TCM_FILEIO CONFIG_TCM_IBLOCK
#@ kconfig: CONFIG_LOOPBACK_TARGET CONFIG_ISCSI_TARGET CONFIG_BLK_DEV_DM CONFIG_DM_DELAY
#@ kconfig: CONFIG_ZRAM CONFIG_BLK_DEV_SD CONFIG_EXT4_FS
#@ cpus: 1
#@ memory: 1G

LIO_SIZE=32M			# each backstore
LIO_DELAY_MS=5			# dm-delay, reads and writes
LIO_SPEC=/tmp/lio.spec
LIO_FILEIO=/tmp/rapido-lio-fileio.img
LIO_MNT=/mnt/lio
LIO_WWN=naa.5001405e1a2b3c01	# tcm_loop target port (passed as loop_wwn)
LIO_IQN=iqn.2003-01.org.linux-iscsi.rapido:target	# passed as iqn
LIO_INITIATOR=iqn.2003-01.org.linux-iscsi.rapido:initiator
CFS=/sys/kernel/config

cat > "$LIO_SPEC" <<'SPEC'
# SPDX-License-Identifier: GPL-2.0
# lio.spec: LIO target: a fileio backstore and two iblock backstores (a
# block device, and a dm-delay device), exported through tcm_loop (local
# SCSI disks) and iSCSI (TPG 1, portal 127.0.0.1:3260), as LUNs 0, 1, 2.
#
# Apply:     rapido-configfs lio.spec [-D blockdev=/dev/zram1 -D delaydev=...]
# Tear down: rapido-configfs --teardown lio.spec
# Check:     rapido-configfs --dry-run lio.spec
#
# Needs: configfs mounted; modules target_core_mod, target_core_file,
# target_core_iblock, tcm_loop, iscsi_target_mod; ${blockdev} and
# ${delaydev} set up (a zram disk with its disksize written; dmsetup
# create NAME --table "0 SECTORS delay DEV 0 MS") and lo up (for the
# iSCSI portal) before this runs. Used and checked on Debian's 6.1 kernel
# by autorun/lio_local.sh.
#
# Layout from Documentation/target/ and rtslib (targetcli). Kernel rules:
#  - each value is one write(2) (rapido-configfs does that);
#  - a backstore's `enable` takes only "1" (there is no undo: rmdir
#    disables it), and it must be enabled before a LUN links to it, or
#    the link fails with ENODEV ("se_device not configured yet, cannot
#    port link");
#  - tcm_loop: write the nexus before linking LUNs, or no SCSI disk appears;
#    each LUN linked into a tcm_loop TPG becomes a SCSI disk at once
#    (tpgt_1/address holds its H:C:T);
#  - an iSCSI portal is IP:PORT (EINVAL without the port); LIO binds it
#    with IP_FREEBIND, so an address the host lacks is not refused;
#  - a new iSCSI session gets a unit attention (REPORTED LUNS DATA HAS
#    CHANGED) on LUNs mapped after others: initiators retry;
#  - link targets are absolute (rapido-configfs makes them so);
#  - teardown runs in reverse: --teardown walks this file backwards.

set fileio_path /tmp/rapido-lio-fileio.img
set fileio_size 67108864
set blockdev /dev/zram0
set delaydev /dev/mapper/rapido_delay
set loop_wwn naa.5001405e1a2b3c01
set loop_initiator naa.5001405e1a2b3c02
set iqn iqn.2003-01.org.linux-iscsi.rapido:target
set portal 127.0.0.1:3260

set fileio target/core/fileio_0/rapido_fileio
set iblock target/core/iblock_0/rapido_iblock
set delay target/core/iblock_0/rapido_delay
set loop target/loopback/${loop_wwn}/tpgt_1
set tpg target/iscsi/${iqn}/tpgt_1

# target/core appears when target_core_mod is loaded.
wait target/core

# Backstores. The HBA directories (fileio_0, iblock_0) may be shared with
# other setups: ensure makes them if needed and teardown keeps them in use.
ensure target/core/fileio_0
mkdir ${fileio}
write ${fileio}/control fd_dev_name=${fileio_path},fd_dev_size=${fileio_size}
write ${fileio}/enable 1

ensure target/core/iblock_0
mkdir ${iblock}
write ${iblock}/control udev_path=${blockdev}
write ${iblock}/enable 1
mkdir ${delay}
write ${delay}/control udev_path=${delaydev}
write ${delay}/enable 1

# tcm_loop: a local SCSI host; the LUNs show up as /dev/sd*.
ensure target/loopback
mkdir target/loopback/${loop_wwn}
mkdir ${loop}
write ${loop}/nexus ${loop_initiator}
wait ${loop}/lun			# default group, made with tpgt_1
mkdir ${loop}/lun/lun_0
link ${fileio} ${loop}/lun/lun_0/rapido_fileio
mkdir ${loop}/lun/lun_1
link ${iblock} ${loop}/lun/lun_1/rapido_iblock
mkdir ${loop}/lun/lun_2
link ${delay} ${loop}/lun/lun_2/rapido_delay

# iSCSI: demo mode (any initiator, no CHAP, read-write), enabled last.
ensure target/iscsi
mkdir target/iscsi/${iqn}
mkdir ${tpg}
wait ${tpg}/np
mkdir ${tpg}/np/${portal}
wait ${tpg}/lun
mkdir ${tpg}/lun/lun_0
link ${fileio} ${tpg}/lun/lun_0/rapido_fileio
mkdir ${tpg}/lun/lun_1
link ${iblock} ${tpg}/lun/lun_1/rapido_iblock
mkdir ${tpg}/lun/lun_2
link ${delay} ${tpg}/lun/lun_2/rapido_delay
wait ${tpg}/attrib
write ${tpg}/attrib/authentication 0
write ${tpg}/attrib/generate_node_acls 1
write ${tpg}/attrib/demo_mode_write_protect 0
write ${tpg}/attrib/cache_dynamic_acls 1
write ${tpg}/enable 1 undo 0
SPEC

# lio_sd LUN: the SCSI disk tcm_loop made for LUN (wait for it)
lio_sd() {
	local addr dev d

	addr=$(cat "$CFS/target/loopback/$LIO_WWN/tpgt_1/address") ||
		cfs_fail "tcm_loop: no SCSI address for $LIO_WWN"
	d=/sys/bus/scsi/devices/$addr:$1/block
	cfs_wait "$d" || cfs_fail "tcm_loop: LUN $1: no SCSI disk at $addr:$1 (sd_mod loaded?)"
	for dev in "$d"/*; do
		[ -e "$dev" ] && { echo "/dev/${dev##*/}"; return 0; }
	done
	cfs_fail "tcm_loop: LUN $1: no block device in $d"
}

# lio_listening IP PORT: is a TCP socket listening there (/proc/net/tcp)?
lio_listening() {
	local want laddr st o1 o2 o3 o4 _

	IFS=. read -r o1 o2 o3 o4 <<< "$1"
	want=$(printf '%02X%02X%02X%02X:%04X' "$o4" "$o3" "$o2" "$o1" "$2")
	while read -r _ laddr _ st _; do
		[ "$laddr" = "$want" ] && [ "$st" = 0A ] && return 0
	done < /proc/net/tcp
	return 1
}

# --- a minimal iSCSI initiator (RFC 7143): log in to the portal, read and
# write a block, log out. Enough to show that the iSCSI side serves the same
# backstores; no open-iscsi in the image, only bash (/dev/tcp), dd and od.
# The connection is fd 3. PDU headers are spelt in hex, 48 bytes.

# isc_hex HEX...: the bytes HEX spells (blanks ignored)
isc_hex() {
	local h=${*//[[:space:]]/} f='' i

	for ((i = 0; i < ${#h}; i += 2)); do
		f+="\\x${h:i:2}"
	done
	printf "$f"
}

# isc_send HEADER-HEX [DATA-FILE]: send a PDU, its data padded to 4 bytes
isc_send() {
	local n pad

	{
		isc_hex "$1"
		if [ -n "${2:-}" ]; then
			cat "$2"
			n=$(stat -c %s "$2")
			for ((pad = (4 - n % 4) % 4; pad > 0; pad--)); do
				printf '\0'
			done
		fi
	} > /tmp/isc.pdu
	cat /tmp/isc.pdu >&3
}

# isc_recv: read a PDU: header bytes (decimal) in ISC_H, data in /tmp/isc.data
isc_recv() {
	local n

	timeout 20 dd bs=48 count=1 iflag=fullblock status=none <&3 > /tmp/isc.hdr || return 1
	ISC_H=($(od -An -v -tu1 /tmp/isc.hdr))
	[ ${#ISC_H[@]} = 48 ] || return 1
	n=$((ISC_H[5] << 16 | ISC_H[6] << 8 | ISC_H[7]))
	: > /tmp/isc.data
	((n)) || return 0
	timeout 20 dd bs=$(((n + 3) & ~3)) count=1 iflag=fullblock status=none <&3 > /tmp/isc.raw &&
		dd if=/tmp/isc.raw of=/tmp/isc.data bs="$n" count=1 status=none
}

# isc_u32 OFFSET: the big-endian 32-bit field at OFFSET of ISC_H
isc_u32() {
	echo $((ISC_H[$1] << 24 | ISC_H[$1 + 1] << 16 | ISC_H[$1 + 2] << 8 | ISC_H[$1 + 3]))
}

# isc_login INITIATOR TARGET: log in straight to full feature phase (no
# authentication: the TPG's demo mode lets any initiator in)
isc_login() {
	local keys

	printf '%s\0' "InitiatorName=$1" "TargetName=$2" SessionType=Normal \
		HeaderDigest=None DataDigest=None MaxRecvDataSegmentLength=262144 \
		ErrorRecoveryLevel=0 InitialR2T=Yes ImmediateData=Yes MaxBurstLength=262144 \
		FirstBurstLength=65536 MaxConnections=1 DataPDUInOrder=Yes \
		DataSequenceInOrder=Yes DefaultTime2Wait=2 DefaultTime2Retain=0 \
		MaxOutstandingR2T=1 IFMarker=No OFMarker=No > /tmp/isc.keys
	# Login: immediate, T=1, CSG=1 (operational), NSG=3 (full feature);
	# ISID 00023d000001, TSIH 0, ITT 0, CID 1, CmdSN 1, ExpStatSN 0
	isc_send "43 87 0000 00 $(printf %06x "$(stat -c %s /tmp/isc.keys)")
		  00023d000001 0000 00000000 0001 0000 00000001 00000000 $(printf %032d 0)" \
		/tmp/isc.keys
	isc_recv || { echo "iSCSI: no login response" >&2; return 1; }
	mapfile -d '' keys < /tmp/isc.data
	echo "rapido: lio_local: iSCSI login response: ${keys[*]}"
	if ((ISC_H[0] != 0x23 || ISC_H[36] || ISC_H[37])); then
		echo "iSCSI: login failed: opcode ${ISC_H[0]}, status class ${ISC_H[36]} detail ${ISC_H[37]}" >&2
		return 1
	fi
	if ((!(ISC_H[1] & 0x80) || (ISC_H[1] & 3) != 3)); then
		echo "iSCSI: the target did not go to full feature phase (flags ${ISC_H[1]})" >&2
		return 1
	fi
	ISC_STATSN=$(isc_u32 24)
	ISC_CMDSN=$(isc_u32 28)
	ISC_ITT=0
}

# isc_cmd LUN CDB-HEX LENGTH read|write [DATA-FILE]: one SCSI command;
# read data in /tmp/isc.in, sense (if any) as "KEY/ASC/ASCQ" in ISC_SENSE.
# Returns the SCSI status (0: GOOD, 2: CHECK CONDITION), 255 on a protocol
# error.
isc_cmd() {
	local flags=c1 dlen=0 cdb=${2//[[:space:]]/} sense

	ISC_ITT=$((ISC_ITT + 1))
	ISC_SENSE=
	# F, R or W, simple task attribute; write data goes as immediate data
	[ "$4" = write ] && flags=a1 && dlen=$(stat -c %s "$5")
	isc_send "01 $flags 0000 00 $(printf %06x "$dlen") 00$(printf %02x "$1")000000000000
		  $(printf '%08x %08x %08x %08x' $ISC_ITT "$3" $ISC_CMDSN $((ISC_STATSN + 1)))
		  $cdb$(printf %0$((32 - ${#cdb}))d 0)" ${5:-}
	ISC_CMDSN=$((ISC_CMDSN + 1))
	: > /tmp/isc.in
	for (( ; ; )); do
		isc_recv || return 255
		case $((ISC_H[0] & 0x3f)) in
		$((0x25)))	# Data-In; S: the status comes with it
			cat /tmp/isc.data >> /tmp/isc.in
			if ((ISC_H[1] & 1)); then
				ISC_STATSN=$(isc_u32 24)
				return "${ISC_H[3]}"
			fi
			;;
		$((0x21)))	# SCSI Response: data is SenseLength (2 bytes), sense
			ISC_STATSN=$(isc_u32 24)
			((ISC_H[2] == 0)) || return 255
			sense=($(od -An -v -tu1 /tmp/isc.data))
			((${#sense[@]} > 15)) &&
				ISC_SENSE=$(printf '%x/%02x/%02x' $((sense[4] & 15)) "${sense[14]}" "${sense[15]}")
			return "${ISC_H[3]}"
			;;
		$((0x20)))	# NOP-In
			;;
		*)
			echo "iSCSI: unexpected PDU, opcode ${ISC_H[0]}" >&2
			return 255
			;;
		esac
	done
}

# isc_scsi ARGS...: isc_cmd, again after a unit attention (sense key 6) as
# an initiator does: a new session gets "reported LUNs data has changed"
# for LUNs mapped after others
isc_scsi() {
	local i rc

	for ((i = 0; i < 3; i++)); do
		isc_cmd "$@"
		rc=$?
		[ $rc = 2 ] && [ "${ISC_SENSE%%/*}" = 6 ] || break
		echo "rapido: lio_local: iSCSI LUN $1: unit attention $ISC_SENSE, again"
	done
	[ $rc = 0 ] || echo "iSCSI: LUN $1: status $rc${ISC_SENSE:+, sense $ISC_SENSE}" >&2
	return $rc
}

# isc_logout: close the session (immediate, reason 0)
isc_logout() {
	ISC_ITT=$((ISC_ITT + 1))
	isc_send "46 80 0000 00 000000 0000000000000000 $(printf %08x $ISC_ITT) 0001 0000
		  $(printf '%08x %08x' $ISC_CMDSN $((ISC_STATSN + 1))) $(printf %032d 0)"
	isc_recv && ((ISC_H[0] == 0x26 && ISC_H[2] == 0))
}

cfs_mount
cfs_tree "$CFS/target" > /tmp/lio.before

# backing devices: two zram disks, one under dm-delay
LIO_ZRAM=$(rapido-zram add -s "$LIO_SIZE") || cfs_fail "rapido-zram add"
LIO_ZRAM_DELAY=$(rapido-zram add -s "$LIO_SIZE") || cfs_fail "rapido-zram add"
sectors=$(blockdev --getsz "$LIO_ZRAM_DELAY") || cfs_fail "blockdev --getsz $LIO_ZRAM_DELAY"
# no udev in the guest: libdevmapper makes /dev/mapper/NAME itself
DM_DISABLE_UDEV=1 dmsetup create rapido_delay \
	--table "0 $sectors delay $LIO_ZRAM_DELAY 0 $LIO_DELAY_MS" ||
	cfs_fail "dmsetup create rapido_delay (delay over $LIO_ZRAM_DELAY)"
cfs_wait /dev/mapper/rapido_delay || cfs_fail "/dev/mapper/rapido_delay did not appear"
echo "rapido: lio_local: fileio $LIO_FILEIO, iblock $LIO_ZRAM, dm-delay ${LIO_DELAY_MS}ms over $LIO_ZRAM_DELAY"

lio_defs=(-D "fileio_path=$LIO_FILEIO" -D "fileio_size=$(( ${LIO_SIZE%M} << 20 ))"
	  -D "blockdev=$LIO_ZRAM" -D delaydev=/dev/mapper/rapido_delay -D "loop_wwn=$LIO_WWN"
	  -D "iqn=$LIO_IQN")
rapido-configfs "${lio_defs[@]}" --dry-run "$LIO_SPEC" > /dev/null ||
	cfs_fail "rapido-configfs --dry-run $LIO_SPEC (exit $?)"
rapido-configfs "${lio_defs[@]}" "$LIO_SPEC" || cfs_fail "rapido-configfs $LIO_SPEC (exit $?)"

lio_listening 127.0.0.1 3260 || cfs_fail "iSCSI: nothing listens on 127.0.0.1:3260"
echo "rapido: lio_local: iSCSI portal 127.0.0.1:3260 listening"

sd_fileio=$(lio_sd 0) || exit 1
sd_iblock=$(lio_sd 1) || exit 1
sd_delay=$(lio_sd 2) || exit 1
echo "rapido: lio_local: tcm_loop disks: fileio $sd_fileio, iblock $sd_iblock, dm-delay $sd_delay"
command -v lsscsi > /dev/null && lsscsi

# raw I/O through each SCSI disk, then the same bytes straight from its backing store
cfs_data_file /tmp/lio.0 4
cfs_data_file /tmp/lio.1 4
cfs_data_file /tmp/lio.2 1
cfs_rw_check "$sd_fileio" /tmp/lio.0 "LUN 0 (fileio)"
cfs_rw_check "$sd_iblock" /tmp/lio.1 "LUN 1 (iblock)"
cfs_rw_check "$sd_delay" /tmp/lio.2 "LUN 2 (dm-delay)"
cmp -n $((4 << 20)) /tmp/lio.0 "$LIO_FILEIO" || cfs_fail "fileio: $LIO_FILEIO does not hold what LUN 0 was written"
for pair in "/tmp/lio.1 $LIO_ZRAM 4" "/tmp/lio.2 $LIO_ZRAM_DELAY 1"; do
	set -- $pair
	dd if="$2" of=/tmp/lio.raw bs=1M count="$3" iflag=direct status=none || cfs_fail "read $2"
	cmp /tmp/lio.raw "$1" || cfs_fail "$2 does not hold what was written through its LUN"
done
rm -f /tmp/lio.raw
echo "rapido: lio_local: the backing file and zram disks hold what the LUNs were written"

# the same backstores over iSCSI: read LUN 0 (fileio, 512-byte blocks), write
# LUN 1 (iblock, 4096-byte blocks) and find that through tcm_loop's disk
exec 3<> /dev/tcp/127.0.0.1/3260 || cfs_fail "iSCSI: connect to 127.0.0.1:3260"
isc_login "$LIO_INITIATOR" "$LIO_IQN" || cfs_fail "iSCSI: login to $LIO_IQN"
isc_scsi 0 "28 00 00000000 00 0008 00" 4096 read || cfs_fail "iSCSI: READ(10) LUN 0: status $?"
cmp -n 4096 /tmp/isc.in /tmp/lio.0 || cfs_fail "iSCSI: LUN 0 read other data than tcm_loop wrote"
dd if=/dev/urandom of=/tmp/isc.out bs=4096 count=1 status=none
isc_scsi 1 "2a 00 00000100 00 0001 00" 4096 write /tmp/isc.out ||
	cfs_fail "iSCSI: WRITE(10) LUN 1: status $?"
isc_scsi 1 "28 00 00000100 00 0001 00" 4096 read || cfs_fail "iSCSI: READ(10) LUN 1: status $?"
cmp /tmp/isc.in /tmp/isc.out || cfs_fail "iSCSI: LUN 1 read back other data than written"
isc_logout || cfs_fail "iSCSI: logout"
exec 3>&-
dd if="$sd_iblock" of=/tmp/isc.back bs=4096 skip=256 count=1 iflag=direct status=none
cmp /tmp/isc.back /tmp/isc.out || cfs_fail "$sd_iblock does not hold what iSCSI wrote to LUN 1"
rm -f /tmp/isc.*
echo "rapido: lio_local: iSCSI: logged in, LUN 0 read, LUN 1 written and read; $sd_iblock shows the write"

# a filesystem on the dm-delay LUN: write, unmount, mount again, read back
mkfs.ext4 -q -F -E nodiscard "$sd_delay" || cfs_fail "mkfs.ext4 $sd_delay"
mkdir -p "$LIO_MNT"
mount -t ext4 "$sd_delay" "$LIO_MNT" || cfs_fail "mount $sd_delay"
cfs_data_file /tmp/lio.ext4 2
cp /tmp/lio.ext4 "$LIO_MNT/data" || cfs_fail "cp to $LIO_MNT"
umount "$LIO_MNT" || cfs_fail "umount $LIO_MNT"
e2fsck -f -n "$sd_delay" > /tmp/lio.fsck 2>&1 || { cat /tmp/lio.fsck; cfs_fail "e2fsck $sd_delay"; }
mount -t ext4 -o ro "$sd_delay" "$LIO_MNT" || cfs_fail "mount $sd_delay again"
cmp "$LIO_MNT/data" /tmp/lio.ext4 || cfs_fail "ext4 on $sd_delay: file read back differs"
umount "$LIO_MNT" || cfs_fail "umount $LIO_MNT"
rm -f /tmp/lio.[0-9] /tmp/lio.ext4
echo "rapido: lio_local: ext4 on $sd_delay: 2 MiB file written, remounted, read back"

# teardown through the writer, twice (the second finds everything gone)
rapido-configfs "${lio_defs[@]}" --teardown "$LIO_SPEC" || cfs_fail "teardown (exit $?)"
rapido-configfs "${lio_defs[@]}" --teardown "$LIO_SPEC" || cfs_fail "second teardown (exit $?)"
for d in "$sd_fileio" "$sd_iblock" "$sd_delay"; do
	cfs_wait_gone "/sys/block/${d#/dev/}" || cfs_fail "$d still there after teardown"
done
cfs_same_tree lio_local /tmp/lio.before "$CFS/target" || cfs_fail "configfs not clean after teardown"
cfs_empty_dir "$CFS/target/loopback" && cfs_empty_dir "$CFS/target/iscsi" ||
	cfs_fail "fabric items left after teardown"
lio_listening 127.0.0.1 3260 && cfs_fail "iSCSI: 127.0.0.1:3260 still listening after teardown"

DM_DISABLE_UDEV=1 dmsetup remove rapido_delay || cfs_fail "dmsetup remove rapido_delay"
rapido-zram remove "$LIO_ZRAM_DELAY" || cfs_fail "rapido-zram remove $LIO_ZRAM_DELAY"
rapido-zram remove "$LIO_ZRAM" || cfs_fail "rapido-zram remove $LIO_ZRAM"
rm -f "$LIO_FILEIO" "$LIO_SPEC" /tmp/lio.before
echo "rapido: lio_local: PASS"
