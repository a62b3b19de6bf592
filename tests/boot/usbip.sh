#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# usbip.sh: the usbip profile on Debian's kernel with Debian's usbip: a
# zram-backed gadget on dummy_hcd, its USB device bound to usbip-host,
# exported by usbipd on the guest's loopback and attached through
# vhci-hcd; bytes written through the vhci disk are found on the zram
# disk; each step a result in junit.xml, ./vm exits 0. The same with the
# gadget on usbip-vudc's UDC (USBIP_MODE=vudc). Then a key that
# breaks the export (USBIP_BUSID names no device): usbip/export fails in
# junit.xml and ./vm exits 1.
. "$(dirname "$0")/lib.sh"

if ! command -v usbip > /dev/null; then
	skip "usbip" "no usbip on the host (Debian package usbip)"
	done_testing
	exit
fi

cut_boot usbip res 0 "vm --batch usbip"
con() {
	console_says "$T/res.console" "$1"
}
check "usbip-host took the gadget's device" con "binding 1-1 to usbip-host"
check "usbipd answers on loopback" con "usbipd on 127.0.0.1:3240"
check "usb-storage disk on vhci_hcd" con "attached -b 1-1: vhci USB device .*, disk /dev/sd."
check "I/O through the vhci disk" con "4 MiB written to /dev/sd. and read back"
check "zram disk holds the data" con "usbip over USB/IP: /dev/zram. holds what was written through /dev/sd."
check "port detached" con "usbip: port 0* detached"
check "configfs as before after teardown" con "usbip: configfs is as it was before the setup"
check "profile passed" con "rapido: usbip: PASS"
check "kernel console clean" console_clean "$T/res.console"
testcases "$T/res/junit.xml" > "$T/got" 2> /dev/null
printf '%s pass\n' usbip/export usbip/attach usbip/io usbip/detach > "$T/want"
check "junit.xml: export, attach, io, detach passed" cmp -s "$T/want" "$T/got"

# the server side on usbip-vudc: the gadget is the export, no dummy_hcd
echo "USBIP_MODE=vudc" > "$RAPIDO_CONF"
cut_boot usbip res3 0 "vm --batch usbip USBIP_MODE=vudc"
check "vudc: usbipd --device answers" console_says "$T/res3.console" "usbipd --device on 127.0.0.1:3240"
check "vudc: usb-storage disk on vhci_hcd" console_says "$T/res3.console" \
	"attached -d usbip-vudc.0: vhci USB device .*, disk /dev/sd."
check "vudc: zram disk holds the data" console_says "$T/res3.console" \
	"usbip over USB/IP: /dev/zram. holds what was written through /dev/sd."
check "vudc: kernel console clean" console_clean "$T/res3.console"
testcases "$T/res3/junit.xml" > "$T/got3" 2> /dev/null
check "vudc: junit.xml: export, attach, io, detach passed" cmp -s "$T/want" "$T/got3"

# a failure on purpose: the export of a bus id that is no device
echo "USBIP_BUSID=9-9" > "$RAPIDO_CONF"
cut_boot usbip res2 1 "a broken export (USBIP_BUSID=9-9) is ./vm's exit status"
testcases "$T/res2/junit.xml" > "$T/got2" 2> /dev/null
check "junit.xml: usbip/export failed" grep -qx 'usbip/export failure' "$T/got2"
check "  and says why" grep -qF 'usbip bind -b 9-9' "$T/res2/junit.xml"
done_testing
