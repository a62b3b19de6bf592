#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench-boot.sh: bench/boot's floor is booted as ./vm boots simple: the
# machine, CPU, vCPUs and memory of `./vm --dry-run`, and its kernel
# command line as the kernel gets it (the dry-run's shell quoting taken
# off: a quoted word gave the floor a console= it could not use) less
# ./vm's own rapido.* words. Checked on --floor-argv, no boot. --host's
# strace (--strace-argv) lets a thread's syscalls run without a stop.
# Minutes of work: over the unit tier's 300 s on a loaded 2-core machine
# (the Debian 13 chroot under CI load), so:
# tests/run timeout: 1200s
. "$(dirname "$0")/../tap.sh"

run "$TOP/bench/boot" --bogus
check "an unknown argument is refused, named" \
	fails_with 1 "bench/boot: unknown argument '--bogus' (expected none, --timeline [PROFILE], --host, --floor-argv or --strace-argv)"
# --host: the host's clock around a boot, from strace's stamps: without
# strace on PATH it says so before any cut or boot
mkdir "$T/bin" && ln -s "$(command -v dirname)" "$T/bin/dirname"
run env PATH="$T/bin" "$TOP/bench/boot" --host
check "--host without strace is refused, named" \
	fails_with 1 "bench/boot: --host needs strace on PATH (Debian: apt-get install strace)"
# --host's strace stops a thread only at its first calls: strace (6.1)
# stopped one that never calls execve nor exit_group at every syscall (the
# guest under --host ran twice as long: qemu's vCPU thread writes the
# console). A thread's 2000 syscalls, its voluntary context switches
# counted (each stop is one): a handful, not thousands
if command -v strace > /dev/null && command -v cc > /dev/null; then
	cat > "$T/thread.c" <<'EOC'
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void *work(void *arg)
{
	char line[256];
	FILE *f;

	for (int i = 0; i < 2000; i++)
		syscall(SYS_getppid);
	f = fopen("/proc/thread-self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "voluntary_ctxt_switches:", 24))
			fputs(line + 24, stdout);
	return arg;
}

int main(void)
{
	pthread_t t;

	return pthread_create(&t, NULL, work, NULL) || pthread_join(t, NULL);
}
EOC
	cc -pthread -o "$T/thread" "$T/thread.c"
	mapfile -t st < <("$TOP/bench/boot" --strace-argv)
	sw=$("${st[@]}" -o "$T/thread.st" "$T/thread" | tr -d ' \t')
	check "--host's strace: a thread's 2000 syscalls run free (${sw:-?} context switches)" \
		test "${sw:-9999}" -lt 200
else
	skip "--host's strace and threads" "strace or cc is not installed"
fi

run "$TOP/bench/boot" --timeline nosuchprofile
check "--timeline PROFILE: a profile that is not there is refused, named" \
	fails_with 1 "bench/boot: --timeline nosuchprofile: no profile autorun/nosuchprofile.sh"

run "$TOP/bench/boot" --floor-argv
TAP_ON_FAIL=show_run check "--floor-argv" exits 0
# the word after OPTION in the floor's argv
arg() { grep -m1 -A1 -x -- "$1" "$T/out" | tail -1; }
append=$(arg -append)
# has WORD: the command line holds WORD whole
has() { [[ " $append " == *" $1 "* ]]; }
starts() { [[ "$append" == "$1"* ]]; }
lacks() { [[ "$append" != *"$1"* ]]; }
check "  -append is the kernel's words, unquoted" starts console=
check "  with ./vm's own no_timer_check" \
	has no_timer_check
check "  printk.time=1" has printk.time=1
check "  and none of rapido.*" lacks rapido.
# simple's #@ cpus: 1, #@ memory: 512M
check "  simple's vCPUs (-smp 1)" [ "$(arg -smp)" = 1 ]
check "  simple's memory (-m 512M)" [ "$(arg -m)" = 512M ]
check "  ./vm's CPU model, not qemu's default" [ -n "$(arg -cpu)" ]
done_testing
