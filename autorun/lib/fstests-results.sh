# SPDX-License-Identifier: GPL-2.0
# fstests-results.sh: ./check's results as tests of autorun/lib/results.sh:
# from its console lines as it prints them, from its result.xml
# Sourced into every image before the profile, so it only defines functions.

# Every test recorded in this boot is a "NAME STATE" line (STATE pass, fail
# or skip) of this file, so that a test is recorded once per ./check run
# even when its console line and its result.xml testcase both say it
_fstests_res_done=/tmp/fstests-recorded

# _fstests_res_begin: a ./check run starts: the result.xml files of an
# earlier run (in the same results directory) are removed, so that they
# are never imported for this one; REPLY: where this run's records start
# in _fstests_res_done
_fstests_res_begin() {
	local f base=${RESULT_BASE:-/fstests/results} n=0 _
	for f in "$base"/result.xml "$base"/*/result.xml; do
		[ -e "$f" ] || continue
		# no rm in an image without xfstests' tools: emptied, it names no test
		rm -f "$f" 2> /dev/null || : > "$f" ||
			rapido_fail "cannot remove the old $f (it would be taken for this run's)"
	done
	if [ -e "$_fstests_res_done" ]; then
		while read -r _; do n=$((n + 1)); done < "$_fstests_res_done"
	else
		: > "$_fstests_res_done"
	fi
	REPLY=$n
}

# _fstests_res_seen FROM: the names recorded after line FROM of
# _fstests_res_done as keys of _fstests_res_seen_set; REPLY: 1 if one of
# them failed, else empty
_fstests_res_seen() {
	local n=0 name st
	declare -gA _fstests_res_seen_set=()
	REPLY=
	while read -r name st; do
		n=$((n + 1))
		[ $n -gt "$1" ] || continue
		_fstests_res_seen_set[$name]=1
		[ "$st" = fail ] && REPLY=1
	done < "$_fstests_res_done"
}

# _fstests_res_end FROM STATUS WHAT [OUTPUT]: the status of a ./check run
# (WHAT: the command) whose records start after line FROM: STATUS, but 1
# when it is 0 and a test failed (an unknown test name), and a failure of
# its own ("fstests/check") when STATUS is not 0 and no test failed: check
# did not get to run one, and junit.xml must say so
_fstests_res_end() {
	local rc=$2
	_fstests_res_seen "$1"
	if [ "$rc" -ne 0 ] && [ -z "$REPLY" ]; then
		rapido_test_fail fstests/check "$3 exited $rc and no test failed: it could not run" \
			"${4:-}" > /dev/null
		echo "fstests: $3 exited $rc and no test failed: it could not run (see above)"
		echo "fstests/check fail" >> "$_fstests_res_done"
	elif [ "$rc" -eq 0 ] && [ -n "$REPLY" ]; then
		rc=1
	fi
	return "$rc"
}

# _fstests_res_stream: check's output on stdin, echoed and recorded as it
# comes (rapido_stream_results). check prints a test's name, runs it, then
# ends the line with the result: the name alone means the test has
# started. "SECTION       -- NAME" starts a section (local.config has
# sections). check prints "- output mismatch (see NAME.out.bad)" before it
# moves the output there, so that line is recorded at the next one (the
# diff check prints after the move) or at the end.
_fstests_res_stream() {
	local cur= held= held_cur= held_sect=
	rapido_stream_results _fstests_res_stream_line
	_fstests_res_held
}

# _fstests_res_stream_line partial|line TEXT: one event of
# rapido_stream_results (part of _fstests_res_stream: its locals)
_fstests_res_stream_line() {
	if [ "$1" = partial ]; then
		if [ -z "$cur" ] && [[ $2 =~ ^([a-z0-9_.-]+/[0-9]+)[[:space:]] ]]; then
			cur=${_fstests_res_sect:+$_fstests_res_sect:}${BASH_REMATCH[1]}
			rapido_test_start "$cur"
		fi
		return 0
	fi
	_fstests_res_held
	[[ $2 =~ ^SECTION[[:space:]]+--[[:space:]]+([A-Za-z0-9_-]+) ]] &&
		_fstests_res_sect=${BASH_REMATCH[1]}
	if [[ $2 == *"output mismatch"* ]]; then
		held=$2 held_cur=$cur held_sect=${_fstests_res_sect:-}
	else
		_fstests_res_line "$2" "$cur"
	fi
	cur=
}

# _fstests_res_held: record the line _fstests_res_stream holds, if any, in
# the section it came in
_fstests_res_held() {
	local sect=${_fstests_res_sect:-}
	[ -n "$held" ] || return 0
	_fstests_res_sect=$held_sect
	_fstests_res_line "$held" "$held_cur"
	_fstests_res_sect=$sect
	held=
}

# _fstests_res_lines FROM: the result lines of check's output on stdin
# (printed already) recorded, but not the tests recorded after line FROM
# of _fstests_res_done (rapido_fstests_check's own, in the same output)
_fstests_res_lines() {
	local line name
	_fstests_res_seen "$1"
	_fstests_res_sect=
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%$'\r'}
		[[ $line =~ ^SECTION[[:space:]]+--[[:space:]]+([A-Za-z0-9_-]+) ]] &&
			_fstests_res_sect=${BASH_REMATCH[1]}
		[[ $line =~ ^([a-z0-9_.-]+/[0-9]+)[[:space:]] ]] || continue
		name=${_fstests_res_sect:+$_fstests_res_sect:}${BASH_REMATCH[1]}
		[ -z "${_fstests_res_seen_set[$name]:-}" ] || continue
		_fstests_res_line "$line" ""
	done
	_fstests_res_sect=
}

# _fstests_res_line LINE STARTED: record the test LINE is the result of.
# A name alone (./check -n lists tests so, padded) and the summary of a
# loop (-L: "NAME aggregate results across N runs", its runs were
# recorded) are no result.
_fstests_res_line() {
	local name rest secs=0 out= f st dir=${RESULT_BASE:-/fstests/results}
	[[ $1 =~ ^([a-z0-9_.-]+/[0-9]+)[[:space:]]+(.*[^[:space:]])[[:space:]]*$ ]] || return 0
	name=${BASH_REMATCH[1]}
	rest=${BASH_REMATCH[2]}
	[[ $rest == "aggregate results across "* ]] && return 0
	[[ $rest =~ ([0-9]+)s[[:space:]]*$ ]] && secs=${BASH_REMATCH[1]}
	if [ -n "${_fstests_res_sect:-}" ]; then
		dir+=/$_fstests_res_sect
		name=$_fstests_res_sect:$name
	fi
	# no start seen: check's own time for the test
	[ "$2" = "$name" ] || rapido_test_time "$name" "$secs"
	case $rest in
	*"[not run]"*) st=skip; rapido_test_skip "$name" "${rest#*"[not run]" }" > /dev/null ;;
	*"[expunged]"*) st=skip; rapido_test_skip "$name" "expunged" > /dev/null ;;
	*"output mismatch"*|*"[failed"*|*_check_*|*"no qualified output"*)
		st=fail
		for f in "$dir/${name#*:}.out.bad" "$dir/${name#*:}.dmesg"; do
			[ -r "$f" ] && out+="==> $f <=="$'\n'"$(< "$f")"$'\n'
		done
		rapido_test_fail "$name" "$rest" "$out" > /dev/null
		;;
	*[0-9]s) st=pass; rapido_test_pass "$name" > /dev/null ;;
	*) st=fail; rapido_test_fail "$name" "$rest" > /dev/null ;;
	esac
	echo "$name $st" >> "$_fstests_res_done"
}

# _fstests_res_import FROM: the testcases of result.xml not recorded after
# line FROM of _fstests_res_done; a section's (RESULT_BASE/SECTION/
# result.xml) named SECTION:TEST
_fstests_res_import() {
	local f xml chunk name msg sect st base=${RESULT_BASE:-/fstests/results}
	_fstests_res_seen "$1"
	for f in "$base"/result.xml "$base"/*/result.xml; do
		[ -r "$f" ] || continue
		sect=
		[ "$f" = "$base/result.xml" ] || { sect=${f%/result.xml}; sect=${sect##*/}:; }
		xml=$(< "$f")
		while [[ $xml == *"<testcase"* ]]; do
			xml=${xml#*<testcase}
			chunk=${xml%%<testcase*}
			[[ $chunk =~ [[:space:]]name=\"([^\"]*)\" ]] || continue
			name=$sect${BASH_REMATCH[1]}
			[ -z "${_fstests_res_seen_set[$name]:-}" ] || continue
			_fstests_res_seen_set[$name]=1
			msg=
			[[ $chunk =~ message=\"([^\"]*)\" ]] && msg=${BASH_REMATCH[1]}
			msg=${msg//&lt;/<}
			msg=${msg//&gt;/>}
			msg=${msg//&quot;/\"}
			msg=${msg//&amp;/&}
			case $chunk in
			*"<skipped"*) st=skip; rapido_test_skip "$name" "$msg" ;;
			*"<failure"*|*"<error"*) st=fail; rapido_test_fail "$name" "${msg:-failed}" ;;
			*) st=pass; rapido_test_pass "$name" ;;
			esac
			echo "$name $st" >> "$_fstests_res_done"
		done
	done
}
