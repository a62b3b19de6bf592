#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# simple.sh: ./cut simple then ./vm --batch boots Debian's kernel, runs the
# profile, powers off cleanly and exits 0; the console log is kept. Then
# the guest shell's tools: busybox's applets where the image has no program
# of the name (mount, ps, free, touch, seq, head, wc) work in -x extras; a
# poweroff ends the run with the status of the command before it, and
# busybox's own (a signal to the init) before the profile finished with no
# verdict (123, said with its sender), never a pass;
# --bins / CUT_EXTRA_BINS add host programs, and name one that is missing.
# The image's bytes (each unpacked by the kernel on every boot): helpers
# stripped, rapido-ktap and rapido-exec links to the static /init, no
# libselinux nor libpcre2 (busybox's ls, grep, sed, mkdir);
# the #@ shell-bins uname, cat, rm, sleep and dmesg are busybox's, the
# host's only in an image without busybox (CUT_BUSYBOX=);
# the guest library's _rapido_mark (bench/boot --timeline) reaches dmesg;
# the guest's bash is the host's static bash-static (CUT_BASH);
# a batch run that starts no test leaves results.sh unread, and one that
# does (an extra's rapido_test) still fails on a test left open; a batch
# boot with no share, NIC or results port has neither the on-demand
# modules (9p) nor, as no program of simple's is dynamic, the loader and
# libc (./vm leaves those layers out); a #!/usr/bin/perl script given with
# --bins runs (dracut adds perl, which is dynamic: libc in every boot).
. "$(dirname "$0")/lib.sh"

out=$("$CUT" simple 2>&1)
expect_rc "cut simple" 0 $?
check "image written" test -s "$DRACUT_OUT"
# a cut writes in one directory next to the image, IMAGE.cut-XXXXXX
# (README); nothing but the image may be left of its name
check "no temporary left next to the image" test -z "$(ls -A "$T" | grep '^image.')"
rel=$(echo "$out" | sed -n 's/.*kernel \(.*\)$/\1/p')
# every byte of the image is unpacked by the guest's kernel before /init
# runs (bench/boot): the helpers are packed without their symbols and
# debug information (GUEST_STRIP), as dracut strips what it installs
mkdir -p "$T/helpers" && (cd "$T/helpers" &&
	cpio -id --quiet --no-absolute-filenames < "$CUT_CACHE_DIR/layers/$(layer helpers "$DRACUT_OUT").cpio")
unstripped=$(for f in "$T/helpers/init" "$T/helpers"/usr/bin/rapido-*; do
	readelf -S "$f" | grep -qE ' \.(symtab|debug_info) ' && echo "${f#"$T/helpers/"}"
done | tr "\n" " ")
# ls, mkdir, grep and sed are busybox's: no libselinux nor libpcre2 under them
mkdir -p "$T/bins" && (cd "$T/bins" &&
	cpio -id --quiet --no-absolute-filenames < "$CUT_CACHE_DIR/layers/$(layer bins "$DRACUT_OUT").cpio")
check "simple's bins layer has bash, and no libselinux nor libpcre2 (busybox's ls, grep)" \
	test -x "$T/bins/usr/bin/bash" -a -z "$(find "$T/bins" -name 'libselinux*' -o -name 'libpcre2*')"
# simple's uname, cat, rm, sleep and dmesg are #@ shell-bins, for the
# person at its shell: busybox's applets serve them, and the host's (with
# libc and libtinfo under them) stay out; an image without busybox
# (CUT_BUSYBOX=, a foreign ARCH's) gets the host's
shell_bins="uname cat rm sleep dmesg"
in_layer() {
	local n
	for n in $shell_bins; do
		find "$1" -name "$n" ! -type d | grep -q . && echo "$n"
	done | tr "\n" " "
}
had=$(in_layer "$T/bins")
check "simple's bins layer has none of the host's $shell_bins (busybox's applets serve)${had:+ (has: ${had% })}" \
	test -z "$had"
CUT_BUSYBOX= "$CUT" -q simple -o "$T/no-busybox" > "$T/cut" 2>&1
expect_rc "cut simple with CUT_BUSYBOX= (no busybox)" 0 $?
mkdir -p "$T/bins-nobb" && (cd "$T/bins-nobb" &&
	cpio -id --quiet --no-absolute-filenames < "$CUT_CACHE_DIR/layers/$(layer bins "$T/no-busybox").cpio")
want=$(for n in $shell_bins; do command -v "$n" > /dev/null && echo "$n"; done | tr "\n" " ")
check "  without busybox the image has the host's ${want% }" test "$(in_layer "$T/bins-nobb")" = "$want"
# the guest's bash (CUT_BASH=auto): the host's bash-static where it is a
# static ELF of bash's version (under TCG an exec of the dynamic bash is
# about 49 ms, of the static 13: every boot's profile, every bash a suite
# forks); CUT_BASH=dynamic keeps the dynamic one, in a bins layer of its own
bs=$(command -v bash-static)
if [ -n "$bs" ] && ! readelf -l "$bs" | grep -q "program interpreter" &&
	[ "$("$bs" --version | head -n 1)" = "$(bash --version | head -n 1)" ]; then
	check "the image's bash is the host's static $bs (no PT_INTERP), and /bin/sh is it" \
		sh -c '! readelf -l "$1/usr/bin/bash" | grep -q "program interpreter" &&
			cmp -s "$1/usr/bin/bash" "$2" && test "$(readlink "$1/usr/bin/sh")" = bash' \
		sh "$T/bins" "$bs"
	CUT_BASH=dynamic "$CUT" -q simple -o "$T/dynamic" > "$T/cut" 2>&1
	expect_rc "cut simple with CUT_BASH=dynamic" 0 $?
	mkdir -p "$T/bins-dyn" && (cd "$T/bins-dyn" &&
		cpio -id --quiet --no-absolute-filenames < "$CUT_CACHE_DIR/layers/$(layer bins "$T/dynamic").cpio")
	check "  CUT_BASH=dynamic: the dynamic bash, in another bins layer" \
		sh -c 'readelf -l "$1" | grep -q "program interpreter"' sh "$T/bins-dyn/usr/bin/bash"
else
	skip "the image's bash is the host's static bash-static" "no static bash-static of bash's version"
	skip "  CUT_BASH=dynamic: the dynamic bash" "no static bash-static of bash's version"
fi
CUT_BASH=yes "$CUT" -q simple -o "$T/bad" > "$T/cut" 2>&1
expect_rc "cut simple with CUT_BASH=yes" 1 $?
check "  names the key, its value and what is expected" \
	grep -qF "environment: CUT_BASH: expected auto, static or dynamic, got 'yes'" "$T/cut"
# empty is the default, as --check-conf takes it
CUT_BASH= "$CUT" -q simple -o "$T/empty-bash" > "$T/cut" 2>&1
expect_rc "cut simple with CUT_BASH= (empty: auto)" 0 $?
# the layers only some boots need: rapido/layers says which parameters
# ask for each (./vm reads it); a --standalone image holds them all, so
# qemu alone, or ./vm with --share, boots it whole
check "rapido/layers: ondemand for a share, virtiofs, NIC, console or results; libs for a share or virtiofs" \
	sh -c 'cpio -i --quiet --to-stdout rapido/layers < "$1" > "$2" &&
		grep -qx "layer ondemand .* when rapido.shares=,rapido.virtiofs=,rapido.ip=,rapido.hvc=,rapido.results=" "$2" &&
		grep -qx "layer libs .* when rapido.shares=,rapido.virtiofs=" "$2" &&
		test "$(grep -c " when " "$2")" = 2' sh "$DRACUT_OUT" "$T/layers"
"$CUT" -q --standalone simple -o "$T/standalone" > "$T/cut" 2>&1
expect_rc "cut --standalone simple" 0 $?
check "  the --standalone image holds libc and 9p's module" \
	eval 'image_names "$T/standalone" > "$T/standalone.list" &&
		grep -q "/libc\.so\.6$" "$T/standalone.list" && grep -q "/fs/9p/9p\.ko$" "$T/standalone.list"'
check "the helpers layer's programs are stripped${unstripped:+ (not: ${unstripped% })}" \
	test -z "$unstripped" -a -x "$T/helpers/init"
# dracut copied /lib32's libgcc_s for its pthread workaround (--libdirs)
check "no other ABI's libraries (usr/lib32's libgcc_s)" test -z "$(find "$T/bins" -path '*lib32*')"
# the helpers every image holds are one static program (the Makefile's
# INIT_TOOLS): static glibc once, and no helper needs the image's C library
check "rapido-ktap and rapido-exec are links to /init; no helper is dynamic (no NEEDED, no interpreter)" \
	sh -c 'for f in rapido-ktap rapido-exec; do test "$(readlink "$1/usr/bin/$f")" = ../../init || exit; done
		for f in "$1/init" "$1"/usr/bin/rapido-*; do
			[ -L "$f" ] || ! readelf -dl "$f" | grep -qE "\(NEEDED\)|program interpreter" || exit
		done' sh "$T/helpers"
# a batch run of simple starts no test: its autorun sources rapido.sh and
# not results.sh (40 KB with it, parsed by bash under TCG on every boot),
# nor what was split from rapido.sh (the interactive shell's steps, the
# waits, a suite's helpers: 9 KB, some 4 ms a boot); a shell sources all;
# the tail's autorun.sh is plain text in the uncompressed image: its
# library lines, run in a bash whose source prints the file's name
sourced() {
	sed -n '/# written by .\/cut: guest library/,/^_rapido_autorun_end$/p' "$DRACUT_OUT" | grep -a '^[^#].*/rapido/lib/' |
		RAPIDO_BATCH=$1 bash -c 'source() { echo "${1##*/}"; }; eval "$(cat)"' | tr '\n' ' '
}
batch_libs=$(sourced 1) shell_libs=$(sourced 0)
check "the batch autorun sources rapido.sh, and results.sh and rapido-{shell,wait,suite}.sh only for a shell ($batch_libs)" \
	sh -c 'case " $1" in *" rapido.sh "*) ;; *) exit 1 ;; esac
		for l in results rapido-shell rapido-wait rapido-suite; do
			case " $1" in *" $l.sh "*) exit 1 ;; esac
			case " $2" in *" $l.sh "*) ;; *) exit 1 ;; esac
		done' sh "$batch_libs" "$shell_libs"
# and tests RAPIDO_BATCH once for each run of a shell's libraries, not once a file
check "the batch autorun tests RAPIDO_BATCH at most twice (once a run of a shell's libraries)" \
	test "$(grep -ac 'RAPIDO_BATCH' <(sed -n '/# written by .\/cut: guest library/,/^_rapido_autorun_end$/p' "$DRACUT_OUT"))" -le 2

# from another directory, as a user would
(cd / && "$VM" --batch --timeout 300) > "$T/console" 2>&1
expect_rc "vm --batch" 0 $?
check "profile printed the kernel release and hostname rapido1" \
	guest_says "$T/console" "rapido: $rel up on rapido1"
check "console log file kept in the state dir" grep -q "rapido: $rel up on rapido1" "$VM_STATE_DIR/vm1.log"
check "kernel console clean" console_clean "$T/console"
check "clean power-off" grep -q "reboot: Power down" "$T/console"
check "no qemu left running" no_test_qemu
# batch, ./vm reads qemu's one console stream and writes it to its stdout
# (console.c): a reader of it that goes away takes neither the verdict nor
# the log with it
"$VM" --batch --timeout 300 2> "$T/err-head" | head -c 100 > /dev/null
expect_rc "vm --batch | head -c 100: the guest's verdict" 0 "${PIPESTATUS[0]}"
check "  the log has the whole console" grep -q "reboot: Power down" "$VM_STATE_DIR/vm1.log"
check "  and ./vm says the console stopped on stdout" grep -q "writing the console to stdout: stopped" "$T/err-head"

"$CUT" -q simple --bins 'nosuchprog lsblk' > "$T/cut" 2>&1
expect_rc "cut --bins with a program not on the host" 1 $?
check "  names it and where it came from" grep -qF "host binary 'nosuchprog' not found in PATH (from --bins)" "$T/cut"
CUT_EXTRA_BINS=nosuch2 "$CUT" -q simple > "$T/cut" 2>&1
expect_rc "cut with CUT_EXTRA_BINS naming a program not on the host" 1 $?
check "  names it and the key" grep -qF "host binary 'nosuch2' not found in PATH (from CUT_EXTRA_BINS)" "$T/cut"
# the guest mounts a tmpfs on /tmp: a program there would be in the image but never seen
cp /bin/true "$T/mytool" || exit 1
"$CUT" -q simple --bins "$T/mytool" > "$T/cut" 2>&1
expect_rc "cut --bins with a program under /tmp, which the guest mounts over" 1 $?
check "  names it, the directory and what to do" \
	grep -qF -- "--bins: $T/mytool is under /tmp, which the guest mounts a file system on" "$T/cut"

"$CUT" -q simple --bins lsblk -x 'lsblk --version; mount | grep -q "^proc on /proc type proc " && ps | grep -q "[b]ash" && free | grep -q Mem &&
	touch /tmp/t && test -e /tmp/t && test "$(seq 3 | head -n 2 | wc -l)" = 2 &&
	mkdir /tmp/d && ls /tmp | grep -q "^d\$" && test "$(echo ab | sed s/b/c/)" = ac &&
	_rapido_mark "a probe" && dmesg | grep -q "rapido: mark a probe\$" &&
	rapido_wait 5 rapido_mounted /proc proc && rapido_mounted /sys/kernel/debug debugfs && rapido_harness true && ! compgen -A function _rapido_interr &&
	tr "\0" "\n" < /proc/$$/environ | grep -qx SHELL=/bin/sh &&
	read -r _a < /sys/class/tty/console/active && test "$(readlink /proc/$$/fd/0)" = "/dev/${_a##* }" &&
	{ rapido-exec 2>&1; true; } | grep -q "^Usage: rapido-exec" && rapido-ktap --help | grep -q "^Usage:" &&
	echo "tools: ok" || echo "tools: FAILED"' \
	-x '[ -d /sys/module/pvpanic_mmio ] && [ ! -e /sys/module/pvpanic_pci ] && echo "pvpanic: the ISA driver alone"' \
	-x 'dmesg | grep -q "rapido-init: mark up\$" && echo "up mark: in the kernel log"' \
	-x 'busybox poweroff; rapido_sleep 300' -x 'echo "after: busybox poweroff"' > "$T/cut" 2>&1
expect_rc "cut simple with -x extras (tail only)" 0 $?
# printk.devkmsg=on as bench/boot boots: /dev/kmsg keeps only 10 lines a 5 s
# else, and with --results the init's trace lines are more than that
# console=ttyS5 last, a tty that is not there: the init takes the
# autorun's tty from the last console= (run.c), and when it cannot open
# it, from sysfs, as the kernel's /dev/console is ttyS0 still
"$VM" --batch --timeout 300 --results "$T/res-off" --append "printk.devkmsg=on console=ttyS5" > "$T/console-tools" 2>&1
expect_rc "vm: busybox poweroff from an extra, before the profile finished: no pass (123)" 123 $?
check "  mount, ps, free, touch, seq, head, wc, mkdir, ls, grep, sed work (busybox's); a _rapido_mark is in the kernel's log; rapido_wait and rapido_harness (picked for the extra that names them), debugfs mounted late, not the shell's steps; SHELL=/bin/sh from the init (no /etc/passwd: bash's getpwuid skipped); the autorun on /dev/console's tty (console=ttyS5 last: sysfs asked); rapido-exec and rapido-ktap run" guest_says "$T/console-tools" "tools: ok"
check "  --bins lsblk: the host's, with its libraries" grep -q "^lsblk from util-linux" "$T/console-tools"
# each module a boot loads costs a few ms of TCG: the driver of the
# device ./vm gives (x86: the ISA pvpanic, ACPI's QEMU0001), not the other
if [ "$(uname -m)" = x86_64 ]; then
	check "  the init loaded pvpanic_mmio (x86's ISA pvpanic) and not pvpanic_pci" \
		guest_says "$T/console-tools" "pvpanic: the ISA driver alone"
else
	skip "  the init loaded pvpanic_mmio and not pvpanic_pci" "x86's ISA pvpanic only"
fi
# bench/boot's timeline takes the profile's start from the kernel's log,
# on printk's clock as every other mark (the console's up mark is stamped
# with CLOCK_MONOTONIC, tens of ms off it under TCG with tsc=unstable)
check "  the init's up mark is in the kernel's log too" guest_says "$T/console-tools" "up mark: in the kernel log"
check "  nothing after the power-off ran" test -z "$(grep "after: busybox poweroff" "$T/console-tools")"
check "  a clean power-off" grep -q "reboot: Power down" "$T/console-tools"
# the sender's name is read from /proc when the init takes the signal: a
# sender that already exited (busybox's poweroff may, on a busy host) has none
check "  said: the signal, its sender, before the profile finished" \
	grep -Eq "guest init: the init was signalled \(SIGUSR2 from pid [0-9]+( \([a-z]+\))?, as busybox's poweroff asks it\) before the profile finished" "$T/console-tools"
check "  the init said so on the console" grep -q "^rapido-init: the init was signalled (SIGUSR2" "$T/console-tools"
check "  and in results.txt, whose meta exit is 123" \
	bash -c "grep -q 'meta cause .*signalled.*before%20the%20profile%20finished' '$T/res-off/results.txt' && tail -n 1 '$T/res-off/results.txt' | grep -q ' meta exit 123$'"

"$CUT" -q simple -x 'ls /usr/lib/*/libc.so.6 /lib*/libc.so.6 /lib*/*/libc.so.6 "/usr/lib/modules/$(uname -r)/kernel/fs/9p" 2> /dev/null | grep -q . ||
	echo "lean: no libc, no 9p"' \
	-x 'rapido_test_start left-open; (exit 3); poweroff' -x 'echo "after: poweroff"' > "$T/cut" 2>&1
expect_rc "cut simple -x 'rapido_test_start left-open; (exit 3); poweroff'" 0 $?
"$VM" --batch --timeout 300 > "$T/console-off" 2>&1
expect_rc "vm: poweroff after a command that exited 3: status 3, as exit" 3 $?
# each byte of an image is unpacked by the kernel on every boot (6-8 ms a
# MiB under TCG): a boot that asks for no share, NIC, console or results
# port gets neither their modules nor the loader and libc no program of
# simple's loads (the ondemand and libs layers: 4.1 MiB)
check "  a plain batch boot has no libc and no 9p module (./vm left their layers out)" \
	guest_says "$T/console-off" "lean: no libc, no 9p"
check "  the extra's test left open is closed as failed (results.sh sourced: the extra names it)" \
	grep -q "rapido: test left-open: FAILED: did not finish" "$T/console-off"
check "  nothing after the power-off ran" test -z "$(grep "after: poweroff" "$T/console-off")"
check "  a clean power-off" grep -q "reboot: Power down" "$T/console-off"
check "  kernel console clean" console_clean "$T/console-off"
check "no qemu left running" no_test_qemu

# a script's interpreter is a program of the image: dracut installs perl
# for a #!/usr/bin/perl script given with --bins, and perl is dynamic, so
# the loader and libc are in every boot of that image (perl exited 127
# when they went by the programs named alone); outside /tmp, which the
# guest mounts over
P=$(mktemp -d /var/tmp/rapido-simple.XXXXXX) || exit 1
trap '[ -n "${KEEP_TEST_DIR:-}" ] || rm -rf "$T" "$P"' EXIT
printf '#!/usr/bin/perl\nprint "perl: ran\\n";\n' > "$P/hello.pl" && chmod +x "$P/hello.pl"
"$CUT" -q simple --bins "$P/hello.pl" -x "$P/hello.pl; echo \"perl: exit \$?\"" > "$T/cut" 2>&1
expect_rc "cut simple --bins a #!/usr/bin/perl script" 0 $?
check "  its libs layer has no condition: every boot gets it" \
	sh -c 'cpio -i --quiet --to-stdout rapido/layers < "$1" | grep -q "^layer libs [^ ]* [^ ]* [^ ]*$"' sh "$DRACUT_OUT"
"$VM" --batch --timeout 300 > "$T/console-perl" 2>&1
expect_rc "vm: the perl script's boot" 0 $?
check "  the script ran: perl, dynamic, found the loader and libc" guest_says "$T/console-perl" "perl: ran"
check "  kernel console clean" console_clean "$T/console-perl"
done_testing
