#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vmctl.sh: ./vmctl against a live VM (simple, two multipath paths, waiting
# for the host). Bad JSON is refused at once with where it is wrong, not
# after 30 s as "not running"; qemu's own refusals, a live VM that does not
# answer (its monitor held by another client) and a VM that has gone give
# different words and exit codes; failing a path twice or restoring it twice
# says it already is, and changes nothing. exec is binary-safe: stdout byte
# for byte (NULs, CRs, 64 KiB of random bytes, no newline added), stderr
# apart, the exact exit status. A dynamic host program in the share runs
# (the loader and libc, which simple's static programs leave out of a
# boot without a share, are in one with it: the libs layer, build.c).
# Without a VM: unit/vmctl-cli.sh.
. "$(dirname "$0")/lib.sh"

VMCTL=$TOP/vmctl
# vmctl ARGS...: run ./vmctl; rc and out (stdout) set, stderr in $T/err
vmctl() {
	"$VMCTL" "$@" > "$T/out" 2> "$T/err"
	rc=$?
	out=$(cat "$T/out")
}
# vmctl_raw ARGS...: run ./vmctl; rc set, stdout's bytes as they are in $T/out, stderr in $T/err
vmctl_raw() {
	"$VMCTL" "$@" > "$T/out" 2> "$T/err"
	rc=$?
}
# same_bytes FILE: $T/out holds exactly FILE's bytes (sha256 of both shown if not)
same_bytes() {
	local want got
	want=$(sha256sum < "$1") got=$(sha256sum < "$T/out")
	[ "$want" = "$got" ] && return 0
	echo "#   want $want ($(stat -c %s "$1") bytes)"
	echo "#   got  $got ($(stat -c %s "$T/out") bytes): $(head -c 64 "$T/out" | od -An -c | head -n 2 | tr -s ' ')"
	false
}
# says TEXT: stderr holds TEXT (a fixed string)
says() {
	grep -qF -- "$1" "$T/err" || { sed 's/^/#   stderr: /' "$T/err"; false; }
}
# hold_socket PATH SECS: a QMP client that connects and then sits there
hold_socket() {
	perl -MIO::Socket::UNIX -e '
		my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Peer => $ARGV[0])
			or die "connect $ARGV[0]: $!\n";
		$| = 1; print "connected\n"; sleep $ARGV[1];' "$1" "$2"
}

# --- a live VM: it says its number in the share, then waits for /host/stop ---
"$CUT" simple -x 'echo "$RAPIDO_VM" > /host/vm || exit 1
while [ ! -e /host/stop ]; do sleep 0.2; done; echo "rapido: told to stop"' > "$T/cut.out" 2>&1
crc=$?
expect_rc "cut simple with a waiting extra" 0 $crc
[ $crc = 0 ] || { sed 's/^/# /' "$T/cut.out"; done_testing; exit; }
truncate -s 16M "$T/disk0"
mkdir "$T/share"
"$VM" --batch --timeout 400 --mpath "$T/disk0" --share "$T/share" > "$T/console" 2>&1 &
vmpid=$!
end=$((SECONDS + 300))
while [ ! -s "$T/share/vm" ] && kill -0 $vmpid 2> /dev/null && [ $SECONDS -lt $end ]; do
	sleep 0.5
done
N=$(cat "$T/share/vm" 2> /dev/null)
if ! [[ $N =~ ^[0-9]+$ ]]; then
	not_ok "the guest came up and said its VM number"
	kill $vmpid 2> /dev/null
	wait $vmpid
	guest_text "$T/console" | tail -n 30 | sed 's/^/# /'
	done_testing
	exit
fi
ok "the guest came up as VM $N"
sock=$VM_STATE_DIR/vm$N.qmp

start=$SECONDS
vmctl "$N" qmp '{"execute": "query-status"'
expect_rc "unclosed JSON to a live VM: refused" 2 $rc
check "  at once ($((SECONDS - start)) s), not after a 30 s wait" test $((SECONDS - start)) -lt 5
check "  says the object is not closed" says "invalid JSON at line 1, column 27: '}' expected near end of file"
check "  never says the VM is not running" eval '! grep -qi "not running\|no VM" "$T/err"'

vmctl "$N" qmp '{"execute": "query-status"}'
expect_rc "query-status" 0 $rc
check "  reply printed" eval '[[ $out == *"\"status\": \"running\""* ]]'
vmctl "$N" qmp '{"execute": "no-such-command"}'
expect_rc "a command qemu does not know" 1 $rc
check "  qemu's own message" says "vmctl: qemu: The command no-such-command has not been found"

vmctl "$N" paths
expect_rc "paths" 0 $rc
check "  both attached" test "$(grep -c ' attached$' "$T/out")" = 2

vmctl "$N" fail 0 1
expect_rc "fail 0 1" 0 $rc
check "  says so" test "$out" = "vm$N: path mp0p1 failed"
vmctl "$N" fail 0 1
expect_rc "fail 0 1 again: refused" 1 $rc
check "  says the path is already failed" says "vmctl: VM $N: path mp0p1 (disk 0, path 1) is already failed: it is not attached ('vmctl $N restore 0 1' plugs it back)"
check "  not qemu's raw message" eval '! grep -q "not found" "$T/err"'
vmctl "$N" paths
check "paths: mp0p1 failed, mp0p0 attached" eval 'grep -q "^mp0p1 .* failed$" "$T/out" && grep -q "^mp0p0 .* attached$" "$T/out"'

vmctl "$N" restore 0 1
expect_rc "restore 0 1" 0 $rc
vmctl "$N" restore 0 1
expect_rc "restore 0 1 again: refused" 1 $rc
check "  says the path is already present" says "vmctl: VM $N: path mp0p1 (disk 0, path 1) is already present: it is attached, nothing to restore"
check "  not qemu's raw message" eval '! grep -q "Duplicate" "$T/err"'
vmctl "$N" paths
check "paths: both attached again" test "$(grep -c ' attached$' "$T/out")" = 2
vmctl "$N" restore 0 7
expect_rc "restore of a path the VM never had" 2 $rc
check "  named" says "VM $N has no multipath path mp0p7"

# exec is binary-safe: the command's stdout arrives byte for byte (NULs, a
# lone \r, no newline added at the end), its stderr apart, its exit status
# exact; lines written to the console meanwhile (as the kernel's would be)
# are not part of the output
printf 'a\0b\rc\r\n\0\0\nd' > "$T/want"
vmctl_raw "$N" exec "printf 'a\\0b\\rc\\r\\n\\0\\0\\nd'"
expect_rc "exec: NULs, a lone CR, no final newline" 0 $rc
check "  the same bytes on stdout" same_bytes "$T/want"
head -c 65536 /dev/urandom > "$T/share/rand"
vmctl_raw "$N" exec 'cat /host/rand'
expect_rc "exec: 64 KiB of random bytes" 0 $rc
check "  the same sha256 on stdout" same_bytes "$T/share/rand"
printf 'out\n' > "$T/want"
vmctl_raw "$N" exec 'echo out; echo err >&2; echo "[    1.234567] rapido: a line on the console, not in the output" > /dev/tty'
expect_rc "exec: stdout, stderr and a line on the console itself" 0 $rc
check "  stdout holds only stdout" same_bytes "$T/want"
check "  stderr on stderr" says "err"
printf 'partial\0' > "$T/want"
vmctl_raw "$N" exec 'printf "partial\0"; exit 42'
expect_rc "exec: the command's non-zero status" 42 $rc
check "  and its output up to there" same_bytes "$T/want"
: > "$T/want"
vmctl_raw "$N" exec true
expect_rc "exec: no output" 0 $rc
check "  no bytes at all" same_bytes "$T/want"
# a reproducer built on the host is dynamic: a boot with a share gets the
# loader and libc from ./vm (the libs layer's condition), though no
# program of simple's image asks for them (exit 127 without)
if printf '#include <stdio.h>\nint main(void) { puts("dynamic: ran"); return 7; }\n' |
	cc -x c -o "$T/share/dyn" - 2> "$T/cc.err" && readelf -l "$T/share/dyn" | grep -q "program interpreter"; then
	printf 'dynamic: ran\n' > "$T/want"
	vmctl_raw "$N" exec /host/dyn
	expect_rc "exec: a dynamic host program from the share (./vm --share)" 7 $rc
	check "  its output" same_bytes "$T/want"
else
	skip "exec: a dynamic host program from the share" "cc cannot build a dynamic program: $(head -c 200 "$T/cc.err")"
	skip "  its output" "no program"
fi

# another client holds the monitor: VM N is alive but cannot answer
hold_socket "$sock" 30 > "$T/holder" 2>&1 &
holder=$!
while ! grep -q connected "$T/holder" && kill -0 $holder 2> /dev/null; do sleep 0.1; done
start=$SECONDS
vmctl --timeout 2 "$N" qmp '{"execute": "query-status"}'
expect_rc "monitor held by another client: no answer" 4 $rc
check "  within the timeout ($((SECONDS - start)) s)" test $((SECONDS - start)) -lt 10
check "  says it did not answer" says "vmctl: VM $N did not answer within 2 s"
check "  never says the VM is not running" eval '! grep -qi "not running\|no VM" "$T/err"'
kill $holder
wait $holder 2> /dev/null
vmctl "$N" qmp '{"execute": "query-status"}'
expect_rc "answers again once the other client is gone" 0 $rc

: > "$T/share/stop"
wait $vmpid
expect_rc "the VM ran to the end" 0 $?
check "  the guest saw the stop" guest_says "$T/console" "rapido: told to stop"
check "kernel console clean" console_clean "$T/console"
vmctl "$N" paths
expect_rc "after it exited: no VM $N" 3 $rc
check "  says there is no VM $N" says "vmctl: no VM $N:"
done_testing
