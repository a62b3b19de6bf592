#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tool-init-pid1.sh: rapido-init started as an ordinary process (by hand on
# a host) refuses at once instead of mounting, renaming and powering off
# the machine. Run as nobody, so that even an init that forgot the check
# could change nothing here: no mount, no hostname, no console, no reboot.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/guest/rapido-init
if [ ! -x "$bin" ]; then
	echo "SKIP: $bin is not built (run make)"
	exit 77
fi
as_nobody=()
if [ "$(id -u)" = 0 ]; then
	command -v setpriv > /dev/null || { echo "SKIP: running as root and setpriv (util-linux) is missing"; exit 77; }
	as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rapido-init-pid1.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

n=0 failed=0
t() {	# t CONDITION-STATUS NAME
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		sed 's/^/#   stderr: /' "$tmp/err"
	fi
}

# from a directory nobody may write, so a regression cannot leave files here
(cd "$tmp" && timeout 10 "${as_nobody[@]}" "$bin" < /dev/null > "$tmp/out" 2> "$tmp/err")
rc=$?
[ $rc -eq 1 ]; t $? "not PID 1: exits 1 at once (exit $rc; 124 means it went on)"
grep -q "^rapido-init: must run as PID 1 of a rapido image (it mounts, sets the hostname and powers off the machine); this is PID [0-9]*$" "$tmp/err"
t $? "the refusal says why"
[ ! -s "$tmp/out" ]; t $? "nothing on stdout"

echo "1..$n"
[ $failed -eq 0 ]
