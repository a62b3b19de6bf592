#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# debug.sh: the debugging aids, for real: --append reaches /proc/cmdline;
# gdb attached to --gdb reads the kernel's banner at its System.map address
# and the guest still exits 0; --gdb-wait holds the CPUs until gdb lets go;
# a panic leaves an ELF vmcore with a note per CPU and the kernel's
# VMCOREINFO, rotated to VM_VMCORE_KEEP; ./vmctl N exec runs a command on
# the virtio console's shell and returns its status; a port in use and a VM
# that is not running get clear errors (bad --gdb options: tests/unit/vm-dry-run.sh).
. "$(dirname "$0")/lib.sh"

installed_kernel_or_skip
command -v gdb > /dev/null || { echo "SKIP: gdb is not installed"; exit 77; }

# wait_for FILE TEXT: until the guest printed TEXT (under TCG, boots are slow)
wait_for() {
	for _ in $(seq 300); do
		guest_says "$1" "$2" && return 0
		sleep 1
	done
	return 1
}
port=$((40000 + $$ % 20000))

# --append
"$CUT" simple -x 'cat /proc/cmdline' > /dev/null
"$VM" --batch --timeout 300 --append 'debug.append=yes "quoted=a b"' > "$T/console" 2>&1
expect_rc "--append boots" 0 $?
check "--append reached /proc/cmdline" guest_says "$T/console" 'debug.append=yes quoted=a b'

# --gdb: read linux_banner from guest memory at the address the guest's
# /proc/kallsyms gives (Debian's System.map is a stub without symbols)
"$CUT" simple -x 'echo "banner-at $(grep " linux_banner$" /proc/kallsyms | sed "s/ .*//")"; echo attach-now; for ((i = 0; i < 60; i++)); do [ -e /tmp/go ] && break; sleep 1; done; exit 0' > /dev/null
"$VM" --batch --timeout 300 --gdb=127.0.0.1:$port > "$T/console" 2> "$T/err" &
vmpid=$!
wait_for "$T/console" attach-now
check "nokaslr with --gdb" grep -q 'nokaslr' "$T/console"
check "./vm prints the gdb command" grep -q "target remote 127.0.0.1:$port" "$T/err"
banner=$(guest_text "$T/console" | sed -n 's/^banner-at \([0-9a-f]*\)$/\1/p')
check "the guest named linux_banner's address ($banner)" test -n "$banner"
timeout 120 gdb -batch -nx -ex "target remote 127.0.0.1:$port" -ex "x/s 0x$banner" -ex detach \
	> "$T/gdb" 2>&1
check "gdb read the banner from guest memory" grep -q "Linux version $rel" "$T/gdb"
# the second VM wants the same port while the first holds it
"$CUT" simple -o "$T/other" > /dev/null
"$VM" "$T/other" --batch --timeout 60 --gdb=127.0.0.1:$port > /dev/null 2> "$T/err2"
expect_rc "gdb port in use" 125 $?
check "  named" grep -q "port $port on 127.0.0.1 is in use" "$T/err2"
"$TOP/vmctl" 1 exec ': > /tmp/go' > /dev/null
wait $vmpid
expect_rc "the guest ran on after gdb detached and exited 0" 0 $?

# --gdb-wait: no console output until gdb continues the CPUs
"$CUT" simple -x 'exit 0' > /dev/null
"$VM" --batch --timeout 300 --gdb=127.0.0.1:$port --gdb-wait > "$T/console" 2> "$T/err" &
vmpid=$!
sleep 5
check "--gdb-wait: the CPUs wait (no console output)" test ! -s "$T/console"
timeout 120 gdb -batch -nx -ex "target remote 127.0.0.1:$port" -ex detach > "$T/gdb" 2>&1
wait $vmpid
expect_rc "after gdb let go, the guest booted and exited 0" 0 $?

# vmctl exec on the virtio console
"$CUT" simple -x 'echo exec-ready; for ((i = 0; i < 120; i++)); do [ -e /tmp/go ] && break; sleep 1; done; exit 0' > /dev/null
"$VM" --batch --timeout 300 > "$T/console" 2>&1 &
vmpid=$!
wait_for "$T/console" exec-ready
out=$("$TOP/vmctl" 1 exec 'uname -r')
expect_rc "vmctl exec 'uname -r'" 0 $?
check "  printed the guest's release ($out)" test "$out" = "$rel"
"$TOP/vmctl" 1 exec 'echo to-stderr >&2; exit 3' > "$T/out" 2>&1
expect_rc "vmctl exec returns the command's status" 3 $?
check "  and its stderr" grep -q to-stderr "$T/out"
"$TOP/vmctl" 1 exec ': > /tmp/go' > /dev/null
wait $vmpid
expect_rc "the guest exits 0 after the execs" 0 $?
"$TOP/vmctl" 1 exec true 2> "$T/err"
expect_rc "vmctl exec on a VM that is not running" 3 $?
check "  says so" grep -q "vm1 is not running" "$T/err"

# a panic leaves a vmcore: ELF core, a note per CPU, the kernel's VMCOREINFO
echo 'VM_VMCORE_KEEP=2' > "$RAPIDO_CONF"
"$CUT" simple -x 'echo c > /proc/sysrq-trigger; sleep 100' > /dev/null
"$VM" --batch --timeout 300 --cpus 2 --memory 256M > "$T/console" 2> "$T/err"
expect_rc "panic: no status" 123 $?
core=$VM_STATE_DIR/vm1.vmcore
check "stderr names the dump" grep -q "memory dump (elf) in $core" "$T/err"
check "the dump is an ELF core file" sh -c "readelf -h '$core' | grep -q 'CORE (Core file)'"
check "one NT_PRSTATUS note per CPU" test "$(readelf -n "$core" | grep -c NT_PRSTATUS)" = 2
check "a VMCOREINFO note" sh -c "readelf -n '$core' | grep -q VMCOREINFO"
# the notes are at the front of the file
check "  naming the kernel" sh -c "head -c 65536 '$core' | grep -aq 'OSRELEASE=$rel'"
# the panicking CPU is the one qemu stopped at its write to pvpanic's
# port: in pvpanic's module code (Debian's 6.1, the port write inlined
# there) or just after an `out` in the kernel's own text (6.12: through
# iowrite8() of lib/iomap.c), read from the kernel's ELF that ./vm booted
# at its PVH entry (no KASLR there: the dump's addresses are the ELF's);
# the other CPU was stopped elsewhere (the kernel's hlt loop)
elf=$(ls "$CUT_CACHE_DIR"/kernels/*.elf 2> /dev/null | head -n 1)
# at_port_write RIP: RIP is in module code, or follows an `out` of the kernel ELF
at_port_write() {
	case $1 in ffffffffc*) return 0 ;; esac
	[ -n "$elf" ] && objdump -d --start-address="$(printf '0x%x' $((0x$1 - 1)))" \
		--stop-address="0x$1" "$elf" | grep -qE '\sout\s'
}
off=$(readelf -n "$core" | awk '/Displaying notes found at file offset/ { print $7; exit }')
writers=0
for cpu in 0 1; do
	# note header 12 + "CORE\0" padded to 8, then elf_prstatus: pr_reg at 112, rip is reg 16
	rip=$(od -An -tx8 -j $((off + cpu * (20 + 336) + 20 + 112 + 16 * 8)) -N8 "$core" | tr -d ' ')
	echo "# cpu$cpu rip $rip"
	at_port_write "$rip" && writers=$((writers + 1))
done
if [ -z "$elf" ]; then
	skip "exactly one CPU was at pvpanic's port write at the panic" \
		"no kernel ELF in $CUT_CACHE_DIR/kernels (booted as a bzImage: no zstd?)"
else
	check "exactly one CPU was at pvpanic's port write (module code or after an out) at the panic" \
		test $writers = 1
fi
"$VM" --batch --timeout 300 --memory 128M > /dev/null 2>&1
check "a second panic rotates the first to vm1.vmcore.1" test -e "$core" -a -e "$core.1"
"$VM" --batch --timeout 300 --memory 128M > /dev/null 2>&1
check "VM_VMCORE_KEEP=2 keeps two" test -e "$core.1" -a ! -e "$core.2"
echo 'VM_VMCORE_KEEP=0' > "$RAPIDO_CONF"
rm -f "$core" "$core.1"
"$VM" --batch --timeout 300 --memory 128M > /dev/null 2>&1
expect_rc "VM_VMCORE_KEEP=0: still 123" 123 $?
check "  and no dump" test ! -e "$core"
done_testing
