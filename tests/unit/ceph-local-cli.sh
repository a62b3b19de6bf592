#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ceph-local-cli.sh: ./ceph-local's command line and the checks it makes
# before starting anything: bad keys named, no cluster to stop or show, a
# directory that is not a cluster's never removed or reused, a namespace or
# address that is not there. No daemon is started here (tests/boot/ceph.sh
# runs a real cluster).
. "$(dirname "$0")/../tap.sh"
bin=$TOP/ceph-local
[ -x "$bin" ] || { echo "SKIP: $bin is not built (run make)"; exit 77; }
export RAPIDO_CONF=$T/rapido.conf CEPH_LOCAL_DIR=$T/cluster
: > "$RAPIDO_CONF"
unset CEPH_OSDS CEPH_POOL_SIZE CEPH_OSD_STORE CEPH_OSD_SIZE CEPH_RBD_IMAGE BR_ADDR
TAP_ON_FAIL=show_run
# answered STATUS TEXT: the last run exited STATUS and said TEXT (a fixed
# string) on stdout or stderr
answered() { exits "$1" && cat "$T/out" "$T/err" | grep -qF -- "$2"; }

run "$bin" --help
check "--help" answered 0 "ceph-local [options] up"
run "$bin"
check "no verb" answered 1 "expected 'up', 'status' or 'down'"
run "$bin" --bogus up
check "unknown option" answered 1 "Try '$bin --help'"
CEPH_OSDS=0 run "$bin" up
check "CEPH_OSDS=0 named" answered 1 "environment: CEPH_OSDS: expected a number from 1 to 16, got '0'"
echo "CEPH_OSD_STORE=filestore" > "$RAPIDO_CONF"
run "$bin" up
check "CEPH_OSD_STORE named with FILE:LINE" answered 1 "$RAPIDO_CONF:1: CEPH_OSD_STORE: expected memstore or bluestore"
: > "$RAPIDO_CONF"
CEPH_POOL_SIZE=3 CEPH_OSDS=2 run "$bin" up
check "more copies than OSDs" answered 1 "3 copies of each object need at least 3 OSDs"
CEPH_LOCAL_DIR=relative run "$bin" up
check "a relative CEPH_LOCAL_DIR" answered 1 "CEPH_LOCAL_DIR: expected an absolute path"
CEPH_LOCAL_DIR="$T/a#b" run "$bin" up
check "a CEPH_LOCAL_DIR ceph.conf cannot hold" answered 1 "(it goes into ceph.conf)"
CEPH_RBD_IMAGE=a/b run "$bin" up
check "an image name with a slash" answered 1 "CEPH_RBD_IMAGE: expected a name of letters"
run "$bin" status
check "status without a cluster: exit 3" answered 3 "no cluster in $T/cluster"
# issue 33, item 14: sizes within a range (status reads the settings first)
CEPH_OSD_SIZE=1P run "$bin" status
check "CEPH_OSD_SIZE=1P: the key, the value and the range" answered 1 "environment: CEPH_OSD_SIZE: expected a size from 256M to 1T such as 1G, got '1P'"
CEPH_OSD_SIZE=1T run "$bin" status
check "CEPH_OSD_SIZE=1T, the largest, accepted" answered 3 "no cluster in $T/cluster"
CEPH_OSD_STORE=bluestore CEPH_OSD_SIZE=512M run "$bin" status
check "bluestore's own lower bound" answered 1 "CEPH_OSD_SIZE: expected a size from 1G to 1T such as 1G, got '512M'"

if [ "$(id -u)" != 0 ]; then
	run "$bin" up
	check "up needs root" answered 1 "must run as root"
	done_testing
fi
if command -v setpriv > /dev/null; then
	RAPIDO_CONF=/dev/null run setpriv --reuid 65534 --regid 65534 --clear-groups "$bin" down
	check "down needs root" answered 1 "must run as root to stop Ceph daemons"
fi
run "$bin" down
check "down without a cluster" answered 0 "no cluster in $T/cluster: nothing to stop"
mkdir -p "$T/cluster"
echo precious > "$T/cluster/data"
run "$bin" down
check "down refuses a directory that is not a cluster's" answered 1 "not a ceph-local cluster's directory"
check "  and leaves it alone" test -e "$T/cluster/data"
# issue 40, item 10: the marker must be a regular file in a real directory
ln -s "$T/cluster" "$T/cluster-link" && touch "$T/cluster/ceph-local.cluster"
CEPH_LOCAL_DIR=$T/cluster-link run "$bin" down
check "down refuses a link to a marked directory" answered 1 "$T/cluster-link is not a ceph-local cluster's directory (not a directory, no ceph-local.cluster in it)"
check "  and leaves it alone" test -e "$T/cluster/data"
rm "$T/cluster/ceph-local.cluster" && echo precious > "$T/plain"
CEPH_LOCAL_DIR=$T/plain run "$bin" down
check "down refuses a plain file" answered 1 "$T/plain is not a ceph-local cluster's directory (not a directory"
check "  and leaves it alone" test -e "$T/plain"
BR_ADDR=127.0.0.1/8 run "$bin" up
check "BR_ADDR outside the private ranges" answered 1 "BR_ADDR: expected a network inside a private range"
run "$bin" --netns rapido-no-such-ns-$$ up
check "up in a namespace that does not exist" answered 1 "network namespace rapido-no-such-ns-$$ does not exist"
if command -v ceph-mon > /dev/null && command -v ceph > /dev/null; then
	# checks only: a bind() that fails, or one on loopback that is closed at once
	# BR_ADDR must be a private bridge address (issue 33): one no interface has, then one
	# on the loopback of a namespace of this test's own
	BR_ADDR=10.254.253.77/24 run "$bin" up
	check "up on an address no interface has" answered 1 "10.254.253.77 (BR_ADDR) is not an address of any interface"
	ns=rapido-cl-cli-$$
	why=$(netns_or_why "$ns")
	if [ -z "$why" ]; then
		ip -n "$ns" addr add 10.254.253.1/24 dev lo
		BR_ADDR=10.254.253.1/24 run "$bin" --netns "$ns" up
		ip netns del "$ns"
		check "up refuses a directory that is not a cluster's" answered 1 "exists and is not a ceph-local cluster's: not touching it"
		check "  and leaves it alone" test "$(cat "$T/cluster/data")" = precious
	else
		skip "up refuses a directory that is not a cluster's" "$why"
	fi
else
	skip "up on an address no interface has" "Ceph is not installed (host/install-deps)"
fi
done_testing
