# SPDX-License-Identifier: GPL-2.0
# results.sh: per-test results for ./vm --results (JUnit XML, KTAP) and
# test sharding (./vm --shard I/N). Sourced into every image; only bash
# builtins, so any profile can use it.
#
#   rapido_test NAME CMD [ARG...]
#       Run CMD as test NAME, its output (stdout and stderr) shown on the
#       console and kept. Exit 0: passed; 77: skipped (the reason is its
#       last output line); anything else: failed. Returns 0 unless it
#       failed. A NAME outside this VM's shard is not run at all.
#   rapido_test_start NAME
#   rapido_test_pass NAME [OUTPUT]
#   rapido_test_fail NAME REASON [OUTPUT]
#   rapido_test_skip NAME REASON [OUTPUT]
#       The same by hand, for a test that is not one command.
#   rapido_test_tap PREFIX [FILE]
#       TAP or KTAP (kselftest, KUnit, rapido-afalg-selftest) from FILE or
#       stdin, echoed to the console: each result line becomes a test named
#       PREFIX/DESCRIPTION (nested KTAP: PREFIX/SUBTEST/DESCRIPTION, leaves
#       only), "# SKIP"/"# TODO" a skipped one, the "#" lines before a
#       result its output. Returns 1 if any failed.
#   rapido_test_in_shard NAME
#       0 if NAME is this VM's to run: with RAPIDO_SHARD=I/N, the FNV-1a
#       hash of NAME modulo N is I-1 (the same on every machine, and a new
#       test never moves the others); always 0 without sharding.
#   rapido_tests_done
#       Print "results: P passed, F failed, S skipped"; returns 1 if any
#       test failed (end a profile with it to exit with that).
#
# With ./vm --results DIR the guest init sets RAPIDO_RESULTS_PORT (a virtio
# serial port: each record is written before the call returns, so a panic
# later loses none) and RAPIDO_RESULTS_DIR (/results, the host's
# DIR/files: put logs and artifacts there). Without --results the
# functions still run the tests and print their verdicts.

_rapido_res_pass=0
_rapido_res_fail=0
_rapido_res_skip=0
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

rapido_test_start() {
	_rapido_res_now
	_rapido_res_t0[$1]=$REPLY
	_rapido_res_emit start "$1"
}

rapido_test_pass() {
	local secs
	_rapido_res_secs "$1"
	secs=$REPLY
	_rapido_res_cut "${2:-}"
	_rapido_res_emit pass "$1" "$secs" "$REPLY"
	_rapido_res_pass=$((_rapido_res_pass + 1))
	echo "rapido: test $1: passed (${secs}s)"
}

rapido_test_fail() {
	local secs
	_rapido_res_secs "$1"
	secs=$REPLY
	_rapido_res_cut "${3:-}"
	_rapido_res_emit fail "$1" "$secs" "${2:-failed}" "$REPLY"
	_rapido_res_fail=$((_rapido_res_fail + 1))
	echo "rapido: test $1: FAILED: ${2:-failed} (${secs}s)"
}

rapido_test_skip() {
	local secs
	_rapido_res_secs "$1"
	secs=$REPLY
	_rapido_res_cut "${3:-}"
	_rapido_res_emit skip "$1" "$secs" "${2:-skipped}" "$REPLY"
	_rapido_res_skip=$((_rapido_res_skip + 1))
	echo "rapido: test $1: skipped: ${2:-skipped}"
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

rapido_test_in_shard() {
	local i n
	[ -n "${RAPIDO_SHARD:-}" ] || return 0
	i=${RAPIDO_SHARD%/*}
	n=${RAPIDO_SHARD#*/}
	_rapido_fnv1a "$1"
	[ $((REPLY % n)) -eq $((i - 1)) ]
}

rapido_test() {
	local name=$1 f rc out last line
	shift
	rapido_test_in_shard "$name" || return 0
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
	case $rc in
	0) rapido_test_pass "$name" "$out" ;;
	77)
		last=${out##*$'\n'}
		rapido_test_skip "$name" "${last:-exit status 77}" "$out"
		;;
	*)
		rapido_test_fail "$name" "exit status $rc" "$out"
		return $rc
		;;
	esac
	return 0
}

rapido_test_tap() {
	# no /dev/stdin without udev: read fd 0 itself
	if [ -n "${2:-}" ]; then
		_rapido_test_tap "$1" < "$2"
	else
		_rapido_test_tap "$1"
	fi
}

_rapido_test_tap() {
	local prefix=$1 line stripped depth desc dir reason name i notok
	local diag= rc=0 t0
	local -a sub=() kids=()
	_rapido_res_now
	t0=$REPLY
	while IFS= read -r line || [ -n "$line" ]; do
		printf '%s\n' "$line"
		stripped=${line#"${line%%[! ]*}"}
		depth=$(((${#line} - ${#stripped}) / 4))
		case $stripped in
		"# Subtest: "*)
			sub[depth]=${stripped#"# Subtest: "}
			continue
			;;
		"#"*)
			# the diagnostic's text; KTAP puts its "# " back
			stripped=${stripped#\#}
			diag+=${stripped# }$'\n'
			continue
			;;
		esac
		[[ $stripped =~ ^(not\ )?ok\ +[0-9]+\ *(-\ +)?([^#]*)(#[[:space:]]*([A-Za-z]+)[[:space:]]*(.*))?$ ]] ||
			continue
		notok=${BASH_REMATCH[1]}
		desc=${BASH_REMATCH[3]%"${BASH_REMATCH[3]##*[! ]}"}
		dir=${BASH_REMATCH[5]^^}
		reason=${BASH_REMATCH[6]}
		# a result whose subtests were reported is a summary, not a test
		if [ -n "${kids[depth + 1]:-}" ]; then
			kids[depth + 1]=
			diag=
			continue
		fi
		kids[depth]=1
		name=$prefix
		for ((i = 1; i <= depth; i++)); do
			name+=/${sub[i]:-subtest}
		done
		name+=/${desc:-test}
		# the time since the previous result: what a stream can tell
		_rapido_res_t0[$name]=$t0
		_rapido_res_now
		t0=$REPLY
		if [ "$dir" = SKIP ] || [ "$dir" = TODO ]; then
			rapido_test_skip "$name" "${reason:-$dir}" "$diag" > /dev/null
		elif [ -n "$notok" ]; then
			rapido_test_fail "$name" "not ok" "$diag" > /dev/null
			rc=1
		else
			rapido_test_pass "$name" > /dev/null
		fi
		diag=
	done
	return $rc
}

rapido_tests_done() {
	echo "rapido: results: $_rapido_res_pass passed, $_rapido_res_fail failed," \
		"$_rapido_res_skip skipped${RAPIDO_SHARD:+ (shard $RAPIDO_SHARD)}"
	[ "$_rapido_res_fail" -eq 0 ]
}
