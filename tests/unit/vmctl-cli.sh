#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vmctl-cli.sh: ./vmctl without a VM: its command line, JSON checked before
# any connection (at once, saying where it is wrong), and "no VM N" for a
# missing socket and for one nobody listens on. tests/boot/vmctl.sh drives
# a live VM.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/vmctl
if [ ! -x "$bin" ]; then
	echo "SKIP: $bin is not built (run make)"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rapido-vmctl-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export RAPIDO_CONF=$tmp/rapido.conf VM_STATE_DIR=$tmp/state
: > "$RAPIDO_CONF"

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
# err_is TEXT: stderr is exactly TEXT
err_is() { [ "$(cat "$tmp/err")" = "$1" ]; }

run --help
t "--help: usage on stdout, exit 0" eval '[ $rc -eq 0 ] && grep -q "^Usage:" "$tmp/out" && [ ! -s "$tmp/err" ]'
t "--help documents exit 4" grep -q "^ 4  VM N is there but did not answer" "$tmp/out"
run --bogus 1 paths
t "unknown option: exit 2" err_is "vmctl: unknown option '--bogus'
Try 'vmctl --help' for more information."
run 1 paths -t
t "options come first: exit 2" eval '[ $rc -eq 2 ] && grep -q "unknown command or wrong arguments: paths" "$tmp/err"'
run --timeout
t "--timeout without a value" err_is "vmctl: option '--timeout' needs an argument
Try 'vmctl --help' for more information."
run --timeout 0 1 paths
t "--timeout 0 refused" eval '[ $rc -eq 2 ] && grep -q -- "--timeout: expected 1 to [0-9]* seconds, got '\''0'\''" "$tmp/err"'
run x paths
t "bad VM number" eval '[ $rc -eq 2 ] && grep -q "VM number: expected a number, got '\''x'\''" "$tmp/err"'
run 1 fail 0
t "fail without PATH" eval '[ $rc -eq 2 ] && grep -q "unknown command or wrong arguments: fail" "$tmp/err"'
run 1 restore 0 -1
t "negative PATH" eval '[ $rc -eq 2 ] && grep -q "PATH: expected a number, got '\''-1'\''" "$tmp/err"'

# the JSON is checked before anything else: no VM needed, no waiting
start=$SECONDS
run 1 qmp '{bad json'
t "the issue's '{bad json': exit 2 at once" eval '[ $rc -eq 2 ] && [ $((SECONDS - start)) -lt 5 ]'
t "  says where, with a caret" err_is "vmctl: qmp: invalid JSON at line 1, column 2: expected '\"' starting a member name, or '}', got 'b'
  {bad json
   ^
Try 'vmctl --help' for more information."
run 1 qmp $'{"execute": "device_del",\n\t"arguments": {"id": "mp0p1",}}'
t "trailing comma on line 2" err_is "vmctl: qmp: invalid JSON at line 2, column 30: '}' after ',': JSON has no trailing commas
  	\"arguments\": {\"id\": \"mp0p1\",}}
  	                            ^
Try 'vmctl --help' for more information."
run 1 qmp "{'execute': 'quit'}"
t "single quotes" eval '[ $rc -eq 2 ] && grep -q "column 2: strings take double quotes, not single ones" "$tmp/err"'
run 1 qmp '{"execute": "quit"} {"execute": "quit"}'
t "two commands in one" eval '[ $rc -eq 2 ] && grep -q "column 21: expected nothing after the value (one JSON value only)" "$tmp/err"'
run 1 qmp '"query-status"'
t "a string, not an object" eval '[ $rc -eq 2 ] && grep -q "a QMP command is a JSON object, such as .*, not a JSON string" "$tmp/err"'

# no VM: no socket, or a socket nobody listens on (left by a killed ./vm)
run 1 qmp '{"execute": "query-status"}'
t "no socket: no VM 1, exit 3" err_is "vmctl: no VM 1: $VM_STATE_DIR/vm1.qmp does not exist (no ./vm runs as VM 1 with this VM_STATE_DIR)"
t "  exit 3" test $rc -eq 3
mkdir -p "$VM_STATE_DIR"
perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Type => SOCK_STREAM(), Local => $ARGV[0], Listen => 1) or die "$ARGV[0]: $!\n"' \
	"$VM_STATE_DIR/vm2.qmp"
run 2 fail 0 1
t "stale socket: no VM 2" err_is "vmctl: no VM 2: nothing listens on $VM_STATE_DIR/vm2.qmp (a socket left by a VM that is gone)"
t "  exit 3" test $rc -eq 3

echo "1..$n"
[ $failed -eq 0 ]
