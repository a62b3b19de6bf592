#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cut-signals.sh: ./cut stopped by SIGTERM or SIGINT sent to its pid alone
# (as CI runners and systemd do) stops every process of its dracut run,
# leaves no temporary behind and exits 128+SIG. After a SIGKILL, the next
# cut of the same image removes what the dead one left, and never what a
# live cut is writing. Cut-only: no VM boots.
. "$(dirname "$0")/lib.sh"

# Every process a cut starts inherits this mark in its environment, so the
# processes of one run can be found even once they are orphaned.
MARK=RAPIDO_TEST_CUT_RUN

# marked TAG: pids of live processes of the cut run tagged TAG
marked() {
	local f
	for f in /proc/[0-9]*/environ; do
		tr '\0' '\n' 2> /dev/null < "$f" | grep -qxF "$MARK=$T/$1" && echo "${f//[^0-9]/}"
	done
}
# A cut's dracut is stopped at a known point, so a signal provably arrives
# while it runs: its last step, the cpio writing the archive, is this
# wrapper (first in DRACUT_PATH, the PATH dracut sets itself, for the
# test's cuts only), which says so by a file
# and waits for the test to let it go on. It is a process of the dracut
# run like any other: a cut that stops dracut alone leaves it behind.
real_cpio=$(command -v cpio) || { echo "SKIP: no cpio (dracut needs it)"; exit 77; }
mkdir "$T/bin"
cat > "$T/bin/cpio" << EOF
#!/bin/bash
# dracut also asks "cpio --help"; only the archive (-o) waits
case " \$* " in *" -o "*) ;; *) exec "$real_cpio" "\$@" ;; esac
mkfifo "\$$MARK.go" && : > "\$$MARK.blocked" && read -r _ < "\$$MARK.go"
exec "$real_cpio" "\$@"
EOF
chmod +x "$T/bin/cpio"
# start_cut TAG ARGS...: run ./cut in the background with the mark and the
# waiting cpio; sets $cut
start_cut() {
	local tag=$1
	shift
	env "$MARK=$T/$tag" DRACUT_PATH="$T/bin /sbin /bin /usr/sbin /usr/bin" \
		"$CUT" "$@" > "$T/$tag.out" 2>&1 &
	cut=$!
}
# wait_dracut TAG PID: until the dracut of the cut PID (tagged TAG) waits
# in its last step; fails if the cut ends first, or after 300 s
wait_dracut() {
	local i
	for i in $(seq 1 3000); do
		if [ -e "$T/$1.blocked" ]; then
			pgrep -P "$2" -x dracut > /dev/null
			return
		fi
		kill -0 "$2" 2> /dev/null || return 1
		sleep 0.1
	done
	return 1
}
# go_on TAG: let the cut tagged TAG's dracut finish (its cpio reads the go)
go_on() {
	timeout 60 sh -c 'echo go > "$1"' sh "$T/$1.go"
}
# leftovers: anything next to the image but the image itself
leftovers() {
	ls -A "$T" | grep '^image\.'
}
show() {
	sed 's/^/# /' "$T/$1.out"
	leftovers | sed 's/^/# left: /'
}

for sig in TERM INT; do
	rm -f "$T/image"
	start_cut "$sig" simple
	if ! wait_dracut "$sig" "$cut"; then
		not_ok "SIG$sig: dracut never started"
		show "$sig"
		continue
	fi
	check "SIG$sig comes while dracut runs (its cpio waits)" test -n "$(pgrep -f "^/bin/bash $T/bin/cpio ")"
	kill -s "$sig" "$cut"
	wait "$cut"
	rc=$?
	want=$((128 + $(kill -l "$sig")))
	expect_rc "SIG$sig to cut alone: exits 128+SIG$sig" "$want" "$rc"
	alive=$(marked "$sig")
	check "  no process of its dracut run is left" test -z "$alive"
	[ -z "$alive" ] || ps -o pid,ppid,pgid,args -p "${alive//$'\n'/,}" | sed 's/^/# /'
	check "  no temporary is left" test -z "$(leftovers)"
	check "  no image" test ! -e "$T/image"
	[ $fails = 0 ] || show "$sig"
	# the old failure: dracut went on and wrote its archive seconds later
	for p in $alive; do kill -9 "$p" 2> /dev/null; done
done

# SIGKILL: cut cannot clean up, and what its run left stays until no
# process of that run is alive; then the next cut removes it.
start_cut KILL simple
if wait_dracut KILL "$cut"; then
	kill -9 "$cut"
	wait "$cut" 2> /dev/null
	# dracut dies with cut (PR_SET_PDEATHSIG); its waiting cpio, orphaned,
	# goes on to the end of its input as a real one would
	go_on KILL
	for i in $(seq 1 600); do
		[ -z "$(marked KILL)" ] && break
		sleep 0.1
	done
	check "SIGKILL: the processes of its dracut run end with it" test -z "$(marked KILL)"
	stale=$(leftovers)
	check "  it left its temporaries" test -n "$stale"
	"$CUT" simple > "$T/next.out" 2>&1
	expect_rc "  the next cut of the same image succeeds" 0 $?
	check "  and removed them" test -z "$(leftovers)"
	check "  saying so" grep -q "removed .*$T/image\.cut-" "$T/next.out"
	check "  the image is there" test -s "$T/image"
	[ $fails = 0 ] || { show KILL; sed 's/^/# next: /' "$T/next.out"; }
else
	not_ok "SIGKILL: dracut never started"
	show KILL
fi

# Two cuts of the same image at once: the second starts while the first's
# dracut is writing, and must leave the first's temporaries alone. They
# build the same layers: the second runs its own dracut rather than wait
# for the first's (the cache is locked only to look up and store), and
# whichever stores a layer second uses the first's entry. A cold cache, or
# the first would find the layers the cuts above stored and run no dracut.
rm -f "$T/image"
rm -rf "$CUT_CACHE_DIR"
start_cut A simple
a=$cut
if wait_dracut A "$a"; then
	start_cut B simple -x 'echo second'
	b=$cut
	check "parallel cuts: both run dracut at once" dracut_overlap "$a" "$b"
	go_on A
	wait_dracut B "$b" && go_on B
	wait "$a"
	ra=$?
	wait "$b"
	rb=$?
	expect_rc "parallel cuts: the first succeeds" 0 "$ra"
	expect_rc "  the second succeeds" 0 "$rb"
	check "  no temporary is left" test -z "$(leftovers)"
	check "  none in the cache either" test -z "$(ls -A "$CUT_CACHE_DIR/tmp")"
	check "  one entry per layer (modules, ondemand, bins, libs, busybox, helpers)" \
		test "$(ls "$CUT_CACHE_DIR"/layers/*.meta | wc -l) $(ls "$CUT_CACHE_DIR"/layers/*.cpio | wc -l)" = "6 6"
	check "  the image is a cpio archive" test "$(head -c 6 "$T/image")" = 070701
	[ $fails = 0 ] || { show A; show B; }
else
	not_ok "parallel cuts: dracut never started"
	show A
fi

# The lock decides, not the name: a temporary whose lock is held by a live
# process stays; one nobody holds is removed.
mkdir "$T/image.cut-Live01" "$T/image.cut-Dead01"
echo data > "$T/image.cut-Live01/image"
echo data > "$T/image.cut-Dead01/image"
# this shell holds the lock (on its own open file description) till it closes it
exec {lfd}< "$T/image.cut-Live01"
flock -n "$lfd"
"$CUT" simple > "$T/lock.out" 2>&1
expect_rc "a cut beside a held and an abandoned temporary" 0 $?
check "  keeps the one a live process holds" test -e "$T/image.cut-Live01/image"
check "  removes the abandoned one" test ! -e "$T/image.cut-Dead01"
exec {lfd}<&-
rm -rf "$T/image.cut-Live01"
[ $fails = 0 ] || sed 's/^/# /' "$T/lock.out"
done_testing
