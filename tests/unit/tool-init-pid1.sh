#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tool-init-pid1.sh: rapido-init started as an ordinary process (by hand on
# a host) refuses at once instead of mounting, renaming and powering off
# the machine. Run as nobody, so that even an init that forgot the check
# could change nothing here: no mount, no hostname, no console, no reboot.
. "$(dirname "$0")/../tap.sh"
bin=$TOP/build/guest/rapido-init
if [ ! -x "$bin" ]; then
	echo "SKIP: $bin is not built (run make)"
	exit 77
fi
as_nobody=()
if [ "$(id -u)" = 0 ]; then
	command -v setpriv > /dev/null || { echo "SKIP: running as root and setpriv (util-linux) is missing"; exit 77; }
	as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
chmod 755 "$T"
TAP_ON_FAIL=show_run

# from a directory nobody may write, so a regression cannot leave files here
cd "$T" && run timeout 10 "${as_nobody[@]}" "$bin" < /dev/null
check "not PID 1: exits 1 at once (exit $rc; 124 means it went on)" exits 1
check "the refusal says why" grep -q "^rapido-init: must run as PID 1 of a rapido image (it mounts, sets the hostname and powers off the machine); this is PID [0-9]*$" "$T/err"
check "nothing on stdout" test ! -s "$T/out"
done_testing
