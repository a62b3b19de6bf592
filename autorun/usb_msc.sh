#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# usb_msc: a USB mass-storage gadget backed by a zram disk, bound to
# dummy_hcd's UDC, so that the same guest's usb-storage sees it as a SCSI
# disk; data is written through that disk, read back, and found on the
# zram disk; then the gadget is torn down and configfs must be as it was.
# Any failure exits 1 (./vm's exit status).
#
# The configfs layout is autorun/configfs/usb-msc.spec, embedded below (the
# image carries only the profile; tests/boot/usb-msc.sh checks that the two
# are the same). Applied with rapido-configfs.
#@ description: USB mass-storage gadget on zram, bound to dummy_hcd, seen by usb-storage; I/O, teardown
#@ bins: cat mkdir rm sleep find sort dd cmp stat readlink blockdev mount
#@ bins-optional: diff dmesg lsscsi
#@ modules: configfs libcomposite usb_f_mass_storage dummy_hcd usb_storage sd_mod zram
#@ helpers: configfs zram
#@ kconfig: CONFIG_CONFIGFS_FS CONFIG_USB_CONFIGFS CONFIG_USB_CONFIGFS_MASS_STORAGE
#@ kconfig: CONFIG_USB_DUMMY_HCD CONFIG_USB_STORAGE CONFIG_BLK_DEV_SD CONFIG_ZRAM
#@ cpus: 1
#@ memory: 1G

MSC_SIZE=32M
MSC_SPEC=/tmp/usb-msc.spec
MSC_UDC=dummy_udc.0
CFS=/sys/kernel/config

cat > "$MSC_SPEC" <<'SPEC'
# SPDX-License-Identifier: GPL-2.0
# usb-msc.spec: USB mass-storage gadget g1 (function mass_storage.0 on a
# zram disk), bound to the first UDC (dummy_hcd's in a VM).
#
# Apply:     rapido-configfs usb-msc.spec [-D udc=dummy_udc.0 -D disk=/dev/zram1]
# Tear down: rapido-configfs --teardown usb-msc.spec
#
# Needs: configfs mounted; modules libcomposite, usb_f_mass_storage and a
# UDC driver (dummy_hcd); ${disk} set up (zram disksize written).
# Used and checked on Debian's 6.1 kernel by autorun/usb_msc.sh.
#
# Layout from Documentation/usb/gadget_configfs.rst. Kernel rules:
#  - strings, configs, functions, configs/c.1/strings and lun.0 are
#    default groups: the kernel makes them with their parent;
#  - bind last (write the UDC name); unbind first: writing "\n" to UDC
#    unbinds (an empty write(2) never reaches the kernel's store());
#    /sys/class/udc/*/state may still say "configured" after the unbind;
#  - a host using the gadget's disk should let go first (delete its SCSI
#    device), or sd's cache flush at unbind fails with DID_NO_CONNECT;
#  - teardown order (reverse of this file): unbind, remove the function
#    from the config, then the directories, innermost first.

set disk /dev/zram0
set-first udc class/udc
set g usb_gadget/g1

# usb_gadget appears when libcomposite is loaded.
wait usb_gadget
mkdir ${g}
write ${g}/idVendor 0x1d6b		# Linux Foundation
write ${g}/idProduct 0x0104		# Multifunction Composite Gadget
write ${g}/bcdDevice 0x0100
write ${g}/bcdUSB 0x0200

wait ${g}/strings
mkdir ${g}/strings/0x409		# en-US
write ${g}/strings/0x409/serialnumber 0123456789
write ${g}/strings/0x409/manufacturer rapido
write ${g}/strings/0x409/product "rapido mass storage"

wait ${g}/configs
mkdir ${g}/configs/c.1
wait ${g}/configs/c.1/strings
mkdir ${g}/configs/c.1/strings/0x409
write ${g}/configs/c.1/strings/0x409/configuration "mass storage"
write ${g}/configs/c.1/MaxPower 120

wait ${g}/functions
mkdir ${g}/functions/mass_storage.0
wait ${g}/functions/mass_storage.0/lun.0
write ${g}/functions/mass_storage.0/lun.0/file ${disk}

link ${g}/functions/mass_storage.0 ${g}/configs/c.1/mass_storage.0
write ${g}/UDC ${udc} undo "\n"
SPEC

# msc_disk: the SCSI disk usb-storage made for the gadget behind dummy_hcd;
# sets msc_usbdev to the sysfs directory of the USB device
msc_disk() {
	local b real

	for b in /sys/block/sd*; do
		[ -e "$b" ] || continue
		real=$(readlink -f "$b") || continue
		case "$real" in
		*/dummy_hcd.*/usb*)
			msc_usbdev=${real%%:*}		# .../usb1/1-1/1-1:1.0/host0/...
			msc_usbdev=${msc_usbdev%/*}
			echo "/dev/${b##*/}"
			return 0
			;;
		esac
	done
	return 1
}

cfs_mount
cfs_tree "$CFS/usb_gadget" > /tmp/usb-msc.before
[ -e "/sys/class/udc/$MSC_UDC" ] || cfs_fail "no UDC $MSC_UDC (dummy_hcd loaded?)"

MSC_ZRAM=$(rapido-zram add -s "$MSC_SIZE") || cfs_fail "rapido-zram add"
echo "rapido: usb_msc: gadget on $MSC_ZRAM, UDC $MSC_UDC"
# the spec's set-first picks the UDC: the first in /sys/class/udc, dummy_hcd's
rapido-configfs -D "disk=$MSC_ZRAM" --dry-run "$MSC_SPEC" > /dev/null ||
	cfs_fail "rapido-configfs --dry-run $MSC_SPEC (exit $?)"
rapido-configfs -D "disk=$MSC_ZRAM" "$MSC_SPEC" || cfs_fail "rapido-configfs $MSC_SPEC (exit $?)"
[ "$(cat "$CFS/usb_gadget/g1/UDC")" = "$MSC_UDC" ] ||
	cfs_fail "gadget g1 bound to '$(cat "$CFS/usb_gadget/g1/UDC")', not $MSC_UDC"

# usb-storage waits delay_use (1 s) before it scans; sd probes asynchronously
sd=
for ((i = 0; i < 300; i++)); do
	msc_disk > /tmp/usb-msc.sd && sd=$(cat /tmp/usb-msc.sd) && break
	sleep 0.1
done
[ -n "$sd" ] || cfs_fail "usb-storage made no disk for the gadget (UDC state: $(cat "/sys/class/udc/$MSC_UDC/state"))"
rm -f /tmp/usb-msc.sd
echo "rapido: usb_msc: UDC $MSC_UDC $(cat "/sys/class/udc/$MSC_UDC/state"), USB device ${msc_usbdev##*/}, usb-storage disk $sd"
command -v lsscsi > /dev/null && lsscsi
[ "$(blockdev --getsize64 "$sd")" = "$(blockdev --getsize64 "$MSC_ZRAM")" ] ||
	cfs_fail "$sd is not the size of $MSC_ZRAM"

cfs_data_file /tmp/usb-msc.data 4
cfs_rw_check "$sd" /tmp/usb-msc.data "usb_msc: $sd"
dd if="$MSC_ZRAM" of=/tmp/usb-msc.raw bs=1M count=4 iflag=direct status=none || cfs_fail "read $MSC_ZRAM"
cmp /tmp/usb-msc.raw /tmp/usb-msc.data || cfs_fail "$MSC_ZRAM does not hold what was written through $sd"
echo "rapido: usb_msc: $MSC_ZRAM holds what was written through $sd"
rm -f /tmp/usb-msc.raw /tmp/usb-msc.data

# the host lets go of the disk first (its cache synced while the device is
# there), as one ejects a stick before pulling it; then the gadget goes
echo 1 > "/sys/block/${sd#/dev/}/device/delete" || cfs_fail "delete SCSI device of $sd"
cfs_wait_gone "/sys/block/${sd#/dev/}" || cfs_fail "$sd still there after its SCSI device was deleted"
rapido-configfs -D "disk=$MSC_ZRAM" --teardown "$MSC_SPEC" || cfs_fail "teardown (exit $?)"
rapido-configfs -D "disk=$MSC_ZRAM" --teardown "$MSC_SPEC" || cfs_fail "second teardown (exit $?)"
cfs_wait_gone "$msc_usbdev" || cfs_fail "USB device ${msc_usbdev##*/} still there after the gadget was unbound"
cfs_same_tree usb_msc /tmp/usb-msc.before "$CFS/usb_gadget" || cfs_fail "configfs not clean after teardown"
cfs_empty_dir "$CFS/usb_gadget" || cfs_fail "gadget left after teardown"
rapido-zram remove "$MSC_ZRAM" || cfs_fail "rapido-zram remove $MSC_ZRAM"
rm -f "$MSC_SPEC" /tmp/usb-msc.before
echo "rapido: usb_msc: PASS"
