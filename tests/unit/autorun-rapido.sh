#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# autorun-rapido.sh: the guest's one failure helper and one wait loop
# (autorun/lib/rapido*.sh), run in a host bash as the guest runs them:
# rapido_fail's message, hooks and status; rapido_wait's deadline, its
# early stop when a watched process is gone, and commands that set
# variables or fail in the waiting shell; rapido_mounted; results.sh's
# rapido_stream_results.
. "$(dirname "$0")/../tap.sh"
# rapido.sh and the files split from it (a batch autorun sources these only
# when its profile names a function of theirs: src/cut/libpick.c)
lib="$TOP/autorun/lib/rapido.sh $TOP/autorun/lib/rapido-wait.sh $TOP/autorun/lib/rapido-suite.sh"
lib="$lib $TOP/autorun/lib/rapido-shell.sh"
TAP_ON_FAIL=show_run
# guest CODE: run CODE in a bash that sourced the library; its stdout and
# stderr, in the order written, in $T/out
guest() {
	# the guest keeps its status in RAPIDO_RUN_DIR (/run in a guest): a fresh one, never the host's
	rm -rf "$T/run" && mkdir "$T/run" || return 1
	RAPIDO_RUN_DIR=$T/run run bash -c 'exec 2>&1; for f in $1; do source "$f"; done; eval "$2"' _ "$lib" "$1"
}
# said STATUS TEXT: the guest code exited STATUS, printing exactly TEXT
said() { exits "$1" && out_is "$2"; }

guest 'rapido_fail "no disk: /dev/sdx"; echo after'
check "rapido_fail: one line, status 1, nothing after it" said 1 "rapido: FAILED: no disk: /dev/sdx"

guest 'rapido_fail -s 3 map mpath0 has 1 path; echo after'
check "rapido_fail -s STATUS: that status, the words joined" said 3 "rapido: FAILED: map mpath0 has 1 path"

# bash exits with a status modulo 256: 256 would pass
guest 'rapido_fail -s 256 boom; echo after'
check "rapido_fail -s 256: said, and status 1, not 0" said 1 "rapido: rapido_fail -s '256': no exit status from 1 to 255: status 1
rapido: FAILED: boom"
guest 'rapido_fail -s 3x boom'
check "rapido_fail -s 3x: said, status 1" said 1 "rapido: rapido_fail -s '3x': no exit status from 1 to 255: status 1
rapido: FAILED: boom"
guest 'rapido_fail -s 010 boom'
check "rapido_fail -s 010: decimal 10" said 10 "rapido: FAILED: boom"

guest 'h1() { echo "h1 $1 <$2>"; }; h2() { echo "h2 $1"; }
	rapido_on_fail h1; rapido_on_fail h2; rapido_on_fail h1
	rapido_fail -s 4 "data differs"'
check "hooks run once each, in order, with the status and message" said 4 \
	"rapido: FAILED: data differs
h1 4 <data differs>
h2 4"

guest 'start=${EPOCHREALTIME//[!0-9]/}; rapido_wait 1 false; r=$?
	el=$(( (${EPOCHREALTIME//[!0-9]/} - start) / 100000 )); echo "$r $((el >= 9 && el <= 30))"'
check "rapido_wait SECS: false after about SECS seconds" said 0 "1 1"

guest 'i=0; step() { i=$((i + 1)); [ $i -ge 3 ]; }; rapido_wait 10 step; echo "$? $i"'
check "rapido_wait: COMMAND runs in this shell until it succeeds" said 0 "0 3"

guest 'i=0; step() { i=$((i + 1)); [ $i -ge 2 ]; }; rapido_wait 0 step; echo "$? $i"'
check "rapido_wait 0: no deadline" said 0 "0 2"

guest 'sleep 30 & p=$!; (sleep 0.3; kill $p) &
	start=$SECONDS; rapido_wait -p $p 20 false; echo "$? $((SECONDS - start < 5))"'
check "rapido_wait -p PID: stops when PID is gone, long before SECS" said 0 "1 1"

guest 'give_up() { rapido_fail "server said no"; }; rapido_wait 10 give_up; echo after'
check "rapido_wait: COMMAND may rapido_fail, which ends the autorun" said 1 "rapido: FAILED: server said no"

guest 'i=0; step() { i=$((i + 1)); false; }
	rapido_wait -i 0.5 1 step; echo "$? $((i >= 2 && i <= 3))"'
check "rapido_wait -i STEP: tries every STEP seconds (2 or 3 times in 1 s)" said 0 "1 1"

guest 'rapido_mounted /proc proc && echo "${RAPIDO_MOUNT[1]} ${RAPIDO_MOUNT[2]}"
	rapido_mounted /proc no-such-type; echo $?; rapido_mounted /no/such/dir; echo $?'
check "rapido_mounted DIR [TYPE]: what is mounted there, of TYPE" said 0 "/proc proc
1
1"

# rapido_stream_results (results.sh): a line begun and left open (a test
# running) is given as partial, then each whole line, the last one too
lib="$lib $TOP/autorun/lib/results.sh"
# The rest of the line is written once FUNC has been given the partial one
# (a fifo), not after a sleep: written after a sleep of 1.6 s it came, on a
# loaded machine, as the reader's second 1 s read timed out, which gave
# "partial t/001 2" (and a reader that started late saw no partial at all).
# The fifo is opened read-write so that the writer's read is bounded by -t
# (a regression that never calls FUNC fails, not hangs).
guest 'mkfifo "$RAPIDO_RUN_DIR/go" || exit 1
	ev() {
		echo "[$1 $2]"
		[ "$1" = partial ] && [ -z "${told:-}" ] || return 0
		told=1
		echo > "$RAPIDO_RUN_DIR/go"
	}
	{ printf "t/001 "; exec 3<> "$RAPIDO_RUN_DIR/go"; read -r -t 60 -u 3; printf "2s\nlast"; } |
		rapido_stream_results ev | uniq'
check "rapido_stream_results FUNC: partial, then the lines echoed and given to FUNC" said 0 "[partial t/001 ]
t/001 2s
[line t/001 2s]
last
[line last]"

# rapido_test_in_shard under ./vm --jobs: a shard leaves the serial tests
# (a glob of RAPIDO_SERIAL_TESTS, or "serial" from the caller) to the
# serial VM and lists them, escaped; the serial VM runs only those
mkdir -p "$T/res"
: > "$T/res/rapido-deferred.txt"
guest "$(printf 'set -- %q\n' "$T/res")"'
	RAPIDO_SHARD=1/1 RAPIDO_SERIAL=defer RAPIDO_RESULTS_DIR=$1 RAPIDO_SERIAL_TESTS=$'"'"'t/b*\nt/c d'"'"'
	for t in t/a t/b1 "t/c d" t/cd t/b1; do rapido_test_in_shard "$t" > /dev/null && echo "run $t"; done
	rapido_test_in_shard t/x serial > /dev/null || echo "not t/x"'
check "a shard runs the others, not the serial ones" said 0 "run t/a
run t/cd
not t/x"
check "and lists what it left, a record field each, once (asked twice)" \
	test "$(cat "$T/res/rapido-deferred.txt")" = "t/b1
t/c%20d
t/x"
: > "$T/res/rapido-deferred.txt"
guest "$(printf 'set -- %q\n' "$T/res")"'
	RAPIDO_SHARD=1/2 RAPIDO_SERIAL=defer RAPIDO_RESULTS_DIR=$1 RAPIDO_SERIAL_TESTS=jobs/alone
	rapido_test_in_shard jobs/alone || echo "not here"'
check "a serial test of another shard's hash: neither run nor listed here" said 0 "not here"
check "  (its own shard lists it)" test ! -s "$T/res/rapido-deferred.txt"
guest 'RAPIDO_SERIAL=only RAPIDO_SERIAL_TESTS=$'"'"'t/b*\nt/c d'"'"'
	for t in t/a t/b1 "t/c d" t/cd; do rapido_test_in_shard "$t" && echo "run $t"; done
	rapido_test_in_shard t/x serial && echo "run t/x"'
check "the serial VM runs only the serial ones" said 0 "run t/b1
run t/c d
run t/x"
guest 'RAPIDO_SHARD=1/1 RAPIDO_SERIAL=defer RAPIDO_SERIAL_TESTS=t/b
	rapido_test_in_shard t/b && echo "run t/b"'
check "no results dir to list it in: a serial test runs in the shard" said 0 \
	"rapido: test t/b: serial, but no results dir to leave it to the serial VM: run here
run t/b"

# rapido_stream_cmd's status file: the run's own dir, never a name in
# /tmp that anyone (a suite's unprivileged user) may plant a link at
guest 'r() { while read -r _; do :; done
		[ ! -e "/tmp/rapido-stream-$BASHPID.rc" ] || echo "a status file in /tmp"
		compgen -G "$RAPIDO_RUN_DIR/*" > /dev/null && echo "in the run dir"; }
	rapido_stream_cmd r sh -c "echo x; exit 5"; echo "status $?"
	compgen -G "$RAPIDO_RUN_DIR/*" || echo "none left"'
check "rapido_stream_cmd: its status through the run dir, none left, nothing in /tmp" said 0 \
	"in the run dir
status 5
none left"

# busybox's applets (RAPIDO_BUSYBOX_DIR, last on the guest's PATH) are the
# shell's and the extras', never a suite harness's: the profile's own part
# and rapido_stream_cmd / rapido_harness run without them
bb=/usr/lib/rapido/busybox
guest "export RAPIDO_BUSYBOX_DIR=$bb PATH=/usr/bin:/bin:$bb"'
	_rapido_part autorun/00-fstests_local.sh; echo "profile $PATH"
	rapido_stream_cmd cat sh -c '"'"'echo "stream $PATH"'"'"'
	_rapido_part autorun/01-cmd.sh; echo "extra $PATH"
	rapido_harness sh -c '"'"'echo "harness $PATH"'"'"'
	rapido_stream_cmd cat sh -c '"'"'echo "stream in an extra $PATH"'"'"''
check "the profile's part and a harness run without the busybox dir, an extra with it last" \
	said 0 "profile /usr/bin:/bin
stream /usr/bin:/bin
extra /usr/bin:/bin:$bb
harness /usr/bin:/bin
stream in an extra /usr/bin:/bin"
# busybox's directory taken off wherever and however often it is, the
# init's PATH (once, last) by a shorter way: the same PATHs either way
guest "export RAPIDO_BUSYBOX_DIR=$bb"'
	for p in /usr/bin:/bin:$RAPIDO_BUSYBOX_DIR $RAPIDO_BUSYBOX_DIR:/usr/bin:$RAPIDO_BUSYBOX_DIR \
		/x:$RAPIDO_BUSYBOX_DIR:$RAPIDO_BUSYBOX_DIR $RAPIDO_BUSYBOX_DIR /usr/bin /x:${RAPIDO_BUSYBOX_DIR}x \
		::$RAPIDO_BUSYBOX_DIR:; do
		PATH=$p _rapido_path harness
		h=$REPLY
		PATH=$p _rapido_path shell
		echo "$p: [$h] [$REPLY]"
	done'
check "_rapido_path: the busybox dir taken off anywhere, a name it begins not; last again for a shell" \
	said 0 "/usr/bin:/bin:$bb: [/usr/bin:/bin] [/usr/bin:/bin:$bb]
$bb:/usr/bin:$bb: [/usr/bin] [/usr/bin:$bb]
/x:$bb:$bb: [/x] [/x:$bb]
$bb: [] [$bb]
/usr/bin: [/usr/bin] [/usr/bin:$bb]
/x:${bb}x: [/x:${bb}x] [/x:${bb}x:$bb]
::$bb:: [::] [:::$bb]"

# poweroff in a subshell (not the autorun's own shell): the status of the
# command before it left for the init, which it asks by SIGUSR2 (here the
# guest shell stands in for the init: never signal the host's PID 1; and
# never run the host's own poweroff: were the library's missing, false runs)
guest 'hash -p /bin/false poweroff; hash -p /bin/false shutdown; _rapido_init_pid=$$
	_rapido_autorun_begin
	trap "kill %1; echo asked \$(cat \$RAPIDO_RUN_DIR/rapido.poweroff); exit 0" USR2
	(false; poweroff) & wait; echo "not asked"'
check "poweroff elsewhere in a part: the last status kept, the init asked by SIGUSR2" said 0 "asked 1"
guest 'hash -p /bin/false poweroff; _rapido_init_pid=$$; : > "$RAPIDO_RUN_DIR/rapido.prompt"
	trap "kill %1; echo asked \$(cat \$RAPIDO_RUN_DIR/rapido.poweroff); exit 0" USR2
	(false; poweroff) & wait; echo "not asked"'
check "  at the prompt, the profile finished: leaving, no verdict of its own, 0" said 0 "asked 0"
guest 'hash -p /bin/false poweroff; _rapido_init_pid=$$
	trap "kill %1; echo asked \$(cat \$RAPIDO_RUN_DIR/rapido.poweroff 2> /dev/null || echo nothing); exit 0" USR2
	(false; poweroff) & wait; echo "not asked"'
check "  in a second shell before the profile finished: no status left (the init: no verdict, 123)" \
	said 0 "rapido: poweroff before the profile finished: no verdict
asked nothing"
guest 'hash -p /bin/false shutdown; _rapido_autorun_begin; true; (exit 3); shutdown -h now; echo after'
check "shutdown -h now in the autorun's shell: its exit, the status before it" said 3 \
	"rapido: the autorun FAILED with status 3: autorun: exit status 3"
# the end of the parts marks the prompt for the init (a power-off it is
# signalled for from then on is leaving, before it no pass): only in an
# interactive shell, never in batch
guest '_rapido_autorun_begin; _rapido_autorun_end; echo never'
check "batch: the autorun ends at the end of its parts, no prompt marked" eval \
	'said 0 "" && test ! -e "$T/run/rapido.prompt"'
guest "bash --norc -i -c 'for f in $lib; do source \$f; done; _rapido_autorun_begin; _rapido_autorun_end
	test -f \"\$RAPIDO_RUN_DIR/rapido.prompt\" && echo marked; builtin trap - EXIT' 2> /dev/null < /dev/null"
check "interactive: the prompt marked in the run dir" said 0 "marked"
# the interactive shell's steps are rapido-shell.sh's, which every
# interactive autorun sources (./cut): one without it is a failure, said,
# never the pass of a shell that keeps no verdict
guest "bash --norc -i -c 'source $TOP/autorun/lib/rapido.sh; _rapido_autorun_begin; echo after' < /dev/null"
check "interactive without rapido-shell.sh: a failure naming it" eval 'exits 1 && ! grep -q after "$T/out" &&
	grep -qx "rapido: FAILED: an interactive autorun without the interactive shell'"'"'s library (autorun/lib/rapido-shell.sh)" "$T/out"'
# interactive, the profile interrupted before it finished (Ctrl-C, here its
# own SIGINT: bash leaves the rc file for the prompt): the shell is the
# user's, but leaving it (true; poweroff, or exit) is no pass: no status
# for the init, which is asked by SIGUSR2 (here the stand-in says what it
# got) and told why in rapido.early (the init: no verdict, 123)
cat > "$T/rc-int.sh" << EOF
for f in $lib; do source "\$f"; done
_rapido_init_pid=\$\$
builtin trap 'echo "asked \$(cat \$RAPIDO_RUN_DIR/rapido.poweroff 2> /dev/null || echo nothing)"; builtin trap - EXIT; exit 0' USR2
_rapido_autorun_begin
_rapido_part autorun/00-int.sh
kill -INT \$\$
echo "the rest of the profile"
_rapido_autorun_end
EOF
# a trap on EXIT at that prompt (the profile sourced again: its clean-up
# trap) is kept apart as the profile's is, never in place of the library's
for leave in 'true; poweroff' 'true; exit' 'trap "echo cleaned" EXIT; true; exit'; do
	rm -rf "$T/run" && mkdir "$T/run" || exit 1
	printf '%s\n' "$leave" > "$T/in"
	RAPIDO_RUN_DIR=$T/run run bash --rcfile "$T/rc-int.sh" -i < "$T/in"
	check "interactive, the profile interrupted, then $leave: no pass" \
		eval 'grep -qx "asked nothing" "$T/out" && ! grep -q "the rest of the profile" "$T/out"'
	check "  said at the prompt, and why told to the init" eval \
		'grep -q "rapido: autorun/00-int.sh was interrupted before the profile finished" "$T/err" &&
		grep -q "interrupted before the profile finished" "$T/run/rapido.early"'
done
# exec at that prompt runs no trap of ours: the init is told at the
# interruption (rapido.early, read when the autorun exits: no verdict)
rm -rf "$T/run" && mkdir "$T/run" || exit 1
printf '%s\n' 'exec true' > "$T/in"
RAPIDO_RUN_DIR=$T/run run bash --rcfile "$T/rc-int.sh" -i < "$T/in"
check "interactive, the profile interrupted, then exec true: the init told at once" eval \
	'grep -q "autorun/00-int.sh was interrupted before the profile finished" "$T/run/rapido.early"'

# rapido_no_suite: a suite profile without its suite passes only as a shell
mkdir -p "$T/parts" && : > "$T/parts/00-ltp.sh" || exit 1
export PARTS=$T/parts
unset RAPIDO_BATCH RAPIDO_RESULTS_PORT RAPIDO_EXEC
guest '_rapido_autorun_dir=$PARTS; rapido_no_suite LTP_SRC "ltp: LTP not included"; echo "rc=$?"'
check "rapido_no_suite, interactive: said, the shell is the user's" said 0 "ltp: LTP not included
rc=0"
guest '_rapido_autorun_dir=$PARTS; RAPIDO_BATCH=1 rapido_no_suite LTP_SRC "ltp: LTP not included"; echo after'
check "rapido_no_suite, --batch: a failure naming the key" said 1 "ltp: LTP not included
rapido: FAILED: LTP_SRC unset: the suite is not in the image, so no test ran (set LTP_SRC and cut again)"
guest '_rapido_autorun_dir=$PARTS; RAPIDO_RESULTS_PORT=/dev/null rapido_no_suite LTP_SRC "no LTP"; echo after'
check "rapido_no_suite, --results: a failure" exits 1
guest '_rapido_autorun_dir=$PARTS; RAPIDO_BATCH=1 RAPIDO_EXEC="n c b" rapido_no_suite LTP_SRC "no LTP"; echo "rc=$?"'
check "rapido_no_suite, --batch with rapido run's command: no failure" said 0 "no LTP
rc=0"
: > "$T/parts/01-cmd.sh"
guest '_rapido_autorun_dir=$PARTS; RAPIDO_BATCH=1 rapido_no_suite LTP_SRC "no LTP"; echo "rc=$?"'
check "rapido_no_suite, --batch with a -x extra: no failure" said 0 "no LTP
rc=0"

guest 'rapido_not_skip sh -c "echo out; exit 77"; echo "rc=$?"; rapido_not_skip sh -c "exit 3"; echo "rc=$?"
	rapido_not_skip true; echo "rc=$?"'
check "rapido_not_skip: 77 is a failure (1), said; other statuses kept" said 0 "out
rapido: sh exited 77: a failure here (status 1), not a skip
rc=1
rc=3
rc=0"

guest 'sleep 30 & p=$!; echo $p > "$PARTS/d.pid"; : > "$PARTS/gone.pid"
	rapido_on_fail_kill "$PARTS/d.pid"; rapido_on_fail_kill "$PARTS/gone.pid"
	(rapido_fail "boom"); rapido_wait 5 rapido_pid_gone $p && echo "gone: $p"'
check "rapido_on_fail_kill: the daemon of a PID file killed by rapido_fail (a subshell's too)" \
	grep -qx "gone: [0-9]*" "$T/out"
check "  said, an emptied PID file left alone" sh -c "grep -c '^rapido: killed ' '$T/out' | grep -qx 1"

# rapido_conf_form: a key's value of the wrong form stops the profile, named
# form_is KEY FORM VALUE [EXPECTED]: KEY=VALUE passes, or stops the profile expecting EXPECTED
form_is() {
	guest "$1='$3'; rapido_conf_form $1 $2; echo ok"
	if [ $# -eq 3 ]; then
		check "rapido_conf_form $2: $1='$3' is good" said 0 ok
	else
		check "rapido_conf_form $2: $1='$3' stops the profile" said 1 "rapido: FAILED: $1='$3': expected $4"
	fi
}
ip4="an IPv4 address (e.g. 10.99.0.1)" bus="a USB bus id N-N[.N] (e.g. 1-1, 1-1.2)"
for v in 10.99.0.1 192.168.255.250 0.0.0.0 ''; do form_is NVME_RDMA_ADDR ipv4 "$v"; done
for v in 10.99.0 10.99.0.256 fe80::1 10.99.0.1/24 ' 10.99.0.1'; do form_is NVME_RDMA_ADDR ipv4 "$v" "$ip4"; done
for v in 1-1 3-1.2 1-1.2.4 ''; do form_is USBIP_BUSID usb-busid "$v"; done
for v in 1 1-1. usb1 '1-1 2-1' 1-1.x; do form_is USBIP_BUSID usb-busid "$v" "$bus"; done

done_testing
