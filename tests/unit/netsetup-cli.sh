#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# netsetup-cli.sh: ./netsetup, first without root and without touching a
# network device: its command line, every bad rapido.conf value named with its
# source, the root check, and the ip commands --dry-run prints for a
# namespace that does not exist (so nothing there can exist either). As
# root, in a namespace it makes: netsetup refuses, by name and before any
# change, devices it did not make (a veth, a bridge) and removes only its own.
# tests/boot/net-bridge.sh runs it for real in a namespace.
. "$(dirname "$0")/../tap.sh"
bin=$TOP/netsetup
if [ ! -x "$bin" ]; then
	echo "SKIP: $bin is not built (run make)"
	exit 77
fi
export RAPIDO_CONF=$T/rapido.conf
unset BR_DEV BR_ADDR TAP_DEVS TAP_USER SUDO_USER
: > "$RAPIDO_CONF"
# a namespace name nobody has: ip -n fails for it, so every device is "absent"
ns=rapido-unit-nosuch-$$
TAP_ON_FAIL=show_run
usage_hint="Try '$bin --help' for more information."

run "$bin" --help
check "--help: usage on stdout, exit 0" eval '[ $rc -eq 0 ] && grep -q "^ netsetup \[options\] up" "$T/out" && [ ! -s "$T/err" ]'
run "$bin"
check "no verb" fails_with 1 "netsetup: expected 'up' or 'down'
$usage_hint"
run "$bin" sideways
check "a bad verb" fails_with 1 "netsetup: expected 'up' or 'down'
$usage_hint"
run "$bin" up down
check "two verbs" fails_with 1 "netsetup: expected 'up' or 'down'
$usage_hint"
run "$bin" --bogus up
check "unknown option" eval '[ $rc -eq 1 ] && grep -q "unrecognized option '\''--bogus'\''" "$T/err" && tail -n 1 "$T/err" | grep -qxF "$usage_hint"'
run "$bin" --netns '' -n up
check "--netns ''" fails_with 1 "netsetup: --netns: '' is not a valid namespace name"
run "$bin" --netns a/b -n up
check "--netns with a '/'" fails_with 1 "netsetup: --netns: 'a/b' is not a valid namespace name"

# rapido.conf values, named by FILE:LINE or the environment
printf 'BR_DEV=rapido-br0\nBR_ADDR=192.168.155.300/24\n' > "$RAPIDO_CONF"
run "$bin" -n up
check "bad BR_ADDR: file and line" fails_with 1 "netsetup: $RAPIDO_CONF:2: BR_ADDR: expected an IPv4 address with prefix length such as 192.168.155.1/24, got '192.168.155.300/24'"
BR_ADDR=10.1.2.3 run "$bin" -n up
check "bad BR_ADDR from the environment, which wins" fails_with 1 "netsetup: environment: BR_ADDR: expected an IPv4 address with prefix length such as 192.168.155.1/24, got '10.1.2.3'"
BR_ADDR=192.168.155.1/0 run "$bin" -n up
check "BR_ADDR with a /0 prefix (it would take the host's routes)" fails_with 1 "netsetup: environment: BR_ADDR: prefix /0: expected /8 to /30 (a bridge with a shorter one would take over the host's routes), got '192.168.155.1/0'"
BR_ADDR=0.0.0.0/24 run "$bin" -n up
check "BR_ADDR 0.0.0.0/24" fails_with 1 "netsetup: environment: BR_ADDR: expected a network inside a private range (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16) such as 192.168.155.1/24, got '0.0.0.0/24'"
BR_ADDR=10.1.2.255/24 run "$bin" -n up
check "BR_ADDR a broadcast address" fails_with 1 "netsetup: environment: BR_ADDR: that is the broadcast address of its network: expected a host address such as 192.168.155.1/24, got '10.1.2.255/24'"
printf 'TAP_DEVS="tap0 '\''tap1"\n' > "$RAPIDO_CONF"
run "$bin" -n up
check "TAP_DEVS with an unterminated quote" fails_with 1 "netsetup: $RAPIDO_CONF:1: TAP_DEVS: unterminated single quote in \"'tap1\""
printf 'TAP_DEVS="tap0 rapido-tap-16char"\n' > "$RAPIDO_CONF"
run "$bin" -n down
check "a TAP name of 16 characters" fails_with 1 "netsetup: $RAPIDO_CONF:1: TAP_DEVS: 'rapido-tap-16char' is not a valid interface name (1-15 characters, no '/', ',', ':' or blank, not '.' or '..')"
printf 'TAP_DEVS="a/b"\n' > "$RAPIDO_CONF"
run "$bin" -n up
check "a TAP name with a '/'" fails_with 1 "netsetup: $RAPIDO_CONF:1: TAP_DEVS: 'a/b' is not a valid interface name (1-15 characters, no '/', ',', ':' or blank, not '.' or '..')"
# issue 33, item 14: a name listed twice would be one TAP for two VMs
printf 'TAP_DEVS="tap1 tap1"\n' > "$RAPIDO_CONF"
run "$bin" -n up
check "a TAP name listed twice" fails_with 1 "netsetup: $RAPIDO_CONF:1: TAP_DEVS: 'tap1' is listed twice (each VM needs its own TAP device)"
printf 'BR_DEV=br/0\n' > "$RAPIDO_CONF"
run "$bin" -n up
check "a bridge name with a '/'" fails_with 1 "netsetup: $RAPIDO_CONF:1: BR_DEV: 'br/0' is not a valid interface name (1-15 characters, no '/', ',', ':' or blank, not '.' or '..')"
: > "$RAPIDO_CONF"
TAP_USER=rapido-no-such-user run "$bin" -n up
check "unknown TAP_USER" fails_with 1 "netsetup: TAP_USER: no such user 'rapido-no-such-user'"
SUDO_USER=rapido-no-such-user run "$bin" -n up
check "unknown SUDO_USER (the default owner)" fails_with 1 "netsetup: TAP_USER: no such user 'rapido-no-such-user'"
printf 'OK=1\nBR_DEV=$(touch %s/pwned)\n' "$T" > "$RAPIDO_CONF"
run "$bin" -n up
check "shell code in rapido.conf: file and line" eval '[ $rc -eq 1 ] && grep -q "^netsetup: $RAPIDO_CONF:2: command substitution" "$T/err"'
check "  not run" test ! -e "$T/pwned"
RAPIDO_CONF=$T/missing.conf run "$bin" -n up
check "RAPIDO_CONF that does not exist" eval '[ $rc -eq 1 ] && grep -q "^netsetup: $T/missing.conf: No such file or directory" "$T/err"'
: > "$RAPIDO_CONF"

# without root: refused before any ip command, unless --dry-run
if command -v setpriv > /dev/null && [ "$(id -u)" -eq 0 ]; then
	chmod 755 "$T"
	asuser() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
elif [ "$(id -u)" -ne 0 ]; then
	asuser() { "$@"; }
fi
if declare -F asuser > /dev/null; then
	run asuser "$bin" up
	check "up without root" fails_with 1 "netsetup: must run as root to create network devices (try: sudo ./netsetup up)"
	run asuser "$bin" --netns "$ns" down
	check "down without root" fails_with 1 "netsetup: must run as root to remove network devices (try: sudo ./netsetup down)"
	run asuser "$bin" -n --netns "$ns" up
	check "--dry-run needs no root" eval '[ $rc -eq 0 ] && [ -s "$T/out" ]'
else
	skip "up without root" "running as root without setpriv"
	skip "down without root" "running as root without setpriv"
	skip "--dry-run needs no root" "running as root without setpriv"
fi

# --dry-run: the plan from rapido.conf, for a namespace that does not exist
printf 'BR_DEV=br-unit\nBR_ADDR=10.9.8.1/24\nTAP_DEVS="t-a t-b"\nTAP_USER=nobody\n' > "$RAPIDO_CONF"
run "$bin" -n --netns "$ns" up
check "--dry-run up: exit 0" test $rc -eq 0
check "  makes the namespace, loopback, bridge with address, TAPs owned by TAP_USER" \
	test "$(cat "$T/out")" = "ip netns add $ns
ip -n $ns link set lo up
ip -n $ns link add br-unit type bridge
ip -n $ns link set br-unit alias 'made by rapido netsetup'
ip -n $ns address replace 10.9.8.1/24 dev br-unit
ip -n $ns link set br-unit up
ip -n $ns tuntap add dev t-a mode tap user nobody
ip -n $ns link set t-a alias 'made by rapido netsetup'
ip -n $ns link set t-a master br-unit
ip -n $ns link set t-a up
ip -n $ns tuntap add dev t-b mode tap user nobody
ip -n $ns link set t-b alias 'made by rapido netsetup'
ip -n $ns link set t-b master br-unit
ip -n $ns link set t-b up"
check "  and made nothing" test ! -e "/run/netns/$ns"
run "$bin" --netns "$ns" down
check "down in a namespace that does not exist: nothing to do" eval '[ $rc -eq 0 ] && [ "$(cat "$T/out")" = "network namespace $ns does not exist: nothing to remove" ]'
# issue 40, item 11: a bridge that is one of its own TAPs is refused before anything
printf 'BR_DEV=t-a\nTAP_DEVS="t-a t-b"\n' > "$RAPIDO_CONF"
run "$bin" -n --netns "$ns" up
check "BR_DEV also in TAP_DEVS" fails_with 1 "netsetup: $RAPIDO_CONF:1: BR_DEV: 't-a' is also in TAP_DEVS: the bridge and each TAP need names of their own"

# issue 40, item 11: as root, in a namespace of this test's own (never the
# host's interfaces), netsetup touches only the devices it made
why=$(netns_or_why "$ns")
if [ -z "$why" ]; then
	trap 'ip netns del "$ns" 2> /dev/null; [ -n "${KEEP_TEST_DIR:-}" ] || rm -rf "$T"' EXIT
	ip -n "$ns" link add vx0 type veth peer name vx1 && ip -n "$ns" addr add 10.9.7.1/24 dev vx0 &&
		ip -n "$ns" link add brx type bridge || echo "Bail out! cannot make the test's devices"
	untouched() {	# the test's own devices as made: no master, vx0's address
		[ "$(ip -n "$ns" -o link show master br-unit 2> /dev/null)" = "" ] &&
			ip -n "$ns" -o link show dev vx0 | grep -qv master &&
			ip -n "$ns" -o addr show dev vx0 | grep -q 10.9.7.1/24 &&
			ip -n "$ns" link show dev vx1 > /dev/null && ip -n "$ns" link show dev brx > /dev/null
	}
	printf 'BR_DEV=br-unit\nBR_ADDR=10.9.8.1/24\nTAP_DEVS="t-a vx0"\nTAP_USER=nobody\n' > "$RAPIDO_CONF"
	run "$bin" --netns "$ns" up
	check "up with an existing veth in TAP_DEVS: refused by name" \
		fails_with 1 "netsetup: TAP_DEVS vx0: not made by ./netsetup (no ifalias 'made by rapido netsetup' in netns $ns): not using it; name other devices in rapido.conf, or remove it by hand"
	check "  before anything changed: no bridge, no TAP, the veth as it was" \
		eval 'untouched && ! ip -n "$ns" link show dev br-unit 2> /dev/null && ! ip -n "$ns" link show dev t-a 2> /dev/null'
	printf 'BR_DEV=brx\nBR_ADDR=10.9.8.1/24\nTAP_DEVS=t-a\nTAP_USER=nobody\n' > "$RAPIDO_CONF"
	run "$bin" --netns "$ns" up
	check "up with an existing bridge as BR_DEV: refused" fails_with 1 "netsetup: BR_DEV brx: not made by ./netsetup (no ifalias 'made by rapido netsetup' in netns $ns): not using it; name other devices in rapido.conf, or remove it by hand"
	check "  its address unchanged" eval '! ip -n "$ns" -o addr show dev brx | grep -q 10.9.8.1'
	printf 'BR_DEV=vx0\nTAP_DEVS="vx1 t-a"\n' > "$RAPIDO_CONF"
	run "$bin" --netns "$ns" down
	check "down with veths as BR_DEV and TAP_DEVS: both refused by name" fails_with 1 "netsetup: BR_DEV vx0, TAP_DEVS vx1: not made by ./netsetup (no ifalias 'made by rapido netsetup' in netns $ns): not removing them; name other devices in rapido.conf, or remove them by hand"
	check "  and not removed" untouched
	printf 'BR_DEV=br-unit\nBR_ADDR=10.9.8.1/24\nTAP_DEVS="t-a t-b"\nTAP_USER=nobody\n' > "$RAPIDO_CONF"
	run "$bin" --netns "$ns" up
	check "up with devices of its own: exit 0" eval '[ $rc -eq 0 ] &&
		[ "$(ip -n "$ns" -o link show master br-unit | grep -c "alias made by rapido netsetup")" = 2 ]'
	run "$bin" --netns "$ns" up
	check "  again: its own devices reused" test $rc -eq 0
	run "$bin" --netns "$ns" down
	check "down removes its own, and only those" eval '[ $rc -eq 0 ] &&
		! ip -n "$ns" link show dev br-unit 2> /dev/null && ! ip -n "$ns" link show dev t-a 2> /dev/null &&
		ip -n "$ns" link show dev vx0 > /dev/null && ip -n "$ns" link show dev brx > /dev/null'
else
	skip "netsetup in a namespace of its own" "$why"
fi

done_testing
