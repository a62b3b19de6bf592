#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vmctl-cli.sh: ./vmctl without a VM: its command line, JSON checked before
# any connection (at once, saying where it is wrong), "no VM N" for a
# missing socket and for one nobody listens on, and a fake qemu answering
# with what is not QMP (exit 4, saying what is wrong). tests/boot/vmctl.sh
# drives a live VM.
. "$(dirname "$0")/../tap.sh"
bin=$TOP/vmctl
if [ ! -x "$bin" ]; then
	echo "SKIP: $bin is not built (run make)"
	exit 77
fi
export RAPIDO_CONF=$T/rapido.conf VM_STATE_DIR=$T/state
: > "$RAPIDO_CONF"
TAP_ON_FAIL=show_run

run "$bin" --help
check "--help: usage on stdout, exit 0" eval '[ $rc -eq 0 ] && grep -q "^Usage:" "$T/out" && [ ! -s "$T/err" ]'
check "--help documents exit 4" grep -q "^ 4  VM N is there but did not answer" "$T/out"
run "$bin" --bogus 1 paths
check "unknown option: exit 2" err_is "vmctl: unknown option '--bogus'
Try '$bin --help' for more information."
run "$bin" 1 paths -t
check "options come first: exit 2" eval '[ $rc -eq 2 ] && grep -q "unknown command or wrong arguments: paths" "$T/err"'
run "$bin" --timeout
check "--timeout without a value" err_is "vmctl: option '--timeout' needs an argument
Try '$bin --help' for more information."
run "$bin" --timeout 0 1 paths
check "--timeout 0 refused" eval '[ $rc -eq 2 ] && grep -q -- "--timeout: expected 1 to [0-9]* seconds, got '\''0'\''" "$T/err"'
run "$bin" x paths
check "bad VM number" eval '[ $rc -eq 2 ] && grep -q "VM number: expected a number from 0 to 100000, got '\''x'\''" "$T/err"'
run "$bin" 1 fail 0
check "fail without PATH" eval '[ $rc -eq 2 ] && grep -q "unknown command or wrong arguments: fail" "$T/err"'
run "$bin" 1 restore 0 -1
check "negative PATH" eval '[ $rc -eq 2 ] && grep -q "PATH: expected a number from 0 to 100000, got '\''-1'\''" "$T/err"'

# the JSON is checked before anything else: no VM needed, no waiting
start=$SECONDS
run "$bin" 1 qmp '{bad json'
check "the issue's '{bad json': exit 2 at once" eval '[ $rc -eq 2 ] && [ $((SECONDS - start)) -lt 5 ]'
check "  says where, with a caret" err_is "vmctl: qmp: invalid JSON at line 1, column 2: string or '}' expected near 'bad'
  {bad json
   ^
Try '$bin --help' for more information."
run "$bin" 1 qmp $'{"execute": "device_del",\n\t"arguments": {"id": "mp0p1",}}'
check "trailing comma on line 2" err_is "vmctl: qmp: invalid JSON at line 2, column 30: string or '}' expected near '}' (JSON has no trailing commas)
  	\"arguments\": {\"id\": \"mp0p1\",}}
  	                            ^
Try '$bin --help' for more information."
run "$bin" 1 qmp "{'execute': 'quit'}"
check "single quotes" eval '[ $rc -eq 2 ] && grep -q "column 2: .*(strings take double quotes, not single ones)" "$T/err"'
run "$bin" 1 qmp '{"execute": "quit"} {"execute": "quit"}'
check "two commands in one" eval '[ $rc -eq 2 ] && grep -q "column 21: end of file expected near .{. (one JSON value only)" "$T/err"'
run "$bin" 1 qmp '{"execute": "device_del", "arguments": {"id": "mp0p1", "id": "mp0p2"}}'
check "a key twice" eval '[ $rc -eq 2 ] && grep -q "column 56: duplicate object key near .\"id\"." "$T/err"'
run "$bin" 1 qmp '"query-status"'
check "a string, not an object" eval '[ $rc -eq 2 ] && grep -q "a QMP command is a JSON object, such as .*, not a JSON string" "$T/err"'

# no VM: no socket, or a socket nobody listens on (left by a killed ./vm)
run "$bin" 1 qmp '{"execute": "query-status"}'
check "no socket: no VM 1, exit 3" err_is "vmctl: no VM 1: $VM_STATE_DIR/vm1.qmp does not exist (no ./vm runs as VM 1 with this VM_STATE_DIR)"
check "  exit 3" test $rc -eq 3
mkdir -p -m 0700 "$VM_STATE_DIR"
perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Type => SOCK_STREAM(), Local => $ARGV[0], Listen => 1) or die "$ARGV[0]: $!\n"' \
	"$VM_STATE_DIR/vm2.qmp"
run "$bin" 2 fail 0 1
check "stale socket: no VM 2" err_is "vmctl: no VM 2: nothing listens on $VM_STATE_DIR/vm2.qmp (a socket left by a VM that is gone)"
check "  exit 3" test $rc -eq 3

# fake_qemu N REPLY: a QMP monitor on VM N's socket (listening when this
# returns) that greets, takes qmp_capabilities and answers the next command
# with REPLY (its lines), then waits for the client to go
fake_qemu() {
	perl -MIO::Socket::UNIX -e '
		my $l = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Local => $ARGV[0], Listen => 1)
			or die "$ARGV[0]: $!\n";
		defined(my $pid = fork) or die "fork: $!\n";
		exit 0 if $pid;
		alarm 60;
		my $c = $l->accept or exit 1;
		$c->autoflush(1);
		print $c "{\"QMP\": {\"version\": {}, \"capabilities\": []}}\n";
		<$c>;
		print $c "{\"return\": {}}\n";
		<$c>;
		print $c "$ARGV[1]\n";
		1 while <$c>;' "$VM_STATE_DIR/vm$1.qmp" "$2"
}
# a VM that answers with what is not QMP: exit 4, saying what is wrong and quoting it
echo "mp0p0 0 0 2 /var/tmp/disk.img" > "$VM_STATE_DIR/vm3.mpath"
fake_qemu 3 '{"return": {"name": "mp0p0", "type": "child<scsi-hd>"}}'
run "$bin" 3 paths
check "qom-list's return not an array: exit 4" test $rc -eq 4
check "  says so" err_is 'vmctl: VM 3: qemu'"'"'s answer to qom-list is not QMP: "return" is not an array of properties: {"return": {"name": "mp0p0", "type": "child<scsi-hd>"}}'
fake_qemu 4 '{"return": {"status": "running"}'
run "$bin" 4 qmp '{"execute": "query-status"}'
check "a reply cut short: exit 4" eval '[ $rc -eq 4 ] && [ ! -s "$T/out" ]'
check "  says where it is not JSON" err_is 'vmctl: VM 4: qemu'"'"'s answer to the command is not QMP: not JSON at byte 32: '"'}'"' expected near end of file: '"'"'{"return": {"status": "running"}'"'"
fake_qemu 5 '{"error": {"class": "GenericError", "desc": 5}}'
run "$bin" 5 qmp '{"execute": "query-status"}'
check "an error whose desc is a number: exit 4, not qemu refusing" test $rc -eq 4
check "  says so" grep -q "the error's \"desc\" is not a string" "$T/err"
fake_qemu 6 $'{"timestamp": {"seconds": 1}, "event": "STOP"}\n{"return": {"status": "paused"}}'
run "$bin" 6 qmp '{"execute": "query-status"}'
check "an event before the reply: the reply printed" eval '[ $rc -eq 0 ] && [ "$(cat "$T/out")" = '"'"'{"return": {"status": "paused"}}'"'"' ]'

# issue 42: no N: the one VM that runs with this VM_STATE_DIR. serve N REPLY:
# a QMP monitor on VM N's socket taking one client after another (the
# first may be vmctl's look whether it listens), in the background
serve() {
	perl -MIO::Socket::UNIX -e '
		my $l = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Local => $ARGV[0], Listen => 5)
			or die "$ARGV[0]: $!\n";
		$SIG{PIPE} = "IGNORE";
		alarm 60;
		while (my $c = $l->accept) {
			$c->autoflush(1);
			print $c "{\"QMP\": {\"version\": {}, \"capabilities\": []}}\n";
			defined(<$c>) or next;
			print $c "{\"return\": {}}\n";
			<$c>;
			print $c "$ARGV[1]\n";
			1 while <$c>;
		}' "$VM_STATE_DIR/vm$1.qmp" "$2" &
	for _ in $(seq 100); do
		[ -S "$VM_STATE_DIR/vm$1.qmp" ] && return
		sleep 0.1
	done
}
rm -f "$VM_STATE_DIR"/vm*.qmp
run "$bin" shell
check "no N and no VM runs: exit 3" eval '[ $rc -eq 3 ] && grep -q "no VM runs with this VM_STATE_DIR ($VM_STATE_DIR)" "$T/err"'
serve 7 '{"return": {"status": "running"}}'
a=$!
serve 8 '{"return": {"status": "running"}}'
b=$!
run "$bin" exec true
check "no N and two VMs run: exit 3 naming them" \
	eval '[ $rc -eq 3 ] && grep -qE "2 VMs run \((7, 8|8, 7)\): say which, as .vmctl N COMMAND." "$T/err"'
kill $b
wait $b 2> /dev/null
run "$bin" qmp '{"execute": "query-status"}'
check "no N and one VM runs: that one" eval '[ $rc -eq 0 ] && [ "$(cat "$T/out")" = '"'"'{"return": {"status": "running"}}'"'"' ]'
kill $a
wait $a 2> /dev/null

done_testing
