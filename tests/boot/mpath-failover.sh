#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mpath-failover.sh: mpath_local with one disk on two paths. While the guest
# writes to the multipath device, the host pulls path 1 (./vmctl N fail 0 1,
# through host/mpath-failover); the guest checks that no write failed, the
# data reads back, and the kernel, multipathd and multipath -ll show one
# active path and the pulled one failed or gone. Then the host plugs the
# path back (./vmctl N restore 0 1) and the guest checks both are active.
# ./vm's exit status is the guest's verdict.
. "$(dirname "$0")/lib.sh"

for f in /sbin/multipathd /sbin/multipath /lib/multipath; do
	[ -e "$f" ] || { echo "# SKIP needs multipath-tools ($f missing; host/install-deps installs it)"; exit 77; }
done

# every profile sources autorun/lib/*.sh: it must parse and do nothing
check "guest library parses" bash -n "$TOP/autorun/lib/mpath.sh"
check "sourcing it prints nothing" test -z "$(bash -c '. "$1"' _ "$TOP/autorun/lib/mpath.sh" 2>&1)"

"$CUT" mpath_local -x mpath_failover_guest > "$T/cut.out" 2>&1
crc=$?
expect_rc "cut mpath_local -x mpath_failover_guest" 0 $crc
[ $crc = 0 ] || { sed 's/^/# /' "$T/cut.out"; done_testing; exit; }
truncate -s 128M "$T/disk0"
mkdir "$T/share"

start=$SECONDS
"$VM" --batch --timeout 300 --mpath "$T/disk0" --share "$T/share" > "$T/console" 2>&1 &
vmpid=$!
"$TOP/host/mpath-failover" --pid $vmpid --timeout 240 --restore "$T/share" 0:1 > "$T/driver" 2>&1
drc=$?
wait $vmpid
rc=$?
echo "# guest done after $((SECONDS - start)) s"
sed 's/^/# host: /' "$T/driver"
expect_rc "host side: ready seen, path 0:1 pulled, then restored" 0 $drc
expect_rc "guest: failover and restore held" 0 $rc
[ $rc = 0 ] || grep -v '^\[' "$T/console" | tail -n 40 | sed 's/^/# /'

check "ready line on the console" guest_matches "$T/console" '^rapido: mpath: ready: /dev/mapper/mpath0 (/dev/dm-[0-9]*, 2 paths) mounted on /mnt/mpath0'
vm=$(sed -n 's/^vm=//p' "$T/share/ready" 2>/dev/null)
ready_ok() {
	[ -n "$vm" ] && [ -s "$VM_STATE_DIR/vm$vm.log" ] &&
		grep -q '^map=mpath0 /dev/dm-[0-9]* /mnt/mpath0 2$' "$T/share/ready"
}
check "DIR/ready names the VM (vm=$vm, its console log exists) and the map" ready_ok
check "the guest wrote while the path was pulled" guest_matches "$T/console" '^rapido: mpath: writer: /host/path-failed seen after'
check "failover ok: one active path, the pulled one failed or gone" \
	guest_matches "$T/console" '^rapido: mpath: failover ok: .* while pulling 0:1 of 2 paths; multipath -ll: 1 active, [01] failed'
check "restore ok: both paths active again" guest_matches "$T/console" '^rapido: mpath: restore ok: all 2 paths of mpath0 active'
check "no DIR/failed" test ! -e "$T/share/failed"
check "kernel console clean" console_clean "$T/console"
done_testing
