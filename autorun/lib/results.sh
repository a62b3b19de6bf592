# SPDX-License-Identifier: GPL-2.0
# results.sh: per-test results for ./vm --results (JUnit XML, KTAP) and
# test sharding (./vm --shard I/N). Sourced into every image; only bash
# builtins, so any profile can use it.
#
#   rapido_test NAME CMD [ARG...]
#       Run CMD as test NAME, its output (stdout and stderr) shown on the
#       console and kept. Exit 0: passed; 77: skipped (the reason is its
#       last output line); 99 (automake's "hard error"): an error, a test
#       that reached no verdict (LTP's TBROK; the reason is its last
#       output line), never re-run; anything else: failed. Returns 0
#       unless it failed or was an error. A NAME outside this VM's shard
#       is not run at all. With ./vm --rerun-failures N
#       (RAPIDO_RERUN_FAILURES) a failed CMD is run again at once, up to N
#       times until it passes, each run a record after an "R1 rerun NAME
#       K" (./vm: a test that passed on a re-run is flaky); it returns 0
#       if the last run passed. A NAME used
#       again outside a re-run is a test of its own (./vm names it NAME#2):
#       a later pass never hides an earlier failure.
#   rapido_test_plan NAME...
#       The tests this VM means to run (those of its shard), told to ./vm
#       up front: one that gets no result (a VM stopped by --test-timeout
#       or a panic halfway) is recorded as an error, "not run", so no test
#       vanishes. A runner that can list its tests before it runs them
#       calls it (rapido_fstests_check, kselftest); where none did, a VM
#       stopped halfway gets a failed testcase "rapido: tests not run".
#   rapido_test_start NAME
#   rapido_test_pass NAME [OUTPUT]
#   rapido_test_fail NAME REASON [OUTPUT]
#   rapido_test_skip NAME REASON [OUTPUT]
#   rapido_test_error NAME REASON [OUTPUT]
#       The same by hand, for a test that is not one command. An error
#       (JUnit <error>) fails the run as a failure does, but ./vm's known
#       failures never excuse it and no re-run may follow it.
#   rapido_test_time NAME SECS
#       NAME's next end (pass, fail, skip, error) says it took SECS seconds: a
#       test whose start was not seen, timed by its own harness.
#   rapido_stream_results FUNC
#       A harness's output on stdin, echoed to the console line by line as
#       it comes, each line given to "FUNC line LINE"; a line begun and not
#       ended for a second (a harness that prints a test's name, runs it,
#       then ends the line with its verdict) to "FUNC partial TEXT" (once a
#       second until it ends: FUNC starts the test once).
#   rapido_stream_cmd READER CMD [ARG...]
#       CMD's output and errors given to READER (e.g. a function that calls
#       rapido_stream_results) in this shell; returns CMD's status.
#   rapido_test_tap PREFIX [FILE | -- COMMAND [ARG...]]
#       TAP or KTAP (kselftest, KUnit, rapido-afalg-selftest) from FILE,
#       from COMMAND's stdout and stderr, or from stdin, echoed to the
#       console and read by rapido-ktap (tools/lib/ktapread.h, the KTAP
#       spec): each result line becomes a test named PREFIX/DESCRIPTION
#       (nested: PREFIX/SUBTEST/DESCRIPTION, leaves only), "# SKIP"/"# TODO"
#       a skipped one, the lines before a result its output. Failed too: a
#       parent's "not ok" whose subtests passed (PREFIX/PARENT), a plan not
#       met (PREFIX/plan), "Bail out!" (PREFIX/bail-out), a stream without
#       results, and COMMAND exiting non-zero or killed (PREFIX). Returns 1
#       if any failed. In a pipeline (CMD | rapido_test_tap P) the counts
#       still reach rapido_tests_done, but only the -- form sees COMMAND's
#       exit status: use it for a suite that may crash. A stream cannot
#       re-run one of its tests: with --rerun-failures it says so on the
#       console, and its failures stand.
#   rapido_test_reported WHAT ID...
#       Each ID, a test the profile selected (by WHAT, e.g. the keys that
#       chose it) whose result names its harness makes up (blktests':
#       DEV/GROUP/NNN), has ended (pass, fail, skip, error) as ID or as a
#       name ending in /ID; one that has not is recorded as an error
#       "selected (WHAT) and no result reported", so a test the harness
#       dropped without a verdict never vanishes. Returns 1 if any had
#       not. A runner that can name its tests up front uses
#       rapido_test_plan instead (./vm then names the missing ones).
#   rapido_test_in_shard NAME [serial]
#       0 if NAME is this VM's to run: with RAPIDO_SHARD=I/N, the FNV-1a
#       hash of NAME modulo N is I-1 (the same on every machine, and a new
#       test never moves the others); always 0 without sharding. Under
#       ./vm --jobs a serial test (the caller says "serial", as for
#       xfstests' unreliable_in_parallel group, or NAME matches a glob line
#       of RAPIDO_SERIAL_TESTS, ./vm --serial-tests) runs alone after the
#       shards: the shard its hash names (RAPIDO_SERIAL=defer) leaves it
#       out and lists it in $RAPIDO_RESULTS_DIR/rapido-deferred.txt, which
#       tells ./vm to run it; the serial VM (RAPIDO_SERIAL=only) runs only
#       those.
#   rapido_tests_done
#       Close the tests that were started and never ended as failed ("did
#       not finish"), print "results: P passed, F failed, S skipped" (F
#       "F failed (E errors)" when E of them are errors) and return 1 if
#       any test failed or was an error. The counts are kept in a file
#       (RAPIDO_RUN_DIR, /run), so the tests of subshells and pipelines
#       count too. A failed test fails the autorun (status 1, see
#       rapido.sh) even when the profile ignores it.
#
# With ./vm --results DIR the guest init sets RAPIDO_RESULTS_PORT (a virtio
# serial port: each record is written before the call returns, so a panic
# later loses none) and RAPIDO_RESULTS_DIR (/results, the host's
# DIR/files: put logs and artifacts there). Without --results the
# functions still run the tests and print their verdicts.

_rapido_res_pass=0
_rapido_res_fail=0
_rapido_res_skip=0
_rapido_res_error=0
# one line per start and end, "KIND NAME" (NAME as a record field): the
# counts, shared by every subshell (a pipeline's) of the autorun
_rapido_res_file() {
	REPLY=${RAPIDO_RUN_DIR:-/run}/rapido.results
}
# the autorun's end closes the tests left open as failed (rapido.sh)
[[ " ${_rapido_end_hooks[*]-} " == *" _rapido_res_close "* ]] || _rapido_end_hooks+=(_rapido_res_close)
# the output kept per test: junit.xml is read by people, not archived logs
_rapido_res_out_max=65536
declare -A _rapido_res_t0=()

# _rapido_res_esc STRING: the record field for STRING, in REPLY
_rapido_res_esc() {
	local s=$1
	if [ -z "$s" ]; then
		REPLY=-
		return
	fi
	[ "$s" = - ] && { REPLY=%2d; return; }
	s=${s//%/%25}
	s=${s// /%20}
	s=${s//$'\t'/%09}
	s=${s//$'\n'/%0a}
	s=${s//$'\r'/%0d}
	REPLY=$s
}

# _rapido_res_emit EVENT FIELD...: one record to the results port
_rapido_res_emit() {
	local rec=R1 f
	[ -n "${RAPIDO_RESULTS_PORT:-}" ] || return 0
	for f; do
		_rapido_res_esc "$f"
		rec+=" $REPLY"
	done
	printf '%s\n' "$rec" >> "$RAPIDO_RESULTS_PORT" ||
		echo "rapido: cannot write a test record to $RAPIDO_RESULTS_PORT" >&2
}

_rapido_res_now() {
	REPLY=${EPOCHREALTIME//[^0-9]/}
}

# _rapido_res_secs NAME: seconds since NAME started, in REPLY
_rapido_res_secs() {
	local t0=${_rapido_res_t0[$1]:-} us
	_rapido_res_now
	if [ -z "$t0" ]; then
		REPLY=0
		return
	fi
	us=$((REPLY - t0))
	printf -v REPLY '%d.%03d' $((us / 1000000)) $((us % 1000000 / 1000))
}

_rapido_res_cut() {
	local s=$1
	[ ${#s} -le $_rapido_res_out_max ] || s="[... cut ...]${s: -$_rapido_res_out_max}"
	REPLY=$s
}

# _rapido_res_count KIND NAME: the line of the counts file
_rapido_res_count() {
	local f
	_rapido_res_file
	f=$REPLY
	_rapido_res_esc "$2"
	printf '%s %s\n' "$1" "$REPLY" >> "$f" ||
		echo "rapido: cannot count test $2 in $f: it will be missing from the totals" >&2
}

rapido_test_plan() {
	local n
	for n; do
		! rapido_test_in_shard "$n" || _rapido_res_emit_plan "$n"
	done
	return 0
}

# _rapido_res_emit_plan NAME...: plan records for tests already in this shard
_rapido_res_emit_plan() {
	local n
	for n; do
		_rapido_res_emit plan "$n"
	done
}

rapido_test_start() {
	_rapido_res_now
	_rapido_res_t0[$1]=$REPLY
	_rapido_res_count start "$1"
	_rapido_res_emit start "$1"
}

rapido_test_time() {
	_rapido_res_now
	_rapido_res_t0[$1]=$((REPLY - $2 * 1000000))
}

# a read with a timeout keeps what it read of an unfinished line; its
# locals are named apart from FUNC's caller's, which FUNC may use
rapido_stream_results() {
	local _rsr_fn=$1 _rsr_buf= _rsr_chunk _rsr_st
	while :; do
		_rsr_chunk=
		IFS= read -r -t 1 _rsr_chunk
		_rsr_st=$?
		_rsr_buf+=$_rsr_chunk
		if [ $_rsr_st -gt 128 ]; then
			[ -z "$_rsr_buf" ] || "$_rsr_fn" partial "$_rsr_buf"
			continue
		fi
		[ $_rsr_st -ne 0 ] && [ -z "$_rsr_buf" ] && break
		printf '%s\n' "$_rsr_buf"
		"$_rsr_fn" line "$_rsr_buf"
		_rsr_buf=
		[ $_rsr_st -eq 0 ] || break
	done
	return 0
}

# rapido_stream_cmd READER CMD [ARG]...: CMD's output (stderr too) on
# READER's stdin, READER run in this shell (not a pipeline: what it records
# stays); returns CMD's status. The status comes through a file the process
# substitution writes before it closes its output, so it is there when
# READER sees the end: bash's `wait $!` on a process substitution gave 255
# for a ./check that exited 139, once in a few runs on a loaded machine.
# The file is in the run's own dir (RAPIDO_RUN_DIR, root's /run), made anew
# (noclobber: O_EXCL), never a name in /tmp where a suite's unprivileged
# user (fstests' fsgqa) could leave a link for root to write through.
rapido_stream_cmd() {
	local _rsc_reader=$1 _rsc_f=${RAPIDO_RUN_DIR:-/run}/rapido.stream-$BASHPID.rc _rsc_rc
	shift
	rm -f "$_rsc_f"
	"$_rsc_reader" < <(rapido_harness "$@" 2>&1; _rsc_rc=$?; set -C; echo $_rsc_rc > "$_rsc_f")
	wait $! 2> /dev/null
	_rsc_rc=$(< "$_rsc_f") || _rsc_rc=125
	rm -f "$_rsc_f"
	return "$_rsc_rc"
}

# _rapido_res_end KIND NAME SECS REASON OUTPUT: a test's end, counted,
# recorded and said on the console; a failure fails the autorun
_rapido_res_end() {
	_rapido_res_cut "$5"
	case $1 in
	pass) _rapido_res_emit pass "$2" "$3" "$REPLY" ;;
	*) _rapido_res_emit "$1" "$2" "$3" "$4" "$REPLY" ;;
	esac
	_rapido_res_count "$1" "$2"
	case $1 in
	pass) echo "rapido: test $2: passed (${3}s)" ;;
	fail)
		_rapido_status_keep 1 "test $2 failed: $4" test
		echo "rapido: test $2: FAILED: $4 (${3}s)"
		;;
	error)
		_rapido_status_keep 1 "test $2: error: $4" test
		echo "rapido: test $2: ERROR: $4 (${3}s)"
		;;
	skip) echo "rapido: test $2: skipped: $4" ;;
	esac
}

rapido_test_pass() {
	_rapido_res_secs "$1"
	_rapido_res_end pass "$1" "$REPLY" "" "${2:-}"
}

rapido_test_fail() {
	_rapido_res_secs "$1"
	_rapido_res_end fail "$1" "$REPLY" "${2:-failed}" "${3:-}"
}

rapido_test_skip() {
	_rapido_res_secs "$1"
	_rapido_res_end skip "$1" "$REPLY" "${2:-skipped}" "${3:-}"
}

rapido_test_error() {
	_rapido_res_secs "$1"
	_rapido_res_end error "$1" "$REPLY" "${2:-error}" "${3:-}"
}

# _rapido_fnv1a STRING: 32-bit FNV-1a of STRING's bytes, in REPLY
_rapido_fnv1a() {
	local LC_ALL=C s=$1 h=2166136261 i c
	for ((i = 0; i < ${#s}; i++)); do
		printf -v c '%d' "'${s:i:1}"
		h=$((((h ^ (c & 255)) * 16777619) & 0xffffffff))
	done
	REPLY=$h
}

# _rapido_serial NAME [serial]: 0 if NAME is a serial test of ./vm --jobs
_rapido_serial() {
	local rest p
	[ "${2:-}" != serial ] || return 0
	# the patterns, a line each; the loop keeps them from word splitting and globbing
	rest=${RAPIDO_SERIAL_TESTS:-}
	while [ -n "$rest" ]; do
		p=${rest%%$'\n'*}
		if [ "$p" = "$rest" ]; then
			rest=
		else
			rest=${rest#*$'\n'}
		fi
		# shellcheck disable=SC2053 # a glob, by design
		[[ $1 == $p ]] && return 0
	done
	return 1
}

# _rapido_defer NAME: a shard leaves serial test NAME to the serial VM,
# listed where ./vm reads it; 1 (run it here) where it cannot be listed,
# so that no test is lost
_rapido_defer() {
	if [ -z "${RAPIDO_RESULTS_DIR:-}" ]; then
		echo "rapido: test $1: serial, but no results dir to leave it to the serial VM: run here"
		return 1
	fi
	local f=$RAPIDO_RESULTS_DIR/rapido-deferred.txt l
	_rapido_res_esc "$1"
	# listed once: rapido_test_plan asks before rapido_test does
	if [ -e "$f" ]; then
		while IFS= read -r l; do
			[ "$l" != "$REPLY" ] || return 0
		done < "$f"
	fi
	if ! printf '%s\n' "$REPLY" >> "$f"; then
		echo "rapido: test $1: serial, but cannot be left to the serial VM: run here"
		return 1
	fi
	echo "rapido: test $1: serial: left to the VM after the others"
}

# _rapido_hash_shard NAME: 0 if NAME's hash puts it in this shard
_rapido_hash_shard() {
	local i n
	[ -n "${RAPIDO_SHARD:-}" ] || return 0
	i=${RAPIDO_SHARD%/*}
	n=${RAPIDO_SHARD#*/}
	_rapido_fnv1a "$1"
	[ $((REPLY % n)) -eq $((i - 1)) ]
}

rapido_test_in_shard() {
	case ${RAPIDO_SERIAL:-} in
	only)
		_rapido_serial "$@"
		return
		;;
	defer)
		# the shard its hash names lists it, once; the others skip it
		if _rapido_serial "$@"; then
			_rapido_hash_shard "$1" || return 1
			! _rapido_defer "$1"
			return
		fi
		;;
	esac
	_rapido_hash_shard "$1"
}

# _rapido_res_reruns: how many times a failed test is run again
# (./vm --rerun-failures N: RAPIDO_RERUN_FAILURES), in REPLY
_rapido_res_reruns() {
	REPLY=${RAPIDO_RERUN_FAILURES:-0}
	[[ $REPLY =~ ^[0-9]{1,3}$ ]] || REPLY=0
	REPLY=$((10#$REPLY))
}

# rapido_test NAME CMD...: see the top; a failed run is run again up to
# RAPIDO_RERUN_FAILURES times at once, each run a record of its own (./vm
# counts a test that passed on a re-run as flaky, with its rate)
rapido_test() {
	local name=$1 run=0 reruns rc
	shift
	rapido_test_in_shard "$name" || return 0
	_rapido_res_reruns
	reruns=$REPLY
	while :; do
		_rapido_test_once "$name" "$@"
		rc=$?
		# a pass, a skip, an error (no verdict a re-run could change) end it
		case $rc in
		0 | 77 | 99) break ;;
		esac
		[ "$run" -lt "$reruns" ] || break
		run=$((run + 1))
		echo "rapido: test $name: re-run $run of $reruns"
		# ./vm takes a pass after a failure of one name only in a re-run said so
		_rapido_res_emit rerun "$name" "$run"
	done
	if [ "$rc" = 77 ] || [ "$rc" = 0 ]; then
		[ "$run" -eq 0 ] || [ "$rc" != 0 ] ||
			echo "rapido: test $name: passed on re-run $run of $reruns: flaky"
		_rapido_res_ret=
		return 0
	fi
	_rapido_test_ret "$rc"
	return "$rc"
}

# _rapido_test_once NAME CMD...: one run of rapido_test: its status, 77 skipped
_rapido_test_once() {
	local name=$1 f rc out last line
	shift
	! _rapido_stop_asked || exit "${REPLY%% *}"
	# one file per shell, emptied per test: rm may not be in the image
	f=${TMPDIR:-/tmp}/rapido-test.$$
	: > "$f"
	rapido_test_start "$name"
	# the output reaches the console as it comes and the file for the record
	"$@" 2>&1 | while IFS= read -r line || [ -n "$line" ]; do
		printf '%s\n' "$line"
		printf '%s\n' "$line" >> "$f"
	done
	rc=${PIPESTATUS[0]}
	out=
	[ -e "$f" ] && out=$(< "$f")
	: > "$f"
	# CMD called rapido_fail (in the pipeline's subshell): the test
	# failed, and the autorun stops here, as rapido_fail says
	if _rapido_stop_asked; then
		last=$REPLY
		rapido_test_fail "$name" "rapido_fail: ${last#* }" "$out"
		exit "${last%% *}"
	fi
	case $rc in
	0) rapido_test_pass "$name" "$out" ;;
	77)
		last=${out##*$'\n'}
		rapido_test_skip "$name" "${last:-exit status 77}" "$out"
		return 77
		;;
	99)
		last=${out##*$'\n'}
		rapido_test_error "$name" "${last:-exit status 99}" "$out"
		return 99
		;;
	*)
		rapido_test_fail "$name" "exit status $rc" "$out"
		return $rc
		;;
	esac
	return 0
}

rapido_test_tap() {
	local prefix=$1 rc
	shift
	_rapido_tap "$prefix" "$@"
	rc=$?
	_rapido_res_ret=
	[ "$rc" = 0 ] && return 0
	_rapido_test_ret "$rc"
	_rapido_res_reruns
	# a TAP stream is one run of many tests: none of them can be run alone
	[ "$REPLY" = 0 ] || echo "rapido: $prefix: a TAP/KTAP suite cannot re-run one test:" \
		"--rerun-failures $REPLY does not apply, its failures stand"
	return "$rc"
}

# _rapido_tap PREFIX [FILE | -- COMMAND...]: rapido_test_tap's one run
_rapido_tap() {
	local prefix=$1
	shift
	# rapido-ktap copies the stream to fd 4 (this stdout) and writes its
	# records to the process substitution read here, in this shell
	if [ "${1:-}" = -- ]; then
		shift
		{ _rapido_tap_records "$prefix" < <(rapido-ktap --records 3 -- "$@" 3>&1 1>&4 4>&-); } 4>&1
	elif [ -n "${1:-}" ]; then
		{ _rapido_tap_records "$prefix" < <(rapido-ktap --records 3 < "$1" 3>&1 1>&4 4>&-); } 4>&1
	else
		# no /dev/stdin without udev: fd 0 is passed on as it is
		{ _rapido_tap_records "$prefix" < <(rapido-ktap --records 3 <&5 5<&- 3>&1 1>&4 4>&-); } 4>&1 5<&0
	fi
}

# _rapido_tap_records PREFIX: record what rapido-ktap (tools/ktap) says on stdin
_rapido_tap_records() {
	local prefix=$1 line kind secs name reason out= rc=0 ended=
	while IFS= read -r line; do
		kind=${line%%$'\t'*}
		line=${line#*$'\t'}
		case $kind in
		D)
			out+=$line$'\n'
			continue
			;;
		end)
			ended=1
			continue
			;;
		pass | fail | skip) ;;
		*) continue ;;
		esac
		secs=${line%%$'\t'*}
		line=${line#*$'\t'}
		name=${line%%$'\t'*}
		reason=
		[[ $line != *$'\t'* ]] || reason=${line#*$'\t'}
		_rapido_res_end "$kind" "$prefix${name:+/$name}" "$secs" "$reason" "${out%$'\n'}" > /dev/null
		[ "$kind" != fail ] || rc=1
		out=
	done
	if [ -z "$ended" ]; then
		_rapido_res_end fail "$prefix" 0 "rapido-ktap did not read the stream to its end" "" > /dev/null
		rc=1
	fi
	return $rc
}

# _rapido_res_unesc FIELD: the string of a record field (undoes
# _rapido_res_esc), in REPLY
_rapido_res_unesc() {
	local n=$1
	[ "$n" != - ] || n=
	n=${n//%20/ }
	n=${n//%09/$'\t'}
	n=${n//%0a/$'\n'}
	n=${n//%0d/$'\r'}
	n=${n//%2d/-}
	REPLY=${n//%25/%}
}

# rapido_test_reported WHAT ID...: the header's usage above
rapido_test_reported() {
	local what=$1 l id ok
	local -A ended=()
	shift
	_rapido_res_file
	if [ -e "$REPLY" ]; then
		while IFS= read -r l; do
			[ "${l%% *}" = start ] && continue
			_rapido_res_unesc "${l#* }"
			ended[$REPLY]=1
		done < "$REPLY"
	fi
	ok=0
	for id; do
		[ -n "${ended[$id]:-}" ] && continue
		for l in "${!ended[@]}"; do
			[[ $l == */"$id" ]] && continue 2
		done
		rapido_test_error "$id" "selected ($what) and no result reported: the suite printed no verdict for it"
		ok=1
	done
	return $ok
}

# _rapido_res_close: the tests started and never ended fail ("did not
# finish"); the totals in _rapido_res_pass, _rapido_res_fail (errors
# too), _rapido_res_skip, _rapido_res_error
_rapido_res_close() {
	local -A open=()
	local -a lines=() left=()
	local l k n
	_rapido_res_file
	[ ! -e "$REPLY" ] || mapfile -t lines < "$REPLY"
	for l in "${lines[@]}"; do
		k=${l%% *}
		n=${l#* }
		case $k in
		start) open[$n]=$((${open[$n]:-0} + 1)) ;;
		*) [ "${open[$n]:-0}" -eq 0 ] || open[$n]=$((open[$n] - 1)) ;;
		esac
	done
	for n in "${!open[@]}"; do
		for ((k = 0; k < open[$n]; k++)); do
			left+=("$n")
		done
	done
	for n in "${left[@]}"; do
		_rapido_res_unesc "$n"
		rapido_test_fail "$REPLY" "did not finish"
	done
	_rapido_res_pass=0
	_rapido_res_fail=0
	_rapido_res_skip=0
	_rapido_res_error=0
	_rapido_res_file
	lines=()
	[ ! -e "$REPLY" ] || mapfile -t lines < "$REPLY"
	for l in "${lines[@]}"; do
		case ${l%% *} in
		pass) _rapido_res_pass=$((_rapido_res_pass + 1)) ;;
		fail) _rapido_res_fail=$((_rapido_res_fail + 1)) ;;
		skip) _rapido_res_skip=$((_rapido_res_skip + 1)) ;;
		error)
			_rapido_res_fail=$((_rapido_res_fail + 1))
			_rapido_res_error=$((_rapido_res_error + 1))
			;;
		esac
	done
}

rapido_tests_done() {
	_rapido_res_close
	local e=
	case $_rapido_res_error in
	0) ;;
	1) e=" (1 error)" ;;
	*) e=" ($_rapido_res_error errors)" ;;
	esac
	echo "rapido: results: $_rapido_res_pass passed, $_rapido_res_fail failed$e," \
		"$_rapido_res_skip skipped${RAPIDO_SHARD:+ (shard $RAPIDO_SHARD)}"
	_rapido_res_ret=
	[ "$_rapido_res_fail" -eq 0 ] && return 0
	_rapido_test_ret 1
	return 1
}
