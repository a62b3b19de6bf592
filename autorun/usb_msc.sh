#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# usb_msc: a USB mass-storage gadget backed by a zram disk, bound to
# dummy_hcd's UDC, so that the same guest's usb-storage sees it as a SCSI
# disk; data is written through that disk, read back, and found on the
# zram disk; then the gadget is torn down and configfs must be as it was.
# Any failure exits 1 (./vm's exit status).
#
# The configfs layout is autorun/configfs/usb-msc.spec, which the image
# carries (#@ files); applied with rapido-configfs.
#@ description: USB mass-storage gadget on zram, bound to dummy_hcd, seen by usb-storage; I/O, teardown
#@ include: configfs zram
#@ files: autorun/configfs/usb-msc.spec:/usr/share/rapido/configfs/usb-msc.spec
#@ bins: readlink blockdev mount
#@ bins-optional: lsscsi
#@ modules: libcomposite usb_f_mass_storage dummy_hcd usb_storage sd_mod
#@ kconfig: CONFIG_USB_CONFIGFS=m CONFIG_USB_CONFIGFS_MASS_STORAGE
#@ kconfig: CONFIG_USB_DUMMY_HCD=m CONFIG_USB_STORAGE=m CONFIG_BLK_DEV_SD=m
# dummy_hcd needs USB=y, or USB and USB_GADGET both =m
#@ kconfig-optional: CONFIG_USB_SUPPORT=y CONFIG_USB=m CONFIG_USB_GADGET=m CONFIG_SCSI=y
#@ cpus: 1
#@ memory: 1G

MSC_SIZE=32M
MSC_SPEC=/usr/share/rapido/configfs/usb-msc.spec
MSC_UDC=dummy_udc.0
CFS=/sys/kernel/config

rapido_on_fail rapido_kernel_tail

cfs_mount
cfs_tree "$CFS/usb_gadget" > /tmp/usb-msc.before
[ -e "/sys/class/udc/$MSC_UDC" ] || rapido_fail "no UDC $MSC_UDC (dummy_hcd loaded?)"

MSC_ZRAM=$(rapido-zram add -s "$MSC_SIZE") || rapido_fail "rapido-zram add"
echo "rapido: usb_msc: gadget on $MSC_ZRAM, UDC $MSC_UDC"
# the spec's set-first picks the UDC: the first in /sys/class/udc, dummy_hcd's
rapido-configfs -D "disk=$MSC_ZRAM" --dry-run "$MSC_SPEC" > /dev/null ||
	rapido_fail "rapido-configfs --dry-run $MSC_SPEC (exit $?)"
rapido-configfs -D "disk=$MSC_ZRAM" "$MSC_SPEC" || rapido_fail "rapido-configfs $MSC_SPEC (exit $?)"
[ "$(cat "$CFS/usb_gadget/g1/UDC")" = "$MSC_UDC" ] ||
	rapido_fail "gadget g1 bound to '$(cat "$CFS/usb_gadget/g1/UDC")', not $MSC_UDC"

# usb-storage waits delay_use (1 s) before it scans; sd probes asynchronously
rapido_wait 30 cfs_usb_disk ||
	rapido_fail "usb-storage made no disk for the gadget (UDC state: $(cat "/sys/class/udc/$MSC_UDC/state"))"
echo "rapido: usb_msc: UDC $MSC_UDC $(cat "/sys/class/udc/$MSC_UDC/state"), USB device ${usbdev##*/}, usb-storage disk $sd"
command -v lsscsi > /dev/null && lsscsi
cfs_backed_check "$sd" "$MSC_ZRAM" usb_msc

# the host lets go of the disk first (its cache synced while the device is
# there), as one ejects a stick before pulling it; then the gadget goes
echo 1 > "/sys/block/${sd#/dev/}/device/delete" || rapido_fail "delete SCSI device of $sd"
rapido_wait 30 test ! -e "/sys/block/${sd#/dev/}" || rapido_fail "$sd still there after its SCSI device was deleted"
rapido-configfs -D "disk=$MSC_ZRAM" --teardown "$MSC_SPEC" || rapido_fail "teardown (exit $?)"
rapido-configfs -D "disk=$MSC_ZRAM" --teardown "$MSC_SPEC" || rapido_fail "second teardown (exit $?)"
rapido_wait 30 test ! -e "$usbdev" || rapido_fail "USB device ${usbdev##*/} still there after the gadget was unbound"
cfs_same_tree usb_msc /tmp/usb-msc.before "$CFS/usb_gadget" || rapido_fail "configfs not clean after teardown"
cfs_empty_dir "$CFS/usb_gadget" || rapido_fail "gadget left after teardown"
rapido-zram remove "$MSC_ZRAM" || rapido_fail "rapido-zram remove $MSC_ZRAM"
rm -f /tmp/usb-msc.before
echo "rapido: usb_msc: PASS"
