#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# usb-msc.sh: the usb_msc profile on Debian's kernel: a mass-storage gadget
# on zram bound to dummy_hcd's UDC, seen by usb-storage as a disk; data
# written through it is read back and found on the zram disk; teardown
# through rapido-configfs, configfs as before; ./vm exits 0.
. "$(dirname "$0")/lib.sh"

"$CUT" usb_msc > "$T/cut.out" 2>&1
expect_rc "cut usb_msc" 0 $? || cat "$T/cut.out"
"$VM" --batch --timeout 600 > "$T/console" 2>&1
rc=$?
expect_rc "vm --batch usb_msc" 0 $rc
con() {
	console_says "$T/console" "$1"
}
check "gadget enumerated by the host side" con "usb 1-1: Product: rapido mass storage"
check "usb-storage disk found" con "UDC dummy_udc.0 configured, USB device 1-1, usb-storage disk /dev/sd."
check "I/O through the disk" con "4 MiB written to /dev/sd. and read back"
check "zram disk holds the data" con "/dev/zram. holds what was written through /dev/sd."
check "configfs as before after teardown" con "usb_msc: configfs is as it was before the setup"
check "profile passed" con "rapido: usb_msc: PASS"
check "kernel console clean" console_clean "$T/console"
[ $rc = 0 ] || tr -d '\r' < "$T/console" | grep -v '^\[' | tail -n 40 | sed 's/^/# /'
done_testing
