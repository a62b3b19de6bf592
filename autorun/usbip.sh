#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# usbip: a USB mass-storage gadget on a zram disk, exported over USB/IP on
# the guest's loopback with Debian's usbip/usbipd and attached through
# vhci-hcd, so that usb-storage sees it as a SCSI disk a second time, over
# TCP; data written through that disk is read back and found on the zram
# disk. USBIP_MODE picks the server side:
#   stub  the gadget on dummy_hcd's UDC, its USB device (the host side's)
#         bound to usbip-host and exported by usbipd (Rapido's
#         usbip_host_stub with usbip_vhci_client)
#   vudc  the gadget on usbip-vudc's UDC, exported by usbipd --device
#         (Rapido's usbip_vudc_zram with usbip_vhci_client)
# Each step is a result (usbip/export, usbip/attach, usbip/io,
# usbip/detach); a failed step stops the run, ./vm exits 1.
#
# Keys:
#   USBIP_MODE   stub (default) or vudc
#   USBIP_BUSID  stub: the bus id usbip binds, exports and attaches, N-N[.N]
#                (default: the gadget's USB device on dummy_hcd, 1-1)
#   USBIP_PORT   usbipd's TCP port (default 3240)
#@ description: USB/IP: a zram-backed mass-storage gadget (usbip-host stub or usbip-vudc) exported by usbipd on loopback, attached through vhci-hcd; I/O checked by bytes, detach, teardown
#@ include: configfs zram
#@ files: autorun/configfs/usb-msc.spec:/usr/share/rapido/configfs/usb-msc.spec
#@ bins: readlink blockdev usbip usbipd kill
#@ bins-optional: lsscsi
#@ modules: libcomposite usb_f_mass_storage dummy_hcd usb_storage sd_mod
#@ modules: usbip_core usbip_host vhci_hcd usbip_vudc
#@ kconfig: CONFIG_USB_CONFIGFS=m CONFIG_USB_CONFIGFS_MASS_STORAGE
#@ kconfig: CONFIG_USB_DUMMY_HCD=m CONFIG_USB_STORAGE=m CONFIG_BLK_DEV_SD=m
#@ kconfig: CONFIG_USBIP_CORE=m CONFIG_USBIP_HOST=m CONFIG_USBIP_VHCI_HCD=m CONFIG_USBIP_VUDC=m
#@ kconfig-optional: CONFIG_USB_SUPPORT=y CONFIG_USB=m CONFIG_USB_GADGET=m CONFIG_SCSI=y
#@ conf-optional: USBIP_MODE USBIP_BUSID USBIP_PORT
#@ conf-type: USBIP_MODE enum stub,vudc
#@ conf-type: USBIP_PORT uint 1-65535
#@ cpus: 1
#@ memory: 1G

USBIP_MODE=${USBIP_MODE:-stub}
USBIP_PORT=${USBIP_PORT:-3240}
MSC_SIZE=32M
MSC_SPEC=/usr/share/rapido/configfs/usb-msc.spec
CFS=/sys/kernel/config
USBIPD_PID=/run/usbipd.pid
# the bus id usbip_export bound (in rapido_test's subshell), for the attach
# and the teardown check
USBIP_BOUND=/run/usbip.busid

rapido_on_fail rapido_kernel_tail
rapido_conf_form USBIP_BUSID usb-busid
# usbipd -D: killed by its PID on every failure path too
rapido_on_fail_kill "$USBIPD_PID"

case $USBIP_MODE in
stub) MSC_UDC=dummy_udc.0 ;;
vudc) MSC_UDC=usbip-vudc.0 ;;
*) rapido_fail "USBIP_MODE=$USBIP_MODE: stub or vudc" ;;
esac

cfs_mount
cfs_tree "$CFS/usb_gadget" > /tmp/usbip.before
rapido_wait 30 test -e "/sys/class/udc/$MSC_UDC" || rapido_fail "no UDC $MSC_UDC"
MSC_ZRAM=$(rapido-zram add -s "$MSC_SIZE") || rapido_fail "rapido-zram add"
msc_defs=(-D "disk=$MSC_ZRAM" -D "udc=$MSC_UDC")
rapido-configfs "${msc_defs[@]}" "$MSC_SPEC" || rapido_fail "rapido-configfs $MSC_SPEC (exit $?)"
echo "rapido: usbip: $USBIP_MODE: gadget on $MSC_ZRAM, UDC $MSC_UDC"

# usbip_listening: usbipd answers on the loopback (it lists its exports)
usbip_listening() {
	usbip --tcp-port "$USBIP_PORT" list -r 127.0.0.1 > /dev/null 2>&1
}

# usbip_export: the gadget's device made exportable, usbipd started
usbip_export() {
	local busid dopt=

	if [ "$USBIP_MODE" = stub ]; then
		# the gadget as the same guest's host side sees it, on dummy_hcd
		rapido_wait 30 cfs_usb_disk || rapido_fail "usb-storage made no disk for the gadget on $MSC_UDC"
		busid=${USBIP_BUSID:-${usbdev##*/}}
		echo "rapido: usbip: local disk $sd, USB device ${usbdev##*/}; binding $busid to usbip-host"
		usbip bind -b "$busid" || rapido_fail "usbip bind -b $busid (exit $?)"
		echo "$busid" > "$USBIP_BOUND" || rapido_fail "cannot write $USBIP_BOUND"
		[ -e "/sys/bus/usb/drivers/usbip-host/$busid" ] || rapido_fail "$busid is not bound to usbip-host"
		rapido_wait 30 test ! -e "/sys/block/${sd#/dev/}" || rapido_fail "$sd still there after $busid went to usbip-host"
	else
		dopt=--device
	fi
	usbipd -D $dopt --tcp-port "$USBIP_PORT" --pid "$USBIPD_PID" || rapido_fail "usbipd -D $dopt (exit $?)"
	rapido_wait 30 usbip_listening || rapido_fail "usbipd does not answer on 127.0.0.1:$USBIP_PORT"
	echo "rapido: usbip: usbipd${dopt:+ $dopt} on 127.0.0.1:$USBIP_PORT, pid $(< "$USBIPD_PID")"
	[ "$USBIP_MODE" = vudc ] || usbip --tcp-port "$USBIP_PORT" list -r 127.0.0.1 2>&1
}

# usbip_attach: the export attached through vhci-hcd, usb-storage's disk on it
usbip_attach() {
	local what=(-d "$MSC_UDC") busid

	if [ "$USBIP_MODE" = stub ]; then
		read -r busid < "$USBIP_BOUND" || rapido_fail "no bus id in $USBIP_BOUND"
		what=(-b "$busid")
	fi
	usbip --tcp-port "$USBIP_PORT" attach -r 127.0.0.1 "${what[@]}" ||
		rapido_fail "usbip attach -r 127.0.0.1 ${what[*]} (exit $?)"
	rapido_wait 60 cfs_usb_disk 'vhci_hcd.*' || rapido_fail "usb-storage made no disk on vhci_hcd"
	usbip port
	echo "rapido: usbip: attached ${what[*]}: vhci USB device ${usbdev##*/}, disk $sd"
}


# usbip_detach: the vhci side lets go of the disk, then of the port
usbip_detach() {
	local port= line

	echo 1 > "/sys/block/${sd#/dev/}/device/delete" || rapido_fail "delete SCSI device of $sd"
	rapido_wait 30 test ! -e "/sys/block/${sd#/dev/}" || rapido_fail "$sd still there after its SCSI device was deleted"
	# "Port 00: <Port in Use> at High Speed(480Mbps)"
	while IFS= read -r line; do
		[[ $line =~ ^Port\ ([0-9]+):\ \<Port\ in\ Use\> ]] && port=${BASH_REMATCH[1]}
	done < <(usbip port 2> /dev/null)
	[ -n "${port:-}" ] || rapido_fail "usbip port lists no port in use"
	usbip detach -p "$((10#$port))" || rapido_fail "usbip detach -p $port (exit $?)"
	rapido_wait 30 test ! -e "$usbdev" || rapido_fail "vhci USB device ${usbdev##*/} still there after detach"
	echo "rapido: usbip: port $port detached"
}

rapido_test usbip/export usbip_export || rapido_fail "usbip: the export failed"
rapido_test usbip/attach usbip_attach || rapido_fail "usbip: the attach failed"
# rapido_test runs its command in a subshell: find the disk again here
cfs_usb_disk 'vhci_hcd.*' || rapido_fail "no disk on vhci_hcd after the attach"
command -v lsscsi > /dev/null && lsscsi
rapido_test usbip/io cfs_backed_check "$sd" "$MSC_ZRAM" "usbip over USB/IP" || rapido_fail "usbip: the I/O check failed"
rapido_test usbip/detach usbip_detach || rapido_fail "usbip: the detach failed"

pid=$(< "$USBIPD_PID") || rapido_fail "no $USBIPD_PID"
kill "$pid" || rapido_fail "kill usbipd $pid"
rapido_wait 30 rapido_pid_gone "$pid" || rapido_fail "usbipd $pid still running"
: > "$USBIPD_PID"
rapido-configfs "${msc_defs[@]}" --teardown "$MSC_SPEC" || rapido_fail "teardown (exit $?)"
if [ "$USBIP_MODE" = stub ]; then
	read -r busid < "$USBIP_BOUND" || rapido_fail "no bus id in $USBIP_BOUND"
	rapido_wait 30 test ! -e "/sys/bus/usb/drivers/usbip-host/$busid" ||
		rapido_fail "$busid still on usbip-host after the gadget was unbound"
fi
cfs_same_tree usbip /tmp/usbip.before "$CFS/usb_gadget" || rapido_fail "configfs not clean after teardown"
rapido-zram remove "$MSC_ZRAM" || rapido_fail "rapido-zram remove $MSC_ZRAM"
rm -f /tmp/usbip.before
rapido_tests_done || rapido_fail "usbip: a test failed"
echo "rapido: usbip: PASS"
