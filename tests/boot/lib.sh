# SPDX-License-Identifier: GPL-2.0
# lib.sh: shared set-up for boot tests. Each test gets a private rapido
# directory (the real build and profiles, plus fixture profiles), a private
# rapido.conf, state dir and image path, and runs qemu under TCG.
# TAP helpers, TOP and the private directory T: tests/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../tap.sh"

export QEMU_ACCEL=${TEST_QEMU_ACCEL:-tcg}
export RAPIDO_CONF=$T/rapido.conf
export VM_STATE_DIR=$T/state
# VM numbers private to the test (tests run in parallel and expect rapido1);
# slot-global.sh checks the machine-wide default
export VM_LOCK_DIR=$T/locks
export DRACUT_OUT=$T/image
# a private layer cache: a test never reads another's layers, nor the user's
export CUT_CACHE_DIR=$T/cache
: > "$RAPIDO_CONF"

# a rapido dir whose autorun/ also holds the fixture profiles
RD=$T/rapido
mkdir -p "$RD/autorun"
ln -s "$TOP/build" "$RD/build"
ln -s "$TOP/dracut.conf.d" "$RD/dracut.conf.d"
# host programs a profile's "#@ prepare" runs (host/kselftests)
ln -s "$TOP/host" "$RD/host"
ln -s "$TOP/autorun/lib" "$RD/autorun/lib"
ln -s "$TOP/autorun/configfs" "$RD/autorun/configfs"
ln -s "$TOP/autorun/include" "$RD/autorun/include"
# the program->package table ./cut names a missing program's package from
ln -s "$TOP/autorun/packages" "$RD/autorun/packages"
for f in "$TOP"/autorun/*.sh "$TOP"/tests/fixtures/profiles/*.sh; do
	[ -e "$f" ] && ln -s "$f" "$RD/autorun/"
done
export RAPIDO_DIR=$RD
CUT=$TOP/cut
VM=$TOP/vm

# on_pty FD KEYS CONSOLE CMD: CMD (a shell string) in the background on a
# pseudo-terminal, as a person at a terminal runs it: what is written to FD
# reaches its keyboard through the fifo KEYS, what it prints goes to
# CONSOLE; its pid in pty_pid
on_pty() {
	mkfifo "$2" || return 1
	script -qefc "$4" /dev/null < "$2" > "$3" 2>&1 &
	pty_pid=$!
	eval "exec $1> \"\$2\""
}
# pty_wait PID CONSOLE GREP-ARGS...: until the guest's text in CONSOLE
# matches (the state waited for, polled once a second), or PID ended: 1
pty_wait() {
	local pid=$1 console=$2 i
	shift 2
	for ((i = 0; i < 600; i++)); do
		guest_text "$console" | grep -q "$@" && return 0
		kill -0 "$pid" 2> /dev/null || return 1
		sleep 1
	done
	return 1
}
# run_err DESCRIPTION PATTERN COMMAND...: COMMAND fails and prints PATTERN (a
# grep regular expression); a test may define run_err_also, a further check that must hold
# (for instance that no image was left behind)
run_err() {
	local d=$1 pat=$2
	shift 2
	# stdout and stderr together in $T/out, as the tests that grep it after expect
	"$@" > "$T/out" 2>&1
	rc=$?
	: > "$T/err"
	if [ $rc -ne 0 ] && grep -q -- "$pat" "$T/out" &&
		{ ! declare -F run_err_also > /dev/null || run_err_also; }; then
		ok "$d"
	else
		not_ok "$d (exit $rc)"
		show_run
	fi
}
# The kernel must not have complained while we were at it (kernel lines
# only: a guest program may print its own "WARNING:"); an empty or missing
# console is no clean one.
console_clean() {
	[ -s "$1" ] && ! grep -aE '^\[ *[0-9.]+\] .*(BUG:|WARNING:|Oops|Call Trace)' "$1"
}
# console_clean_but FILE RE: console_clean, but for the kernel reports
# whose first line matches RE (grep -E, after the timestamp): each with
# its one Call Trace, nothing else
console_clean_but() {
	local traces reports
	[ -s "$1" ] || return 1
	traces=$(grep -acE '^\[ *[0-9.]+\] .*Call Trace' "$1")
	reports=$(grep -acE "^\[ *[0-9.]+\] $2" "$1")
	! grep -aE '^\[ *[0-9.]+\] .*(BUG:|WARNING:|Oops)' "$1" | grep -vqE "^\[ *[0-9.]+\] $2" &&
		[ "$traces" = "$reports" ]
}
# console_clean_but_hung FILE: console_clean, but for hung-task reports
# (a task blocked for two minutes: the kernel's word on slowness, each with
# its one Call Trace); every other report still fails
console_clean_but_hung() {
	console_clean_but "$1" 'INFO: task [^ ]+ blocked for more than'
}
# hung_reports NAME FILE: each hung-task report in FILE, its line and the
# first frames of its stack, as TAP comments naming NAME (what blocked, for
# the record, where console_clean_but_hung let it through)
hung_reports() {
	awk -v n="$1" '
/^\[ *[0-9.]+\] INFO: task [^ ]+ blocked for more than/ { k = 12 }
k > 0 { k--; sub(/\r$/, ""); print "# " n ": " $0 }' "$2"
}
# the guest's own console output: kernel messages (which may land in the
# middle of a line the guest is printing) cut out, carriage returns dropped
guest_text() {
	perl -0pe 's/\r//g; s/\[ *\d+\.\d+\] [^\n]*\n//g' "$1"
}
# guest_says FILE TEXT: the guest printed TEXT (a fixed string) on its console
guest_says() {
	guest_text "$1" | grep -qF -- "$2"
}
# console_says FILE RE: a kernel line, or a line the guest printed (kernel
# lines cut out of it), matches RE (grep's basic regex)
console_says() {
	{ tr -d '\r' < "$1"; guest_text "$1"; } | grep -q -- "$2"
}
# guest_matches FILE RE: a line the guest printed matches RE (grep's basic regex)
guest_matches() {
	guest_text "$1" | grep -q -- "$2"
}
# testcases FILE: "NAME STATE" lines of a junit.xml, in order (STATE: pass,
# failure, error or skipped)
testcases() {
	perl -ne 'if (/<testcase [^>]*name="([^"]*)"/) { $n = $1; print "$n pass\n" if m{/>\s*$}; next }
		if (defined $n && /<(failure|error|skipped)/) { print "$n $1\n"; undef $n; next }
		if (defined $n && m{</testcase>}) { print "$n pass\n"; undef $n }' "$1"
}
# console_verdicts CONSOLE: "NAME STATE" of each verdict the guest library
# printed on CONSOLE ("rapido: test NAME: passed|FAILED|ERROR|skipped",
# autorun/lib/results.sh), sorted, STATE as testcases names it: what
# junit.xml holds when every test's record reached ./vm
console_verdicts() {
	guest_text "$1" | sed -nE 's/^rapido: test ([^ :]+): (passed|FAILED|ERROR|skipped).*/\1 \2/p' |
		sed 's/ passed$/ pass/; s/ FAILED$/ failure/; s/ ERROR$/ error/' | LC_ALL=C sort
}
# layer KIND IMAGE: the cache key of the image's KIND layer (from its rapido/layers)
layer() {
	cpio -i --quiet --to-stdout rapido/layers < "$2" | awk -v k="$1" '$1 == "layer" && $2 == k {print $5}'
}
# image_names IMAGE: the name of every entry of every archive IMAGE holds
# (cpio -t stops at the first archive's end), a line each
image_names() {
	perl -0777 -ne 'my ($o, $n) = (0, length);
		while ($o < $n) {
			if (substr($_, $o, 1) eq "\0") { $o++; next }
			last if substr($_, $o, 6) ne "070701";
			my @f = map { hex } unpack("(A8)13", substr($_, $o + 6, 104));
			my $name = substr($_, $o + 110, $f[11] - 1);
			$o = (($o + 110 + $f[11] + 3) & ~3) + $f[6];
			$o = ($o + 3) & ~3;
			print "$name\n" if $name ne "TRAILER!!!";
		}' "$1"
}
# modules_unpack IMAGE DIR: the image's modules layer and, where it has
# one, its on-demand modules' (src/cut/kmods.c), unpacked into DIR from
# CUT_CACHE_DIR: depmod's files in the first name the modules of both
modules_unpack() {
	local k key
	mkdir -p "$2" || return 1
	for k in modules ondemand; do
		key=$(layer "$k" "$1")
		if [ -z "$key" ]; then
			[ "$k" = ondemand ] && continue
			return 1
		fi
		[ -f "$CUT_CACHE_DIR/layers/$key.cpio" ] || return 1
		(cd "$2" && cpio -id --quiet --no-absolute-filenames < "$CUT_CACHE_DIR/layers/$key.cpio") || return 1
	done
}
# state KIND [FILE]: built or cached, KIND's line of a `cut -v` output
# (FILE, by default the last one in $T/out)
state() {
	awk -v k="$1" '$1 == k {print $2}' "${2:-$T/out}"
}
# suite_tree NAME: SUITE is the real suite NAME, built once and cached
# (tests/suite-tree); the test skips where ../shared/suites lacks it, and
# bails out when it cannot be built
suite_tree() {
	SUITE=$("$TOP/tests/suite-tree" "$1")
	case $? in
	0) ;;
	77) echo "# SKIP ${SUITE#SKIP: }"; exit 77 ;;
	*) echo "Bail out! tests/suite-tree $1 failed: ${SUITE:-see above}"; exit 1 ;;
	esac
}
# tree_copy SRC DST: DST a copy of the tree SRC, its files hard links (a
# plain copy where the two are on other mounts): change a file of it only
# by replacing it whole, so that SRC (the cache) stays as it is
tree_copy() {
	cp -al "$1" "$2" 2> /dev/null || { rm -rf "$2" && cp -a "$1" "$2"; }
}
# suite_failing_copy SRC DST: DST, a copy of the xfstests tree SRC in
# which generic/002 fails ("output mismatch"): its golden output replaced
# by a new file
suite_failing_copy() {
	tree_copy "$1" "$2" && rm "$2/tests/generic/002.out" &&
		printf 'QA output created by 002\nSilence is not goodness ...\n' > "$2/tests/generic/002.out"
}
# xfstests_and_failing: X is the real xfstests (suite_tree), BAD a copy in
# $T whose generic/002 fails (suite_failing_copy); the test stops if the
# copy cannot be made
xfstests_and_failing() {
	suite_tree xfstests
	X=$SUITE
	BAD=$T/xfstests-bad
	suite_failing_copy "$X" "$BAD" || exit 1
}
# xfstests_printed CONSOLE: "NAME STATE" for each result line xfstests'
# ./check printed on the guest's console (a time: pass; a mismatch or
# [failed...]: failure; [not run] or [expunged]: skipped), sorted, as
# testcases prints junit.xml's
xfstests_printed() {
	guest_text "$1" | perl -ne '
		next unless m{^([a-z0-9_.-]+/\d+)\s+(.*?)\s*$};
		my ($n, $r) = ($1, $2);
		if ($r =~ /\[not run\]|\[expunged\]/) { print "$n skipped\n" }
		elsif ($r =~ /output mismatch|\[failed/) { print "$n failure\n" }
		elsif ($r =~ /\d+s$/) { print "$n pass\n" }' | LC_ALL=C sort
}
# installed_kernel_or_skip: rel = the installed kernel ./cut picks (as
# src/image/kernel.c does: the newest /boot/vmlinuz-REL in version order, not
# string order, that has a /lib/modules/REL), provided it is usable (image
# readable, config and modules.dep there); else skip, saying why
installed_kernel_or_skip() {
	local k r why=
	rel=$(for k in /boot/vmlinuz-*; do
		r=${k#/boot/vmlinuz-}
		[ -e "$k" ] && [ -d "/lib/modules/$r" ] && printf '%s\n' "$r"
	done | sort -V | tail -n 1)
	if [ -z "$rel" ]; then
		why="no installed kernel: no /boot/vmlinuz-REL with /lib/modules/REL"
	elif [ ! -r "/boot/vmlinuz-$rel" ]; then
		why="/boot/vmlinuz-$rel is not readable"
	elif [ ! -f "/boot/config-$rel" ]; then
		why="/boot/config-$rel is missing"
	elif [ ! -f "/lib/modules/$rel/modules.dep" ]; then
		why="/lib/modules/$rel/modules.dep is missing"
	fi
	if [ -n "$why" ]; then
		echo "SKIP: $why (make deps)"
		exit 77
	fi
}
# installed_kernel_tree DIR: the kernel installed_kernel_or_skip picked
# ($rel) as a KERNEL_SRC tree in DIR/src, its module directory m
# (DIR/mods/lib/modules/$rel) linking the installed modules and holding
# copies of the lists, so that a test may rewrite any of them ("a kernel
# rebuild") without touching /lib/modules; KERNEL_SRC and
# KERNEL_INSTALL_MOD_PATH exported
installed_kernel_tree() {
	local k=$1
	m=$k/mods/lib/modules/$rel
	mkdir -p "$k/src/arch/x86/boot" "$k/src/include/config" "$k/mods/lib/modules"
	ln -s "/boot/vmlinuz-$rel" "$k/src/arch/x86/boot/bzImage"
	echo "$rel" > "$k/src/include/config/kernel.release"
	cp "/boot/config-$rel" "$k/src/.config"
	cp -rs "/lib/modules/$rel" "$m"
	find "$m" -maxdepth 1 -name 'modules.*' -type l \
		-exec sh -c 'for f; do cp --remove-destination "$(readlink "$f")" "$f"; done' sh {} +
	export KERNEL_SRC=$k/src KERNEL_INSTALL_MOD_PATH=$k/mods
}
# recompress MOD EXT: the module file MOD (PATH.ko, .ko.xz, .ko.zst or
# .ko.gz; a link is followed, its target left alone) replaced by
# PATH.ko.EXT (xz, zst or gz), as a kernel whose modules are compressed
# installs it
recompress() {
	local p=${1%.ko*}.ko src
	src=$(readlink -f "$1")
	case $src in
	*.xz) xz -dc "$src" ;; *.zst) zstd -qdc "$src" ;; *.gz) gzip -dc "$src" ;; *) cat "$src" ;;
	esac > "$p.raw"
	rm -f "$p" "$p.xz" "$p.zst" "$p.gz"
	case $2 in
	xz) xz -C crc32 -c "$p.raw" > "$p.xz" ;; zst) zstd -q -c "$p.raw" > "$p.zst" ;;
	gz) gzip -nc "$p.raw" > "$p.gz" ;;
	esac
	rm "$p.raw"
}
# test_qemu: pids of this test's qemu processes. ./vm hands qemu the
# image as /proc/self/fd/N, so the image's path marks nothing; the QMP
# socket ./vm passes (-qmp unix:VM_STATE_DIR/vmN.qmp) lies in the test's
# private state dir, which no other test's qemu names
test_qemu() {
	local p
	for p in $(pgrep -x 'qemu-system-.*'); do
		tr '\0' '\n' < "/proc/$p/cmdline" 2> /dev/null |
			grep -q "^unix:$VM_STATE_DIR/vm[0-9]*\.qmp," && echo "$p"
	done
}
# no_test_qemu: no qemu of this test is left running (those that are, as
# TAP comments)
no_test_qemu() {
	local left
	left=$(test_qemu)
	[ -z "$left" ] && return 0
	ps -o pid,args -p "${left//$'\n'/,}" | sed 's/^/# left running: /'
	return 1
}
# the guest's network helpers (autorun/lib/net.sh: function definitions
# only, plain bash), on the host: net_tcp_listening PORT
. "$TOP/autorun/lib/net.sh"
# free_port BASE: in port, BASE plus this test's pid modulo 20000 or the
# first port above it nothing listens on (tests run side by side)
free_port() {
	port=$(($1 + $$ % 20000))
	while net_tcp_listening $port; do
		port=$((port + 1))
	done
}
# link_boot OUT1 OUT2 ARGS1... -- ARGS2...: two VMs on a rootless link:
# ./vm ARGS1 --link-listen 127.0.0.1:PORT (console in OUT1) in the
# background, then, once its qemu listens (a connect to nothing makes qemu
# fail), ./vm ARGS2 --link-connect to it (OUT2). A second VM that failed
# will never tell the first it is done: the first is stopped then. Exit
# statuses in r1 and r2, the wall time in link_secs
link_boot() {
	local out1=$1 out2=$2 a1=() p1 p2 i start=$SECONDS

	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		a1+=("$1")
		shift
	done
	shift
	free_port 20000
	"$VM" "${a1[@]}" --link-listen "127.0.0.1:$port" > "$out1" 2>&1 &
	p1=$!
	for ((i = 0; i < 300; i++)); do
		net_tcp_listening $port && break
		kill -0 $p1 2> /dev/null || break
		sleep 0.2
	done
	"$VM" "$@" --link-connect "127.0.0.1:$port" > "$out2" 2>&1 &
	p2=$!
	wait $p2
	r2=$?
	[ $r2 = 0 ] || kill $p1 2> /dev/null
	wait $p1
	r1=$?
	link_secs=$((SECONDS - start))
}
# may_mount: this test may mount file systems (a tmpfs standing in for a
# small or read-only disk): mount(2) needs CAP_SYS_ADMIN, which root has
# and a user, or root under setpriv or a container without it, has not.
# Else false, with why_no_mount saying why (for a skip).
why_no_mount=
may_mount() {
	local eff
	eff=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)
	[ -n "$eff" ] && (( (0x$eff >> 21) & 1 )) && return 0
	why_no_mount="mounting a tmpfs needs CAP_SYS_ADMIN, which this test (uid $(id -u)) lacks"
	return 1
}
# diag: after a boot's checks, show what the guest printed if any failed
seen_fails=0
diag() {
	[ "$fails" -eq "$seen_fails" ] && return
	seen_fails=$fails
	guest_text "$T/console" | tail -n 40 | sed 's/^/# /'
}
# need_arm64: the arm64 guests' set-up (make deps ARCHES=arm64, as CI does)
# or skip with what is missing; exports SYSROOT
need_arm64() {
	SYSROOT=${SYSROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/rapido/arm64/sysroot}
	export SYSROOT
	local need
	for need in "$TOP/build/arm64/rapido-init" "$SYSROOT/.rapido-packages"; do
		[ -e "$need" ] || { echo "# SKIP $need is missing (make deps ARCHES=arm64; make ARCHES=arm64)"; exit 77; }
	done
	command -v qemu-system-aarch64 > /dev/null ||
		{ echo "# SKIP qemu-system-aarch64 is missing (make deps ARCHES=arm64)"; exit 77; }
}
# dracut_overlap PID1 PID2: the two cuts each have a dracut child at the
# same moment (neither waits for the other's dracut run); fails when one
# has no dracut left running, or after 60 s
dracut_overlap() {
	local i
	for i in $(seq 1 600); do
		pgrep -P "$1" -x dracut > /dev/null && pgrep -P "$2" -x dracut > /dev/null && return 0
		[ "$(ps -o stat= -p "$1" "$2" | grep -cv '^Z')" = 2 ] || return 1
		sleep 0.1
	done
	return 1
}
# bisect_walk DIR GOOD BAD VERDICT...: the tags of the commits git bisect
# visits in the git tree DIR, one a line, when the commit tagged T is
# judged as the VERDICT "T=bad" or "T=skip" says (good when none names
# it). Which commits git visits around skipped ones depends on the commit
# ids: a test that needs git to visit a commit checks it here first, in a
# clone of DIR's repository (DIR is left as it is).
# bisect_history MAKE DIR GOOD BAD "TAG..." VERDICT...: "MAKE SALT" for
# SALT 1, 2... (30 at most) until the history it made in DIR has git
# bisect (with the VERDICTs, as bisect_walk) visit every TAG; sets salt and
# walk (the tags visited); 1 when no salt did
bisect_history() {
	local make=$1 dir=$2 good=$3 bad=$4 need=$5 t miss
	shift 5
	for salt in $(seq 1 30); do
		"$make" "$salt"
		walk=" $(bisect_walk "$dir" "$good" "$bad" "$@" | tr '\n' ' ')"
		miss=
		for t in $need; do
			[[ $walk == *" $t "* ]] || miss=$t
		done
		[ -z "$miss" ] && return 0
	done
	return 1
}
bisect_walk() {
	local dir=$1 good=$2 bad=$3 tmp t v i a
	shift 3
	tmp=$(mktemp -d "$T/walk.XXXXXX") || return 1
	git clone -q --no-checkout "$dir" "$tmp/r" 2> /dev/null || return 1
	git -C "$tmp/r" bisect start --no-checkout "$bad" "$good" > "$tmp/out" 2>&1 || return 1
	for ((i = 0; i < 20; i++)); do
		grep -q "is the first bad commit\|only 'skip'ped commits left" "$tmp/out" && break
		t=$(git -C "$tmp/r" describe --tags --exact-match BISECT_HEAD 2> /dev/null)
		v=good
		for a in "$@"; do
			[ "${a%%=*}" = "$t" ] && v=${a#*=}
		done
		echo "$t"
		git -C "$tmp/r" bisect "$v" > "$tmp/out" 2>&1 || { grep -q "only 'skip'ped" "$tmp/out" || return 1; }
	done
	rm -rf "$tmp"
}
# cut_boot PROFILE NAME WANT DESC: cut PROFILE (with rapido.conf as it is)
# and boot it with --results $T/NAME, the console in $T/NAME.console;
# checks cut's status 0 and ./vm's WANT (DESC, with the boot's seconds),
# showing the guest's last lines when it is not; ./vm's status in rc
cut_boot() {
	local start
	"$CUT" "$1" > "$T/$2.cut" 2>&1
	expect_rc "cut $1 ($2)" 0 $? || sed 's/^/# /' "$T/$2.cut"
	start=$(date +%s)
	"$VM" --batch --timeout 600 --results "$T/$2" > "$T/$2.console" 2>&1
	rc=$?
	expect_rc "$4 ($(( $(date +%s) - start ))s)" "$3" $rc
	[ $rc = "$3" ] || tr -d '\r' < "$T/$2.console" | grep -v '^\[' | tail -n 40 | sed 's/^/# /'
}
