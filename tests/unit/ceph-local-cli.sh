#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ceph-local-cli.sh: ./ceph-local's command line and the checks it makes
# before starting anything: bad keys named, no cluster to stop or show, a
# directory that is not a cluster's never removed or reused, a namespace or
# address that is not there. No daemon is started here (tests/boot/ceph.sh
# runs a real cluster).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/ceph-local
[ -x "$bin" ] || { echo "SKIP: $bin is not built (run make)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rapido-ceph-local-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export RAPIDO_CONF=$tmp/rapido.conf CEPH_LOCAL_DIR=$tmp/cluster
: > "$RAPIDO_CONF"
unset CEPH_OSDS CEPH_POOL_SIZE CEPH_OSD_STORE CEPH_OSD_SIZE CEPH_RBD_IMAGE BR_ADDR

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	echo "#   exit $rc"
	sed 's/^/#   out: /' "$tmp/out"
}
run() { "$bin" "$@" > "$tmp/out" 2>&1; rc=$?; }
# expect DESC RC TEXT: the last run exited RC and said TEXT (a fixed string)
expect() {
	if [ "$rc" = "$2" ] && grep -qF -- "$3" "$tmp/out"; then ok "$1"; else not_ok "$1"; fi
}

run --help
expect "--help" 0 "ceph-local [options] up"
run
expect "no verb" 1 "expected 'up', 'status' or 'down'"
run --bogus up
expect "unknown option" 1 "Try 'ceph-local --help'"
CEPH_OSDS=0 run up
expect "CEPH_OSDS=0 named" 1 "environment: CEPH_OSDS: expected a number from 1 to 16, got '0'"
echo "CEPH_OSD_STORE=filestore" > "$RAPIDO_CONF"
run up
expect "CEPH_OSD_STORE named with FILE:LINE" 1 "$RAPIDO_CONF:1: CEPH_OSD_STORE: expected memstore or bluestore"
: > "$RAPIDO_CONF"
CEPH_POOL_SIZE=3 CEPH_OSDS=2 run up
expect "more copies than OSDs" 1 "3 copies of each object need at least 3 OSDs"
CEPH_LOCAL_DIR=relative run up
expect "a relative CEPH_LOCAL_DIR" 1 "CEPH_LOCAL_DIR: expected an absolute path"
CEPH_LOCAL_DIR="$tmp/a#b" run up
expect "a CEPH_LOCAL_DIR ceph.conf cannot hold" 1 "(it goes into ceph.conf)"
CEPH_RBD_IMAGE=a/b run up
expect "an image name with a slash" 1 "CEPH_RBD_IMAGE: expected a name of letters"
run status
expect "status without a cluster: exit 3" 3 "no cluster in $tmp/cluster"

if [ "$(id -u)" != 0 ]; then
	run up
	expect "up needs root" 1 "must run as root"
	echo "1..$n"
	[ $failed = 0 ]
	exit
fi
if command -v setpriv > /dev/null; then
	RAPIDO_CONF=/dev/null setpriv --reuid 65534 --regid 65534 --clear-groups "$bin" down > "$tmp/out" 2>&1
	rc=$?
	expect "down needs root" 1 "must run as root to stop Ceph daemons"
fi
run down
expect "down without a cluster" 0 "no cluster in $tmp/cluster: nothing to stop"
mkdir -p "$tmp/cluster"
echo precious > "$tmp/cluster/data"
run down
expect "down refuses a directory that is not a cluster's" 1 "not a ceph-local cluster's directory"
[ -e "$tmp/cluster/data" ] && ok "  and leaves it alone" || not_ok "  and leaves it alone"
run --netns rapido-no-such-ns-$$ up
expect "up in a namespace that does not exist" 1 "network namespace rapido-no-such-ns-$$ does not exist"
if command -v ceph-mon > /dev/null && command -v ceph > /dev/null; then
	# checks only: a bind() that fails, or one on loopback that is closed at once
	BR_ADDR=192.0.2.77/24 run up
	expect "up on an address no interface has" 1 "192.0.2.77 (BR_ADDR) is not an address of any interface"
	BR_ADDR=127.0.0.1/8 run up
	expect "up refuses a directory that is not a cluster's" 1 "exists and is not a ceph-local cluster's: not touching it"
	[ "$(cat "$tmp/cluster/data")" = precious ] && ok "  and leaves it alone" ||
		not_ok "  and leaves it alone"
else
	echo "ok $((n + 1)) # SKIP Ceph is not installed (host/install-deps)"
	n=$((n + 1))
fi
echo "1..$n"
[ $failed = 0 ]
