#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# usb_rbd: the Ceph USB storage gateway in one VM. The kernel rbd client
# maps CEPH_RBD_POOL/CEPH_RBD_IMAGE; with USB_RBD_CRYPT=1 dm-crypt (LUKS2)
# opens it; a USB mass-storage gadget (autorun/configfs/usb-msc.spec,
# through rapido-configfs) exports that disk on dummy_hcd's UDC, and the
# same guest's usb-storage, the USB host side, writes a pattern to the disk
# it sees and reads it back. Then teardown in order - the host side lets
# go of the disk, the gadget is unbound and removed, the crypt device
# closed, the image unmapped - and the image is mapped again to prove the
# bytes are on it: the pattern as written, or with dm-crypt the pattern's
# marker nowhere in the raw image and the pattern back once the crypt
# device is opened again. Exit 0 only when all of that held and
# configfs, device-mapper and the rbd mappings are as they were; any
# failure tears down what was set up (in the same order) and exits 1.
#
# The image is overwritten: its first 4 MiB (after the LUKS header with
# crypt), and with USB_RBD_BENCH the bench regions. Give it its own image:
#   rbd create rbd/usb --size 64M --image-feature layering
#
# rapido.conf (or environment) keys:
#   CEPH_CONF, CEPH_KEYRING, CEPH_USER, CEPH_TIMEOUT   as for cephfs
#   CEPH_RBD_POOL, CEPH_RBD_IMAGE   the image (default rbd/rapido)
#   USB_RBD_CRYPT   1: dm-crypt between the image and the gadget (default 0)
#   USB_RBD_KEY     the LUKS passphrase; an image that holds a LUKS header
#                   is opened with it (a wrong one fails), any other is
#                   formatted. Unset: a random key, the image formatted.
#   USB_RBD_UDC     the UDC to bind to (default: the first, dummy_hcd's)
#   USB_RBD_BENCH   MiB: also time O_DIRECT writes and reads of that much
#                   through the USB disk and straight to the rbd device
#                   (bench/usb-rbd); the image needs 24 MiB more than that
#@ description: Ceph USB storage gateway: rbd image (dm-crypt with USB_RBD_CRYPT=1) as a USB mass-storage gadget on dummy_hcd; I/O from usb-storage, bytes proven on the image, ordered teardown
#@ include: ceph configfs
#@ files: autorun/configfs/usb-msc.spec:/usr/share/rapido/configfs/usb-msc.spec
#@ bins: readlink blockdev yes head grep timeout
#@ bins-optional: cryptsetup dmsetup diff lsscsi
#@ modules: rbd libcomposite usb_f_mass_storage dummy_hcd usb_storage sd_mod
#@ modules-optional: dm_mod dm_crypt xts aesni_intel algif_skcipher
#@ kconfig: CONFIG_BLK_DEV_RBD=m CONFIG_USB_CONFIGFS=m CONFIG_USB_CONFIGFS_MASS_STORAGE
#@ kconfig: CONFIG_USB_DUMMY_HCD=m CONFIG_USB_STORAGE=m CONFIG_BLK_DEV_SD=m
#@ kconfig-optional: CONFIG_USB_SUPPORT=y CONFIG_USB=m CONFIG_USB_GADGET=m CONFIG_SCSI=y
#@ kconfig-optional: CONFIG_BLK_DEV=y CONFIG_MD=y CONFIG_BLK_DEV_DM=m CONFIG_DM_CRYPT=m
#@ kconfig-optional: CONFIG_CRYPTO_XTS=m CONFIG_CRYPTO_USER_API_SKCIPHER=m
#@ conf-optional: CEPH_RBD_POOL CEPH_RBD_IMAGE USB_RBD_CRYPT USB_RBD_KEY USB_RBD_UDC USB_RBD_BENCH
#@ conf-type: USB_RBD_CRYPT enum 0,1
#@ conf-type: USB_RBD_BENCH uint 1-1048576
#@ secret: USB_RBD_KEY
#@ cpus: 1
#@ memory: 1G

UR_SPEC=/usr/share/rapido/configfs/usb-msc.spec
UR_CRYPT_NAME=usb_rbd
UR_KEYFILE=/tmp/usb-rbd.key
UR_MIB=4			# the pattern
UR_BENCH_USB_SEEK=8		# MiB into the USB disk
UR_BENCH_RBD_SEEK=24		# MiB into the rbd device: past LUKS header and pattern
ur_spec=${CEPH_RBD_POOL:-rbd}/${CEPH_RBD_IMAGE:-rapido}
ur_crypt=${USB_RBD_CRYPT:-0}
ur_defs=()
export DM_DISABLE_UDEV=1	# no udev in the guest: libdevmapper makes the nodes

case $ur_crypt in
0 | 1) ;;
*) rapido_fail "usb_rbd: USB_RBD_CRYPT='$ur_crypt': expected 0 or 1" ;;
esac
case ${USB_RBD_BENCH:-} in
'') ;;
*[!0-9]* | 0*) rapido_fail "usb_rbd: USB_RBD_BENCH='$USB_RBD_BENCH': expected a number of MiB" ;;
esac
if [ "$ur_crypt" = 1 ]; then
	for b in cryptsetup dmsetup; do
		command -v $b > /dev/null ||
			rapido_fail "usb_rbd: USB_RBD_CRYPT=1 needs $b in the image (apt-get install cryptsetup-bin dmsetup, then ./cut again)"
	done
fi

# ur_teardown: undo whatever of the setup is there, in order: the host
# side lets go of the disk, the gadget is unbound and removed, the crypt
# device closed, the image unmapped. Quiet about what is not there.
ur_teardown() {
	local rc=0

	if [ -n "${sd:-}" ] && [ -e "/sys/block/${sd#/dev/}" ]; then
		echo 1 > "/sys/block/${sd#/dev/}/device/delete" || rc=1
		rapido_wait 30 test ! -e "/sys/block/${sd#/dev/}" || rc=1
	fi
	if [ ${#ur_defs[@]} -gt 0 ]; then
		rapido-configfs "${ur_defs[@]}" --teardown "$UR_SPEC" || rc=1
		[ -z "${usbdev:-}" ] || rapido_wait 30 test ! -e "$usbdev" || rc=1
	fi
	if [ -e "/dev/mapper/$UR_CRYPT_NAME" ]; then
		cryptsetup close "$UR_CRYPT_NAME" || rc=1
	fi
	if [ -n "${ur_rbd:-}" ] && [ -e "$ur_rbd" ]; then
		rapido-ceph unmap "$ur_rbd" || rc=1
	fi
	return $rc
}

# ur_on_fail: a failure tears down the setup, and says whether that left
# anything behind
ur_on_fail() {
	echo "rapido: usb_rbd: tearing down after the failure" >&2
	ur_teardown
	rm -f "$UR_KEYFILE"
	gw_clean || echo "rapido: usb_rbd: teardown after the failure left the above" >&2
}

# ur_luks_open DEV: open DEV's LUKS2 header with the key as /dev/mapper/usb_rbd
ur_luks_open() {
	cryptsetup open --type luks2 --key-file "$UR_KEYFILE" "$1" "$UR_CRYPT_NAME" 2> /tmp/usb-rbd.cs
	case $? in
	0) return 0 ;;
	2) rapido_fail "usb_rbd: $ur_spec holds a LUKS header that USB_RBD_KEY does not open (wrong key; unset USB_RBD_KEY to format the image anew)" ;;
	*) cat /tmp/usb-rbd.cs >&2; rapido_fail "usb_rbd: cryptsetup open $1 failed" ;;
	esac
}

rapido_on_fail rapido_kernel_tail
rapido_on_fail ur_on_fail
ceph_need_net
cfs_mount
gw_begin
ur_udcs=(/sys/class/udc/*)
[ -n "${USB_RBD_UDC:-}" ] || [ -e "${ur_udcs[0]}" ] ||
	rapido_fail "usb_rbd: no UDC in /sys/class/udc (dummy_hcd not loaded?)"

ur_rbd=$(ceph_client map "$ur_spec") || rapido_fail "usb_rbd: cannot map $ur_spec (see above)"
ceph_say "usb_rbd: $ur_spec mapped at $ur_rbd ($(blockdev --getsize64 "$ur_rbd") bytes)"
ur_disk=$ur_rbd
if [ "$ur_crypt" = 1 ]; then
	(umask 077 && if [ -n "${USB_RBD_KEY:-}" ]; then
		printf '%s' "$USB_RBD_KEY"
	else
		head -c 32 /dev/urandom
	fi > "$UR_KEYFILE") || rapido_fail "usb_rbd: cannot write $UR_KEYFILE"
	mkdir -p /run/cryptsetup
	if [ -n "${USB_RBD_KEY:-}" ] && cryptsetup isLuks "$ur_rbd"; then
		ur_luks_open "$ur_rbd"
		ceph_say "usb_rbd: opened the LUKS2 header on $ur_spec with USB_RBD_KEY"
	else
		# pbkdf2 with few iterations: argon2 would take a TCG guest minutes
		cryptsetup luksFormat --batch-mode --type luks2 --pbkdf pbkdf2 \
			--pbkdf-force-iterations 1000 --key-file "$UR_KEYFILE" "$ur_rbd" \
			> /tmp/usb-rbd.cs 2>&1 || { cat /tmp/usb-rbd.cs >&2; rapido_fail "usb_rbd: cryptsetup luksFormat $ur_rbd"; }
		ur_luks_open "$ur_rbd"
		ceph_say "usb_rbd: LUKS2 made on $ur_spec ($([ -n "${USB_RBD_KEY:-}" ] && echo USB_RBD_KEY || echo a random key))"
	fi
	ur_disk=/dev/mapper/$UR_CRYPT_NAME
	rapido_wait 30 test -b "$ur_disk" || rapido_fail "usb_rbd: $ur_disk did not appear"
fi

ur_defs=(-D "disk=$ur_disk")
[ -z "${USB_RBD_UDC:-}" ] || ur_defs+=(-D "udc=$USB_RBD_UDC")
rapido-configfs "${ur_defs[@]}" "$UR_SPEC" || {
	rc=$?
	[ -z "${USB_RBD_UDC:-}" ] || [ -e "/sys/class/udc/$USB_RBD_UDC" ] ||
		echo "rapido: usb_rbd: USB_RBD_UDC=$USB_RBD_UDC: no such UDC in /sys/class/udc" >&2
	rapido_fail "usb_rbd: rapido-configfs $UR_SPEC (exit $rc)"
}
ur_udc=$(cat "$GW_CFS/usb_gadget/g1/UDC")
rapido_wait 30 cfs_usb_disk ||
	rapido_fail "usb_rbd: usb-storage made no disk for the gadget (UDC $ur_udc: $(cat "/sys/class/udc/$ur_udc/state"))"
ceph_say "usb_rbd: gadget on $ur_disk bound to $ur_udc, USB device ${usbdev##*/}, usb-storage disk $sd"
[ "$(blockdev --getsize64 "$sd")" = "$(blockdev --getsize64 "$ur_disk")" ] ||
	rapido_fail "usb_rbd: $sd is not the size of $ur_disk"

gw_pattern /tmp/usb-rbd.data "$UR_MIB"
cfs_rw_check "$sd" /tmp/usb-rbd.data "usb_rbd: $sd (USB) on $ur_disk"

if [ -n "${USB_RBD_BENCH:-}" ]; then
	dd if=/dev/urandom of=/tmp/usb-rbd.bench bs=1M count="$USB_RBD_BENCH" status=none ||
		rapido_fail "usb_rbd: cannot write /tmp/usb-rbd.bench"
	ur_mode=plain
	[ "$ur_crypt" = 1 ] && ur_mode=crypt
	gw_bench "usb_rbd direct $ur_rbd" "$ur_rbd" "$UR_BENCH_RBD_SEEK" /tmp/usb-rbd.bench "$USB_RBD_BENCH"
	gw_bench "usb_rbd $ur_mode $sd" "$sd" "$UR_BENCH_USB_SEEK" /tmp/usb-rbd.bench "$USB_RBD_BENCH"
	rm -f /tmp/usb-rbd.bench
fi

ur_teardown || rapido_fail "usb_rbd: teardown failed (see above)"
sd='' ur_defs=() ur_rbd=''
gw_clean || rapido_fail "usb_rbd: teardown left the above behind"
ceph_say "usb_rbd: torn down: host side, gadget, $([ "$ur_crypt" = 1 ] && echo "crypt device, ")mapping"

# the bytes on the image, from a fresh mapping
ur_rbd=$(ceph_client map "$ur_spec") || rapido_fail "usb_rbd: cannot map $ur_spec again (see above)"
if [ "$ur_crypt" = 1 ]; then
	gw_has_marker "$ur_rbd" &&
		rapido_fail "usb_rbd: the pattern's plain text is in the raw image $ur_spec: not encrypted"
	ceph_say "usb_rbd: the raw image $ur_spec does not hold the pattern's plain text"
	ur_luks_open "$ur_rbd"
	rapido_wait 30 test -b "$ur_disk" || rapido_fail "usb_rbd: $ur_disk did not appear"
fi
dd if="$ur_disk" of=/tmp/usb-rbd.raw bs=1M count="$UR_MIB" iflag=direct status=none ||
	rapido_fail "usb_rbd: read $ur_disk"
cmp /tmp/usb-rbd.raw /tmp/usb-rbd.data ||
	rapido_fail "usb_rbd: $ur_spec does not hold what was written through the USB disk"
if [ "$ur_crypt" = 1 ]; then
	ceph_say "usb_rbd: $ur_spec, decrypted again, holds what was written through the USB disk"
else
	gw_has_marker "$ur_rbd" || rapido_fail "usb_rbd: the pattern's marker is not in $ur_spec"
	ceph_say "usb_rbd: $ur_spec holds what was written through the USB disk"
fi
rm -f /tmp/usb-rbd.raw /tmp/usb-rbd.data /tmp/usb-rbd.cs "$UR_KEYFILE"
ur_teardown || rapido_fail "usb_rbd: closing the second mapping failed (see above)"
ur_rbd=
gw_clean || rapido_fail "usb_rbd: the second mapping left the above behind"
echo "rapido: usb_rbd: PASS"
