#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vmctl-exec.sh: ./vmctl N exec end to end without a VM. A fake console
# socket runs bash --norc -i on a pty, as the guest init does on hvc0 (the
# same line discipline: echo, \n out as \r\n, readline), with
# build/guest/rapido-exec on its PATH. Checked: stdout byte for byte (NULs,
# lone CRs, no newline added, 64 KiB of random bytes), stderr apart, the
# exact status (a signal's too), commands readline or the tty would act on
# or cut short, lines between frames (as kernel messages would be) ignored,
# a frame damaged mid-line refused with exit 4, an image without the helper
# named. tests/boot/vmctl.sh does the same on a real guest.
. "$(dirname "$0")/../tap.sh"
bin=$TOP/vmctl
helper=$TOP/build/guest/rapido-exec
for f in "$bin" "$helper"; do
	if [ ! -x "$f" ]; then
		echo "SKIP: $f is not built (run make)"
		exit 77
	fi
done
command -v script > /dev/null || { echo "SKIP: script (util-linux) is not installed"; exit 77; }
# the fake console's shell is on a pty: a chroot without /dev/pts has none
if ! script -qec true /dev/null < /dev/null > "$T/pty.err" 2>&1; then
	echo "SKIP: script cannot make a pseudo-terminal here (no devpts on /dev/pts?): $(tr '\n' ' ' < "$T/pty.err")"
	exit 77
fi
export RAPIDO_CONF=$T/rapido.conf VM_STATE_DIR=$T/state
: > "$RAPIDO_CONF"
mkdir -p "$T/bin" "$T/nohelper" && mkdir -m 0700 "$VM_STATE_DIR"
ln -s "$helper" "$T/bin/rapido-exec"

# console N PATH MODE: VM N's console socket; each connection gets a shell
# on a pty with PATH. MODE: plain; between (a kernel-like line after every
# line the shell prints); mid (one inside the first output frame)
console() {
	setsid perl -MIO::Socket::UNIX -MIO::Select -MIPC::Open2 -e '
		my ($path, $pathenv, $mode) = @ARGV;
		my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Local => $path, Listen => 5)
			or die "$path: $!\n";
		$SIG{CHLD} = sub { 1 while waitpid(-1, 1) > 0 };
		$| = 1; print "listening\n";
		while (1) {
			my $c = $s->accept or next;
			next if fork;
			$ENV{PATH} = $pathenv; $ENV{TERM} = "dumb"; $ENV{PS1} = "rapido1:/# ";
			my $pid = open2(my $from, my $to, "script", "-qfec", "bash --norc -i", "/dev/null");
			my $sel = IO::Select->new($c, $from);
			my $hit = 0;
			while (my @r = $sel->can_read) {
				for my $h (@r) {
					my $n = sysread($h, my $buf, 65536);
					if (!$n) { kill "KILL", $pid; exit 0 }
					if ($h == $c) { syswrite($to, $buf); next }
					$buf =~ s/\n/\n[    1.000000] kernel: a line between lines\n/g if $mode eq "between";
					if ($mode eq "mid" && !$hit && $buf =~ /:o 1 /g) {
						my $at = pos($buf) + 2;
						substr($buf, $at, 0) = "[    2.000000] kernel: in the middle\n";
						$hit = 1;
					}
					syswrite($c, $buf);
				}
			}
		}' "$VM_STATE_DIR/vm$1.hvc" "$2" "$3" > "$T/console$1.log" 2>&1 &
	consoles+=($!)
	while ! grep -q listening "$T/console$1.log" 2> /dev/null; do sleep 0.05; done
}
consoles=()
trap 'for p in "${consoles[@]}"; do kill -- -$p 2> /dev/null; done; [ -n "${KEEP_TEST_DIR:-}" ] || rm -rf "$T"' EXIT
console 1 "$T/bin:/usr/bin:/bin" plain
console 2 "$T/nohelper:/usr/bin:/bin" plain
console 3 "$T/bin:/usr/bin:/bin" between
console 4 "$T/bin:/usr/bin:/bin" mid

# same_bytes FILE: stdout was exactly FILE's bytes
same_bytes() {
	cmp -s "$1" "$T/out" && return 0
	echo "#   want $(sha256sum < "$1") ($(stat -c %s "$1") bytes)"
	echo "#   got  $(sha256sum < "$T/out") ($(stat -c %s "$T/out") bytes): $(head -c 80 "$T/out" | od -An -c | head -n 3 | tr -s ' ')"
	sed 's/^/#   stderr: /' "$T/err" | head -n 5
	false
}
TAP_ON_FAIL=show_run

printf 'a\0b\rc\r\n\0\0\nd' > "$T/want"
run timeout 30 "$bin" 1 exec "printf 'a\\0b\\rc\\r\\n\\0\\0\\nd'"
check "NULs, a lone CR, CRLF, no final newline: exit 0" exits 0
check "  the same bytes" same_bytes "$T/want"
head -c 65536 /dev/urandom > "$T/rand"
run timeout 60 "$bin" 1 exec "cat '$T/rand'"
check "64 KiB of random bytes: exit 0" exits 0
check "  the same sha256" same_bytes "$T/rand"
printf 'out\n' > "$T/want"
run timeout 30 "$bin" 1 exec 'echo out; echo err >&2; exit 7'
check "stderr apart, the command's status 7" exits 7 "err"
check "  stdout holds only stdout" same_bytes "$T/want"
: > "$T/want"
run timeout 30 "$bin" 1 exec 'kill -9 $$'
check "a command killed by SIGKILL: 137, as a shell says" exits 137
run timeout 30 "$bin" 1 exec ''
check "an empty command: exit 0, no output" eval '[ $rc = 0 ] && same_bytes "$T/want"'

# what readline and the tty would act on, and a command longer than a tty line
cmd=$'x=\'tab\there ^C\003 ^U\025 ^D\004 ^Z\032\'\nprintf "%s|" "$x"\nprintf \'%s\' "$(echo "two
lines")"'
printf '%s|%s' $'tab\there ^C\003 ^U\025 ^D\004 ^Z\032' $'two\nlines' > "$T/want"
run timeout 30 "$bin" 1 exec "$cmd"
check "tab, ^C, ^U, ^D, ^Z and newlines in the command: run as written" eval '[ $rc = 0 ] && same_bytes "$T/want"'
long=$(head -c 30000 /dev/zero | tr '\0' 'x')
printf '%s' "${#long}" > "$T/want"
run timeout 30 "$bin" 1 exec "x=$long; printf %s \${#x}"
check "a 30 KB command (past the 4095 bytes of a tty line): run whole" eval '[ $rc = 0 ] && same_bytes "$T/want"'

start=$SECONDS
printf 'started\n' > "$T/want"
run timeout 30 "$bin" 1 exec 'sleep 5 & echo started'
check "a process left in the background does not hold exec up" eval '[ $rc = 0 ] && same_bytes "$T/want" && [ $((SECONDS - start)) -lt 4 ]'

printf 'a\0b\n\nc' > "$T/want"
run timeout 30 "$bin" 3 exec "printf 'a\\0b\\n'; echo '[    3.000000] kernel: on the tty itself' > /dev/tty; printf '\\nc'"
check "kernel-like lines between the frames: ignored" eval '[ $rc = 0 ] && same_bytes "$T/want"'
run timeout 30 "$bin" 4 exec "printf 'a\\0b'"
check "a kernel line in the middle of a frame: exit 4" exits 4
check "  says the answer did not arrive whole" contains "$T/err" "vmctl: vm4: the answer did not arrive whole, so the command's output and status are unknown: frame 1 of the answer was damaged on the console"
run timeout 30 "$bin" 2 exec true
check "an image without rapido-exec: exit 4" exits 4 "vmctl: vm2: the image has no rapido-exec (cut before ./vmctl exec used it?): cut it again"

done_testing
