#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mpath-failover-all.sh: mpath_local with one disk on two paths; the host
# pulls both while the guest writes. multipath is set to fail I/O, not
# queue it, when no path is left: the guest's write fails at once, the
# guest reports the I/O error and ./vm exits 2 (not a hang, not 0).
. "$(dirname "$0")/lib.sh"

for f in /sbin/multipathd /sbin/multipath /lib/multipath; do
	[ -e "$f" ] || { echo "# SKIP needs multipath-tools ($f missing; host/install-deps installs it)"; exit 77; }
done

"$CUT" mpath_local -x mpath_failover_guest > "$T/cut.out" 2>&1
crc=$?
expect_rc "cut mpath_local -x mpath_failover_guest" 0 $crc
[ $crc = 0 ] || { sed 's/^/# /' "$T/cut.out"; done_testing; exit; }
truncate -s 128M "$T/disk0"
mkdir "$T/share"

start=$SECONDS
"$VM" --batch --timeout 300 --mpath "$T/disk0" --share "$T/share" > "$T/console" 2>&1 &
vmpid=$!
"$TOP/host/mpath-failover" --pid $vmpid --timeout 240 "$T/share" 0:1 0:0 > "$T/driver" 2>&1
drc=$?
wait $vmpid
rc=$?
echo "# guest done after $((SECONDS - start)) s"
sed 's/^/# host: /' "$T/driver"
expect_rc "host side: ready seen, paths 0:1 and 0:0 pulled" 0 $drc
expect_rc "guest reports the I/O error" 2 $rc
[ $rc = 2 ] || grep -v '^\[' "$T/console" | tail -n 40 | sed 's/^/# /'

check "the write failed with EIO" guest_matches "$T/console" 'Input/output error'
check "the guest named the error and the pulled paths" \
	guest_matches "$T/console" '^rapido: FAILED: I/O error on /dev/mapper/mpath0 after the host pulled paths: 0:1 0:0'
check "no queueing: the map has no queue_if_no_path" guest_says "$T/console" "features='0'"
check "DIR/failed says status 2" grep -q '^2 I/O error' "$T/share/failed"
check "kernel console clean" console_clean "$T/console"
done_testing
