#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lio-local.sh: the lio_local profile on Debian's kernel: a LIO target with
# fileio, iblock (zram) and dm-delay LUNs over iSCSI and tcm_loop; raw I/O
# and ext4 through the local SCSI disks, data found on the backing stores;
# an open-iscsi login (iscsid, iscsiadm) reading and writing LUNs through
# the session's disks; teardown through rapido-configfs, configfs as
# before; ./vm exits 0.
. "$(dirname "$0")/lib.sh"

check "guest library parses" bash -n "$TOP/autorun/lib/configfs.sh"

"$CUT" lio_local > "$T/cut.out" 2>&1
expect_rc "cut lio_local" 0 $? || cat "$T/cut.out"
"$VM" --batch --timeout 600 > "$T/console" 2>&1
rc=$?
expect_rc "vm --batch lio_local" 0 $rc
con() {
	console_says "$T/console" "$1"
}
check "iSCSI portal listened on 127.0.0.1:3260" con "iSCSI portal 127.0.0.1:3260 listening"
check "three tcm_loop SCSI disks" con "tcm_loop disks: fileio /dev/sd., iblock /dev/sd., dm-delay /dev/sd."
check "I/O through each LUN" con "LUN 2 (dm-delay): 1 MiB written to /dev/sd. and read back"
check "backing stores hold the data" con "the backing file and zram disks hold what the LUNs were written"
check "open-iscsi: discovery found the target" con "127.0.0.1:3260,1 iqn.2003-01.org.linux-iscsi.rapido:target"
check "open-iscsi: logged in" con "Login to \[iface: default, target: iqn.2003-01.org.linux-iscsi.rapido:target, portal: 127.0.0.1,3260\] successful"
check "I/O through the iSCSI session's disks" \
	con "iSCSI (open-iscsi): logged in, LUN 0 read through /dev/sd., LUN 1 written and read through /dev/sd.; /dev/sd. shows the write; logged out, iscsid stopped"
check "ext4 on the dm-delay LUN read back" con "ext4 on /dev/sd.: 2 MiB file written, remounted, read back"
check "configfs as before after teardown" con "lio_local: configfs is as it was before the setup"
check "profile passed" con "rapido: lio_local: PASS"
check "kernel console clean" console_clean "$T/console"
[ $rc = 0 ] || tr -d '\r' < "$T/console" | grep -v '^\[' | tail -n 40 | sed 's/^/# /'
done_testing
