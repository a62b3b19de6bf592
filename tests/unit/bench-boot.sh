#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench-boot.sh: bench/boot's floor is booted as ./vm boots simple: the
# machine, CPU, vCPUs and memory of `./vm --dry-run`, and its kernel
# command line as the kernel gets it (the dry-run's shell quoting taken
# off: a quoted word gave the floor a console= it could not use) less
# ./vm's own rapido.* words. Checked on --floor-argv, no boot.
# Minutes of work: over the unit tier's 300 s on a loaded 2-core machine
# (the Debian 13 chroot under CI load), so:
# tests/run timeout: 1200s
. "$(dirname "$0")/../tap.sh"

run "$TOP/bench/boot" --bogus
check "an unknown argument is refused, named" \
	fails_with 1 "bench/boot: unknown argument '--bogus' (expected none, --timeline [PROFILE], --host or --floor-argv)"
# --host: the host's clock around a boot, from strace's stamps: without
# strace on PATH it says so before any cut or boot
mkdir "$T/bin" && ln -s "$(command -v dirname)" "$T/bin/dirname"
run env PATH="$T/bin" "$TOP/bench/boot" --host
check "--host without strace is refused, named" \
	fails_with 1 "bench/boot: --host needs strace on PATH (Debian: apt-get install strace)"
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
