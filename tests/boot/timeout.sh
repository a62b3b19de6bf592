#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout.sh: a guest that never finishes is killed at --timeout: exit 124,
# no qemu process left, and the VM number is free again. The first one's
# stdout is a FIFO nobody reads (a reader that stopped): ./vm shows the
# console through a buffer that never waits for stdout (display.h), so its
# timeout still fires (a 25 s timeout once took 60 s under | sleep 60); it
# says once that stdout is not read, and its log has every byte. The
# second's stdout is a terminal whose reader stopped; the third's stdout and
# stderr are one FIFO nobody reads.
. "$(dirname "$0")/lib.sh"

# 2 MiB of console: the FIFO's 64 KiB and ./vm's 1 MiB fill, the rest is not shown
"$CUT" simple -x 'yes 0123456789012345678901234567890123456789012345678901234567890123 | head -n 32768; echo "sleeping-forever-$((6 * 7))"; sleep infinity' > /dev/null
expect_rc "cut" 0 $?
mkfifo "$T/stalled"
# held open for reading, and never read
exec 7<> "$T/stalled"
start=$(date +%s)
# a ./vm that blocks on its stdout would never end by itself: 137, killed
timeout -s KILL 200 "$VM" --batch --timeout 40 > "$T/stalled" 2> "$T/err" &
vm=$!
# the check for a qemu left behind must see this one while it runs
for i in $(seq 1 300); do
	[ -n "$(test_qemu)" ] || ! kill -0 $vm 2> /dev/null && break
	sleep 0.1
done
check "the qemu check finds the running VM's qemu" test -n "$(test_qemu)"
wait $vm
expect_rc "timeout code" 124 $?
secs=$(( $(date +%s) - start ))
check "took about the timeout (${secs}s)" test $secs -ge 40 -a $secs -lt 80
check "stderr names the timeout" grep -q "timeout: vm1 killed after 40s" "$T/err"
check "no qemu left running" no_test_qemu
check "slot 1 is free again" flock -n "$VM_LOCK_DIR/vm1.lock" true
check "stdout not read: said once on stderr" test "$(grep -c 'stdout is not being read' "$T/err")" = 1
guest_text "$VM_STATE_DIR/vm1.log" > "$T/log"
check "  the log has every byte (the 32768 lines, the last line after them)" \
	test "$(grep -cx 0123456789012345678901234567890123456789012345678901234567890123 "$T/log")" = 32768 -a \
	-n "$(grep -x 'sleeping-forever-42' "$T/log")"
exec 7<&-

# the same on a terminal whose reader stopped: ./vm's stdout a pty, the
# terminal's output into a FIFO nobody reads. A terminal's POLLOUT means
# room for some bytes, not 4 KiB: a blocking write there waited for ever,
# and the timeout with it (./vm writes through a non-blocking description
# of its own: outbuf.h)
mkfifo "$T/stalled-pty"
exec 7<> "$T/stalled-pty"
start=$(date +%s)
script -qfc "\"$VM\" --batch --timeout 40 2> \"$T/err-pty\"; echo \$? > \"$T/rc-pty\"" /dev/null \
	> "$T/stalled-pty" 2>&1 &
spid=$!
# until ./vm has exited (script itself stays blocked on its own stdout)
for i in $(seq 1 2000); do
	[ -s "$T/rc-pty" ] && break
	sleep 0.1
done
secs=$(( $(date +%s) - start ))
# script blocks in its own write to the FIFO, and outlives a SIGTERM there
kill -KILL "$spid" 2> /dev/null
wait "$spid" 2> /dev/null
exec 7<&-
check "a terminal nobody reads: 124 at the timeout ($(cat "$T/rc-pty" 2> /dev/null), ${secs}s)" \
	test "$(cat "$T/rc-pty" 2> /dev/null)" = 124 -a $secs -lt 80
check "  said once on stderr" test "$(grep -c 'stdout is not being read' "$T/err-pty")" = 1
check "  no qemu left running" no_test_qemu

# stdout and stderr one FIFO nobody reads (`./vm --batch 2>&1 | reader`,
# the reader stopped): ./vm's own messages (that stdout is not read, the
# timeout) must not wait for it either (errout.c): before, the first of
# them blocked ./vm for good, and qemu ran on (as in the first case, the
# stdout not read: said once on stderr). Filled to the last byte first, a
# byte a write: a pipe's last page that has room takes a short message
# even when no page is free, which hid this
mkfifo "$T/stalled-both"
exec 7<> "$T/stalled-both"
perl -MFcntl -e 'sysopen(my $f, $ARGV[0], O_WRONLY | O_NONBLOCK) or die "$ARGV[0]: $!";
	my $n = 0; $n++ while syswrite($f, "x", 1); print "$n\n"' "$T/stalled-both" > "$T/filled"
check "the FIFO filled ($(cat "$T/filled") bytes)" test "$(cat "$T/filled")" -gt 0
start=$(date +%s)
timeout -s KILL 200 "$VM" --batch --timeout 40 > "$T/stalled-both" 2>&1
rc=$?
secs=$(( $(date +%s) - start ))
exec 7<&-
expect_rc "stdout and stderr one FIFO nobody reads: the timeout's code (${secs}s)" 124 $rc
check "  at about the timeout" test $secs -ge 40 -a $secs -lt 80
check "  no qemu left running" no_test_qemu
check "  slot 1 is free again" flock -n "$VM_LOCK_DIR/vm1.lock" true

# VM_TIMEOUT from rapido.conf works the same
echo 'VM_TIMEOUT=30' > "$RAPIDO_CONF"
"$VM" --batch > "$T/console" 2> "$T/err"
expect_rc "VM_TIMEOUT from rapido.conf" 124 $?
done_testing
