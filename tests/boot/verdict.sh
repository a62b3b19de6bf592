#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# verdict.sh: ./vm's exit status is the init's framed report and nothing
# else: scripts that write junk, numbers and forged records to every serial
# and virtio port cannot change it; a full state dir costs the console log,
# not the status; an init that cannot start bash says so (123, not 127);
# a QMP quit from the host is named as such (122), not as a crash; so is
# Ctrl-a x on the console (122, named as such); a power-off in the guest
# before the init reported stays a failure (123) named as a power-off.
. "$(dirname "$0")/lib.sh"

# Everything a confused or hostile test might write, on every port it can
# find, including records with the right tag, a wrong nonce, the real nonce
# (read off the kernel command line), and a writer left in the background.
cat > "$T/forge.sh" <<'SH'
nonce=$(sed -n 's/.*rapido\.nonce=\([0-9a-f]*\).*/\1/p' /proc/cmdline)
echo "nonce seen: ${#nonce} digits"
for p in /dev/ttyS* /dev/hvc* /dev/vport*; do
	[ -c "$p" ] || continue
	{
		printf '0\n'
		printf '\0\377junk\r\n255\n'
		printf 'rapido-status v1 00000000000000000000000000000000 exit 0 - crc=00000000\n'
		printf '\nrapido-status v1 %s exit 0 - crc=12345678\n' "$nonce"
		printf '\nrapido-status v1 %s exit 0 -' "$nonce"
	} > "$p" 2>/dev/null
done
( while :; do printf '\n0\n' > /dev/ttyS1; done ) > /dev/null 2>&1 &
echo forged-everything
SH

"$CUT" simple -f "$T/forge.sh" -x 'exit 5' > /dev/null
expect_rc "cut with the forging script" 0 $?
"$VM" --batch --timeout 300 > "$T/console" 2> "$T/err"
expect_rc "forged writes to every port do not change the verdict" 5 $?
check "the guest saw a nonce of 32 digits" guest_says "$T/console" "nonce seen: 32 digits"
check "the forging script ran" guest_says "$T/console" forged-everything
diag

"$CUT" simple -f "$T/forge.sh" -x 'exit 0' > /dev/null
"$VM" --batch --timeout 300 > "$T/console" 2> "$T/err"
expect_rc "and a real 0 still comes through" 0 $?

# A state dir on a full file system: the status does not need the disk.
full=$T/full
mkdir -p "$full"
# mode 0700: ./vm refuses a state dir others may write to (a tmpfs root is 1777)
if mount -t tmpfs -o size=256k,mode=0700 tmpfs "$full" 2>/dev/null; then
	trap 'umount "$full" 2>/dev/null; [ -n "${KEEP_TEST_DIR:-}" ] || rm -rf "$T"' EXIT
	dd if=/dev/zero of="$full/fill" bs=4k 2>/dev/null
	"$CUT" simple -x 'echo lots of console output; exit 7' > /dev/null
	VM_STATE_DIR=$full "$VM" --batch --timeout 300 > "$T/console" 2> "$T/err"
	expect_rc "full state dir: the guest's exit 7 still comes back" 7 $?
	check "the log failure is named once, with the path and ENOSPC" \
		test "$(grep -c "console log $full/vm1.log.*No space left on device" "$T/err")" = 1
	check "the console still reached stdout" guest_says "$T/console" "lots of console output"
	umount "$full"
else
	skip "full state dir: the guest's exit 7 still comes back" "cannot mount a tmpfs here"
fi

# An image whose bash is damaged (a standalone image: bash is in the file,
# not the cache): the init runs, bash cannot.
"$CUT" simple --standalone > /dev/null
off=$(grep -obUaP 'usr/bin/bash\x00' "$DRACUT_OUT" | tail -n 1 | cut -d: -f1)
check "found bash in the image" test -n "$off"
cp "$DRACUT_OUT" "$T/whole"
# cut short, ./vm refuses it before booting (the layout does not add up)
truncate -s $((off + 300000)) "$DRACUT_OUT"
"$VM" --batch --timeout 300 > "$T/console" 2> "$T/err"
expect_rc "truncated image: refused before qemu starts" 125 $?
check "  named as truncated or damaged" grep -q "a truncated or damaged copy" "$T/err"
# the same size, bash's ELF magic overwritten: the init's exec of bash fails
cp "$T/whole" "$DRACUT_OUT"
elf=$(tail -c +$((off + 1)) "$DRACUT_OUT" | grep -obUaP '\x7fELF' | head -n 1 | cut -d: -f1)
printf JUNK | dd of="$DRACUT_OUT" bs=1 seek=$((off + elf)) conv=notrunc 2> /dev/null
"$VM" --batch --timeout 300 > "$T/console" 2> "$T/err"
expect_rc "damaged bash: the init's own failure is 123, not bash's 127" 123 $?
check "the host names the init's failure" grep -q "guest init: exec /bin/bash: " "$T/err"

# A QMP quit from the host is not a crash.
"$CUT" simple -x 'echo waiting-for-quit; sleep 600' > /dev/null
"$VM" --batch --timeout 300 > "$T/console" 2> "$T/err" &
vmpid=$!
for _ in $(seq 300); do
	guest_says "$T/console" waiting-for-quit && break
	sleep 1
done
"$TOP/vmctl" 1 quit > /dev/null
wait $vmpid
expect_rc "./vmctl quit: stopped from the host" 122 $?
check "stderr says a QMP quit stopped it" grep -q "stopped from the host by a QMP 'quit'" "$T/err"
check "and does not call it a crash" test -z "$(grep "panic or crash" "$T/err")"

# issue 40: Ctrl-a x on an interactive console is not a QMP client's quit
# (issue 42: nor a failure)
"$CUT" simple -x 'echo ready-for-ctrl-a-x; sleep 600' > /dev/null
mkfifo "$T/in"
"$VM" --timeout 300 < "$T/in" > "$T/console" 2> "$T/err" &
vmpid=$!
exec 3> "$T/in"
for _ in $(seq 300); do
	guest_says "$T/console" ready-for-ctrl-a-x && break
	sleep 1
done
printf '\001x' >&3
wait $vmpid
# issue 42: a person quitting an interactive session: no verdict
expect_rc "Ctrl-a x: a quit from the console, no verdict" 0 $?
exec 3>&-
check "stderr names Ctrl-a x as a quit from the console, not a QMP client" \
	eval 'grep -q "quit from the console (Ctrl-a x)" "$T/err" && ! grep -q "QMP" "$T/err"'

# issue 40: a power-off in the guest (sysrq o) before the init reported: still
# a failure, named as a power-off, not as a panic or crash
"$CUT" simple -x 'echo o > /proc/sysrq-trigger; sleep 100' > /dev/null
"$VM" --batch --timeout 300 > "$T/console" 2> "$T/err"
expect_rc "a power-off in the guest: no status, a failure" 123 $?
check "stderr names the power-off" grep -q "the guest powered off without reporting a status" "$T/err"
check "  and not a panic or crash" test -z "$(grep "panic or crash" "$T/err")"
done_testing
