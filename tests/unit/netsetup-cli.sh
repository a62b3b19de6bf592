#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# netsetup-cli.sh: ./netsetup without root and without touching a network
# device: its command line, every bad rapido.conf value named with its
# source, the root check, and the ip commands --dry-run prints for a
# namespace that does not exist (so nothing there can exist either).
# tests/boot/net-bridge.sh runs it for real in a namespace.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/netsetup
if [ ! -x "$bin" ]; then
	echo "SKIP: $bin is not built (run make)"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rapido-netsetup-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export RAPIDO_CONF=$tmp/rapido.conf
unset BR_DEV BR_ADDR TAP_DEVS TAP_USER SUDO_USER
: > "$RAPIDO_CONF"
# a namespace name nobody has: ip -n fails for it, so every device is "absent"
ns=rapido-unit-nosuch-$$

n=0 failed=0
t() {	# t NAME COMMAND...: ok if COMMAND succeeds
	local name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $name"
	else
		failed=$((failed + 1))
		echo "not ok $n - $name (exit $rc)"
		sed 's/^/#   stdout: /' "$tmp/out"
		sed 's/^/#   stderr: /' "$tmp/err"
	fi
}
run() { "$bin" "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?; }
# fails_with STATUS TEXT: exit STATUS, stderr exactly TEXT, nothing on stdout
fails_with() { [ $rc -eq "$1" ] && [ "$(cat "$tmp/err")" = "$2" ] && [ ! -s "$tmp/out" ]; }
usage_hint="Try 'netsetup --help' for more information."

run --help
t "--help: usage on stdout, exit 0" eval '[ $rc -eq 0 ] && grep -q "^ netsetup \[options\] up" "$tmp/out" && [ ! -s "$tmp/err" ]'
run
t "no verb" fails_with 1 "netsetup: expected 'up' or 'down'
$usage_hint"
run sideways
t "a bad verb" fails_with 1 "netsetup: expected 'up' or 'down'
$usage_hint"
run up down
t "two verbs" fails_with 1 "netsetup: expected 'up' or 'down'
$usage_hint"
run --bogus up
t "unknown option" eval '[ $rc -eq 1 ] && grep -q "unrecognized option '\''--bogus'\''" "$tmp/err" && tail -n 1 "$tmp/err" | grep -qxF "$usage_hint"'
run --netns '' -n up
t "--netns ''" fails_with 1 "netsetup: --netns: '' is not a valid namespace name"
run --netns a/b -n up
t "--netns with a '/'" fails_with 1 "netsetup: --netns: 'a/b' is not a valid namespace name"

# rapido.conf values, named by FILE:LINE or the environment
printf 'BR_DEV=rapido-br0\nBR_ADDR=192.168.155.300/24\n' > "$RAPIDO_CONF"
run -n up
t "bad BR_ADDR: file and line" fails_with 1 "netsetup: $RAPIDO_CONF:2: BR_ADDR: expected an IPv4 address with prefix length such as 192.168.155.1/24, got '192.168.155.300/24'"
BR_ADDR=10.1.2.3 run -n up
t "bad BR_ADDR from the environment, which wins" fails_with 1 "netsetup: environment: BR_ADDR: expected an IPv4 address with prefix length such as 192.168.155.1/24, got '10.1.2.3'"
printf 'TAP_DEVS="tap0 '\''tap1"\n' > "$RAPIDO_CONF"
run -n up
t "TAP_DEVS with an unterminated quote" fails_with 1 "netsetup: TAP_DEVS: unterminated single quote in \"'tap1\""
printf 'TAP_DEVS="tap0 rapido-tap-16char"\n' > "$RAPIDO_CONF"
run -n down
t "a TAP name of 16 characters" fails_with 1 "netsetup: TAP_DEVS: 'rapido-tap-16char' is not a valid interface name (1-15 characters, no '/')"
printf 'TAP_DEVS="a/b"\n' > "$RAPIDO_CONF"
run -n up
t "a TAP name with a '/'" fails_with 1 "netsetup: TAP_DEVS: 'a/b' is not a valid interface name (1-15 characters, no '/')"
printf 'BR_DEV=br/0\n' > "$RAPIDO_CONF"
run -n up
t "a bridge name with a '/'" fails_with 1 "netsetup: BR_DEV: 'br/0' is not a valid interface name"
: > "$RAPIDO_CONF"
TAP_USER=rapido-no-such-user run -n up
t "unknown TAP_USER" fails_with 1 "netsetup: TAP_USER: no such user 'rapido-no-such-user'"
SUDO_USER=rapido-no-such-user run -n up
t "unknown SUDO_USER (the default owner)" fails_with 1 "netsetup: TAP_USER: no such user 'rapido-no-such-user'"
printf 'OK=1\nBR_DEV=$(touch %s/pwned)\n' "$tmp" > "$RAPIDO_CONF"
run -n up
t "shell code in rapido.conf: file and line" eval '[ $rc -eq 1 ] && grep -q "^netsetup: $RAPIDO_CONF:2: command substitution" "$tmp/err"'
t "  not run" test ! -e "$tmp/pwned"
RAPIDO_CONF=$tmp/missing.conf run -n up
t "RAPIDO_CONF that does not exist" eval '[ $rc -eq 1 ] && grep -q "^netsetup: $tmp/missing.conf: No such file or directory" "$tmp/err"'
: > "$RAPIDO_CONF"

# without root: refused before any ip command, unless --dry-run
if command -v setpriv > /dev/null && [ "$(id -u)" -eq 0 ]; then
	chmod 755 "$tmp"
	asuser() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
elif [ "$(id -u)" -ne 0 ]; then
	asuser() { "$@"; }
fi
if declare -F asuser > /dev/null; then
	asuser "$bin" up > "$tmp/out" 2> "$tmp/err"
	rc=$?
	t "up without root" fails_with 1 "netsetup: must run as root to create network devices (try: sudo ./netsetup up)"
	asuser "$bin" --netns "$ns" down > "$tmp/out" 2> "$tmp/err"
	rc=$?
	t "down without root" fails_with 1 "netsetup: must run as root to remove network devices (try: sudo ./netsetup down)"
	asuser "$bin" -n --netns "$ns" up > "$tmp/out" 2> "$tmp/err"
	rc=$?
	t "--dry-run needs no root" eval '[ $rc -eq 0 ] && [ -s "$tmp/out" ]'
else
	for _ in 1 2 3; do
		n=$((n + 1))
		echo "ok $n - root check # SKIP running as root without setpriv"
	done
fi

# --dry-run: the plan from rapido.conf, for a namespace that does not exist
printf 'BR_DEV=br-unit\nBR_ADDR=10.9.8.1/24\nTAP_DEVS="t-a t-b"\nTAP_USER=nobody\n' > "$RAPIDO_CONF"
run -n --netns "$ns" up
t "--dry-run up: exit 0" test $rc -eq 0
t "  makes the namespace, loopback, bridge with address, TAPs owned by TAP_USER" \
	test "$(cat "$tmp/out")" = "ip netns add $ns
ip -n $ns link set lo up
ip -n $ns link add br-unit type bridge
ip -n $ns address replace 10.9.8.1/24 dev br-unit
ip -n $ns link set br-unit up
ip -n $ns tuntap add dev t-a mode tap user nobody
ip -n $ns link set t-a master br-unit
ip -n $ns link set t-a up
ip -n $ns tuntap add dev t-b mode tap user nobody
ip -n $ns link set t-b master br-unit
ip -n $ns link set t-b up"
t "  and made nothing" test ! -e "/run/netns/$ns"
run --netns "$ns" down
t "down in a namespace that does not exist: nothing to do" eval '[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "network namespace $ns does not exist: nothing to remove" ]'

echo "1..$n"
[ $failed -eq 0 ]
