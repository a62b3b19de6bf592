# SPDX-License-Identifier: GPL-2.0
# ltp.sh: the ltp profile's steps (an LTP tree at /ltp):
#   ltp_setup                the environment LTP's tests expect: LTPROOT,
#                            PATH, the users its tests switch to, /dev/shm
#   ltp_run                  every selected line of the LTP_RUNTEST files
#                            run as a test of ./vm --results (results.sh)
#   ltp_verdict STATUS       a test's exit status read as LTP's result bits
# Sourced into every image before the profile, so it only defines functions.
#
# LTP's test library (lib/tst_test.c, include/tst_res_flags.h) ends a test
# with its results as exit status bits: TFAIL 1, TBROK 2, TWARN 4, TCONF 32
# (32 alone: every case skipped, its TCONF lines say why), 0 passed; they
# map to pass, fail, error (TBROK without TFAIL) and skip; its
# own timeout (tst_test's .timeout, scaled by LTP_TIMEOUT_MUL) kills a test
# and reports TBROK "Test killed! (timeout?)".

# where the LTP tree is (the profile's #@ files puts it there: /ltp-dir
# for upstream Rapido's LTP_DIR)
_ltp_root=/ltp

# ltp_setup: LTP in place at _ltp_root, an installed tree (make install's
# prefix: testcases/bin) or a built source tree (its test directories on
# PATH); fails naming what is missing
ltp_setup() {
	local ug xid=2000
	[ -d "$_ltp_root/runtest" ] || rapido_fail "no LTP tree in the image ($_ltp_root/runtest" \
		"is missing): LTP_SRC unset at cut time, or not an LTP tree"
	export LTPROOT=$_ltp_root
	_ltp_path "$_ltp_root"
	PATH=$REPLY:$PATH
	export PATH
	export TMPDIR=${TMPDIR:-/tmp}
	# tst_test keeps its results in shared memory, under /dev/shm
	[ -d /dev/shm ] || mkdir -p /dev/shm
	rapido_mounted /dev/shm || mount -t tmpfs shm /dev/shm ||
		echo "ltp: warning: no tmpfs at /dev/shm: tests keep their results in TMPDIR"
	# the users and groups LTP's tests switch to (setuid, chown, ...)
	for ug in nobody bin daemon; do
		grep -q "^$ug:" /etc/passwd 2> /dev/null ||
			echo "$ug:x:$xid:$xid:$ug:/:/sbin/nologin" >> /etc/passwd
		grep -q "^$ug:" /etc/group 2> /dev/null || echo "$ug:x:$xid:" >> /etc/group
		xid=$((xid + 1))
	done
	# tst_device's loop devices (.needs_device): no udev here to load
	# the module when /dev/loop-control is first opened
	modprobe loop 2> /dev/null || echo "ltp: warning: no loop module: tests that need a device break"
	ip link set dev lo up 2> /dev/null
	[ -z "${LTP_TIMEOUT_MUL:-}" ] || export LTP_TIMEOUT_MUL
	return 0
}

# _ltp_path ROOT: where the LTP tree ROOT's test commands are, as PATH
# entries, in REPLY: an installed tree's testcases/bin, else (a tree built
# in place) every directory under testcases/ with a Makefile, where make
# leaves its tests (and testcases/lib, the shell tests' library)
_ltp_path() {
	local d
	REPLY=
	if [ -d "$1/testcases/bin" ]; then
		REPLY=$1/testcases/bin
		return 0
	fi
	shopt -s globstar nullglob
	for d in "$1"/testcases/**/; do
		[ -e "${d}Makefile" ] && REPLY+="${REPLY:+:}${d%/}"
	done
	shopt -u globstar nullglob
}

# _ltp_picked NAME FILE: NAME (of runtest FILE) is selected: LTP_TESTS
# names it (NAME or FILE/NAME, globs allowed) or is empty, and LTP_SKIP
# does not
_ltp_picked() {
	local w
	rapido_words "${LTP_SKIP:-}"
	for w in "${RAPIDO_WORDS[@]}"; do
		# shellcheck disable=SC2053 # a glob, by design
		[[ $1 == $w || $2/$1 == $w ]] && return 1
	done
	rapido_words "${LTP_TESTS:-}"
	[ ${#RAPIDO_WORDS[@]} -eq 0 ] && return 0
	for w in "${RAPIDO_WORDS[@]}"; do
		# shellcheck disable=SC2053
		[[ $1 == $w || $2/$1 == $w ]] && return 0
	done
	return 1
}

# _ltp_lines FILE: the selected lines of /ltp/runtest/FILE, the test's
# name in _ltp_names and its command line in _ltp_cmds
_ltp_lines() {
	local f=$_ltp_root/runtest/$1 line name cmd
	[ -r "$f" ] || return 1
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%$'\r'}
		[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
		read -r name cmd <<< "$line"
		_ltp_picked "$name" "$1" || continue
		_ltp_names+=("$1/$name")
		_ltp_cmds+=("$cmd")
	done < "$f"
}

# ltp_verdict STATUS: what LTP's exit STATUS says, in REPLY ("pass",
# "skip", or the failure's words) and as a status for rapido_test: 0
# passed, 77 skipped (TCONF alone), 99 an error (TBROK without TFAIL: the
# test could not reach a verdict), else the failure's LTP status (1 for an
# exit status 77 or 99, which rapido_test would take for a skip or an
# error)
ltp_verdict() {
	local rc=$1 w=()
	if [ "$rc" -eq 0 ]; then
		REPLY=pass
		return 0
	fi
	if [ "$rc" -gt 128 ]; then
		REPLY="killed by signal $((rc - 128))"
		return "$rc"
	fi
	if [ "$rc" -eq 32 ]; then
		REPLY=skip
		return 77
	fi
	[ $((rc & 1)) -eq 0 ] || w+=(TFAIL)
	[ $((rc & 2)) -eq 0 ] || w+=(TBROK)
	[ $((rc & 4)) -eq 0 ] || w+=(TWARN)
	[ $((rc & ~(1 | 2 | 4 | 32))) -eq 0 ] || w+=("exit status $rc")
	REPLY="${w[*]}"
	# TBROK: LTP's "broken", no verdict (its own timeout says it too);
	# with TFAIL a verdict was reached, and failed
	if [ $((rc & 2)) -ne 0 ] && [ $((rc & 1)) -eq 0 ] && [ $((rc & ~(2 | 4 | 32))) -eq 0 ]; then
		return 99
	fi
	# 77 (64+8+4+1) and 99 (64+32+2+1), a command that is no LTP test:
	# as a status, rapido_test's skip and error
	[ "$rc" -ne 77 ] && [ "$rc" -ne 99 ] || rc=1
	return "$rc"
}

# the kernel's taint bits
_ltp_taint_file=/proc/sys/kernel/tainted

# taint bits a test may set without a failure: O (4096, an out-of-tree
# module) and E (8192, an unsigned one), which LTP's own module tests
# (init_module*, delete_module*, finit_module*) set by loading their test
# modules
_ltp_taint_ok=$((4096 | 8192))

# _ltp_taint: the kernel's taint bits now, in REPLY
_ltp_taint() {
	REPLY=0
	[ -r "$_ltp_taint_file" ] && read -r REPLY < "$_ltp_taint_file"
	[[ $REPLY =~ ^[0-9]+$ ]] || REPLY=0
}

# _ltp_one NAME CMD TAINT: one runtest line run as LTP's runners do (its
# command line under sh, in a directory of its own under TMPDIR), its exit
# status read by ltp_verdict; a kernel taint not in TAINT (the bits before
# the test, read once by ltp_run: a re-run of a test that tainted the
# kernel fails again) fails it, as kirk's does, but _ltp_taint_ok's.
# Its last line is the verdict, with the first TCONF, TFAIL, TBROK or
# TWARN line LTP printed (rapido_test takes a skip's reason from it).
_ltp_one() {
	local name=$1 cmd=$2 t0=$3 rc ltp_rc d=$TMPDIR/ltp-run/${1//\//_} first="" words
	mkdir -p "$d" && cd "$d" && : > "$d.first" || return 1
	sh -c "$cmd" 2>&1 | _ltp_echo "$d.first"
	ltp_rc=${PIPESTATUS[0]}
	cd / || return 1
	first=$(< "$d.first")
	ltp_verdict "$ltp_rc"
	rc=$?
	words=$REPLY
	_ltp_taint
	if [ $((REPLY & ~t0 & ~_ltp_taint_ok)) -ne 0 ]; then
		echo "ltp: $name: the kernel is now tainted ($REPLY, was $t0)"
		# a verdict of its own: a failure, whatever LTP said
		[ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && [ "$rc" -ne 99 ] || rc=1
	fi
	case $rc in
	0) echo "ltp: $name: passed" ;;
	77) echo "ltp: $name: TCONF${first:+: $first}" ;;
	*) echo "ltp: $name: ${words:-failed} (LTP exit status $ltp_rc)${first:+: $first}" ;;
	esac
	return "$rc"
}

# _ltp_echo FILE: stdin echoed, and the first line that reports a TCONF,
# TFAIL, TBROK or TWARN ("open01.c:48: TFAIL: ...", the old
# library's "open01  1  TFAIL  :  ...") written to FILE
_ltp_echo() {
	local l first=
	while IFS= read -r l || [ -n "$l" ]; do
		printf '%s\n' "$l"
		[ -n "$first" ] || [[ ! $l =~ (^|[[:space:]])(TCONF|TFAIL|TBROK|TWARN)[[:space:]]*:\  ]] || first=$l
	done
	[ -z "$first" ] || printf '%s\n' "$first" > "$1"
}

# ltp_run: each LTP_RUNTEST file's (default syscalls) selected lines, in
# order, each a test named FILE/NAME; planned first, so a VM stopped
# halfway names the rest. Returns 1 if a test failed or a runtest file or
# an LTP_TESTS word named nothing; a selection of no test stops the profile.
ltp_run() {
	local f i rc=0 w n seen t0
	_ltp_names=() _ltp_cmds=()
	rapido_words "${LTP_RUNTEST:-syscalls}"
	local files=("${RAPIDO_WORDS[@]}")
	for f in "${files[@]}"; do
		if ! _ltp_lines "$f"; then
			rapido_test_fail "ltp/$f" "LTP_RUNTEST: no runtest file $_ltp_root/runtest/$f" > /dev/null
			echo "ltp: LTP_RUNTEST: no runtest file $_ltp_root/runtest/$f"
			rc=1
		fi
	done
	# a mistyped LTP_TESTS word is a failure, not a quiet empty run
	rapido_words "${LTP_TESTS:-}"
	for w in "${RAPIDO_WORDS[@]}"; do
		seen=
		for n in "${_ltp_names[@]}"; do
			# shellcheck disable=SC2053 # a glob, by design
			[[ ${n#*/} == $w || $n == $w ]] && { seen=1; break; }
		done
		[ -n "$seen" ] || _ltp_skipped_word "$w" || {
			rapido_test_fail "ltp/$w" "LTP_TESTS: no test of this name in ${files[*]}" > /dev/null
			echo "ltp: LTP_TESTS: no test named $w in runtest ${files[*]}"
			rc=1
		}
	done
	rapido_selected ${#_ltp_names[@]} LTP_TESTS/LTP_SKIP/LTP_RUNTEST
	echo "ltp: ${#_ltp_names[@]} tests of runtest ${files[*]}${RAPIDO_SHARD:+ (shard $RAPIDO_SHARD runs its part of them)}"
	rapido_test_plan "${_ltp_names[@]}"
	for i in "${!_ltp_names[@]}"; do
		# the taint before the test, not before each of its re-runs
		_ltp_taint
		t0=$REPLY
		rapido_test "${_ltp_names[$i]}" _ltp_one "${_ltp_names[$i]}" "${_ltp_cmds[$i]}" "$t0" || rc=1
	done
	return $rc
}

# _ltp_skipped_word WORD: WORD names a test that LTP_SKIP left out
_ltp_skipped_word() {
	local s
	rapido_words "${LTP_SKIP:-}"
	for s in "${RAPIDO_WORDS[@]}"; do
		[ "$s" = "$1" ] && return 0
	done
	return 1
}
