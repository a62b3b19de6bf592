#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mpath-args.sh: ./vm --mpath attaches one backing file as N scsi-hd paths
# with one serial; bad backing files fail before qemu starts. No boot.
. "$(dirname "$0")/lib.sh"

"$CUT" simple > /dev/null
expect_rc "cut" 0 $?
truncate -s 64M "$T/disk0" "$T/disk1"
"$VM" --dry-run --mpath "$T/disk0" > "$T/argv"
expect_rc "dry-run with one multipath disk" 0 $?
check "two scsi-hd paths" test "$(grep -c '^scsi-hd,' "$T/argv")" = 2
check "same serial on both paths" test "$(grep '^scsi-hd,' "$T/argv" | sed 's/.*serial=\([^,]*\).*/\1/' | sort -u | wc -l)" = 1
check "one virtio-scsi controller" test "$(grep -c '^virtio-scsi-pci' "$T/argv")" = 1
check "raw file node with cache.direct" grep -q "^driver=file,node-name=mp0,filename=$T/disk0,cache.direct=on" "$T/argv"

"$VM" --dry-run --mpath "$T/disk0" --mpath "$T/disk1" --mpath-paths 3 > "$T/argv"
check "two disks x three paths" test "$(grep -c '^scsi-hd,' "$T/argv")" = 6
check "distinct serials per disk" test "$(grep '^scsi-hd,' "$T/argv" | sed 's/.*serial=\([^,]*\).*/\1/' | sort -u | wc -l)" = 2

printf 'QEMU_MPATH_DISKS="%s"\n' "$T/disk1" > "$RAPIDO_CONF"
"$VM" --dry-run > "$T/argv"
check "QEMU_MPATH_DISKS from rapido.conf" grep -q "filename=$T/disk1," "$T/argv"
: > "$RAPIDO_CONF"

"$VM" --dry-run --mpath "$T/nonexistent" > "$T/out" 2>&1
expect_rc "missing backing file" 125 $?
check "  named in the error" grep -q "multipath backing file $T/nonexistent: No such file" "$T/out"
"$VM" --dry-run --mpath "$T" > "$T/out" 2>&1
check "a directory is refused" grep -q "is not a regular file or block device" "$T/out"
done_testing
