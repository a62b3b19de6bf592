# SPDX-License-Identifier: GPL-2.0
# ecryptfs-suite.sh: guest shell functions that drive the real
# ecryptfs-utils test suite (tests/run_tests.sh of a built tree carried at
# /ecryptfs) for the ecryptfs_local profile, one result per test (through
# autorun/lib/results.sh). Sourced into every image, so it only defines
# things.

_ecryptfs_tree=/ecryptfs

# _ecryptfs_categories: the categories tests/kernel/tests.rc sets, one a
# line (run_tests.sh -c takes them)
_ecryptfs_categories() {
	sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p' "$_ecryptfs_tree/tests/kernel/tests.rc"
}

# _ecryptfs_category_tests CATEGORY...: the tests tests.rc lists for each
# CATEGORY, in order, on one line, read as run_tests.sh reads them (it
# sources tests.rc); fails naming a CATEGORY tests.rc does not set
_ecryptfs_category_tests() {
	local c cats
	cats=" $(_ecryptfs_categories | tr '\n' ' ')"
	for c; do
		[[ $cats == *" $c "* ]] && continue
		echo "ecryptfs: '$c' is not a category of tests/kernel/tests.rc (it has:${cats% })" >&2
		return 1
	done
	(
		# shellcheck disable=SC1091 # the tree's own file
		. "$_ecryptfs_tree/tests/kernel/tests.rc" && {
			all=
			for c; do
				all+=" ${!c}"
			done
			# shellcheck disable=SC2086 # one space between the names
			echo $all
		}
	)
}

# _ecryptfs_tree_libdirs: the tree's libtool library directories (.libs/
# holding lib*.so*), colon separated. A libtool build tree carried to
# another path (here /ecryptfs) finds its own libraries only through
# LD_LIBRARY_PATH: the wrapper scripts (tests/lib/etl-add-passphrase-key-
# to-keyring) point at the build directory's absolute path on the host.
_ecryptfs_tree_libdirs() {
	local -A seen=()
	local d out=
	while IFS= read -r d; do
		[ -n "${seen[$d]:-}" ] && continue
		seen[$d]=1
		out+=${out:+:}$d
	done < <(find "$_ecryptfs_tree" -path '*/.libs/lib*.so*' -printf '%h\n' 2>/dev/null)
	echo "$out"
}

# _ecryptfs_suite [ARG...]: run the suite's kernel tests with the profile's
# options (_ecryptfs_suite_args) and ARGs after them, as run_tests.sh takes
# them (-b BLOCKS -c CATEGORIES -D DIR -f FS,... -K -l LOWER -t TESTS
# -u UPPER; the later of an option wins; -t instead of -c). Each test on
# each lower file system is a result named ecryptfs/FS/TEST (TEST as
# run_tests.sh prints it: without .sh), so ./vm --results and --shard see
# them: run_tests.sh runs once per lower file system, on this shard's tests
# of it, as
#   tests/run_tests.sh -K -b BLOCKS [-D DIR] [-l LOWER] [-u UPPER] -f FS -t T1,T2,...
# in /ecryptfs with LD_LIBRARY_PATH at the tree's own libraries. Its
# output is on the console and in $_ecryptfs_logdir: run_tests.log,
# run_tests.args (one run a line), run_tests.status (what this returns);
# run_tests.2.log and so on for later calls.
#
# The harness's verdicts are read from its "NAME<TAB>pass|FAIL" lines. What
# it would pass over becomes a failure: a test it did not run (it skips
# every test of a file system whose disk image it cannot make, saying so
# and counting nothing), one without a pass or FAIL, and a run whose Test
# Summary or exit status disagrees with its lines (its status is the count
# of failures, so 256 would exit 0). A test that a category lists but the
# tree lacks (ecryptfs-utils 111's tests.rc lists xattr.sh, which its
# tarball does not ship) is skipped, saying so; one asked for with -t fails.
# Returns 1 if a test failed or none was run (outside a shard), else 0.
_ecryptfs_runs=0
_ecryptfs_suite() {
	local -a args=("${_ecryptfs_suite_args[@]}" "$@") list=() present=() absent=() fs_list=()
	local -a run=() argv=()
	local -A seen=()
	local opt OPTIND=1 cats='' tests='' fses=ext4 blocks=0 ddir='' lmnt='' umnt=''
	local base=run_tests log t fs name total=0 bad=0 libs st=/tmp/ecryptfs-run.status

	while getopts ":b:c:D:d:f:hKl:t:Uu:" opt "${args[@]}"; do
		case $opt in
		b) blocks=$OPTARG ;;
		c) cats=$OPTARG ;;
		D) ddir=$OPTARG ;;
		f) fses=$OPTARG ;;
		K) ;;
		l) lmnt=$OPTARG ;;
		t) tests=$OPTARG ;;
		u) umnt=$OPTARG ;;
		d|h|U)
			echo "ecryptfs: _ecryptfs_suite -$opt: not supported: the profile runs the kernel" \
				"tests (-K) on disk images it has run_tests.sh make (-b)" >&2
			return 1
			;;
		:)
			echo "ecryptfs: _ecryptfs_suite: -$OPTARG needs a value" >&2
			return 1
			;;
		*)
			echo "ecryptfs: _ecryptfs_suite: unknown option -$OPTARG" \
				"(it takes run_tests.sh's -b -c -D -f -K -l -t -u)" >&2
			return 1
			;;
		esac
	done
	if [ $OPTIND -le ${#args[@]} ]; then
		echo "ecryptfs: _ecryptfs_suite: unexpected argument '${args[OPTIND - 1]}'" >&2
		return 1
	fi
	[[ $blocks =~ ^[1-9][0-9]*$ ]] || {
		echo "ecryptfs: _ecryptfs_suite -b '$blocks': expected the disk images' size in KiB" >&2
		return 1
	}
	if [ -n "$tests" ]; then
		read -r -a list <<< "${tests//,/ }"
	else
		# shellcheck disable=SC2086 # categories are words
		t=$(_ecryptfs_category_tests ${cats//,/ }) || return 1
		read -r -a list <<< "$t"
	fi
	# run_tests.sh would run a test listed twice twice, under one name
	for t in "${list[@]}"; do
		[ -z "${seen[$t]:-}" ] || continue
		seen[$t]=1
		if [ "${t//\//}" = "$t" ] && [ -f "$_ecryptfs_tree/tests/kernel/$t" ] &&
			[ -x "$_ecryptfs_tree/tests/kernel/$t" ]; then
			present+=("$t")
		else
			absent+=("$t")
		fi
	done
	IFS=, read -r -a fs_list <<< "$fses"

	_ecryptfs_runs=$((_ecryptfs_runs + 1))
	[ $_ecryptfs_runs -eq 1 ] || base=run_tests.$_ecryptfs_runs
	log=$_ecryptfs_logdir/$base.log
	: > "$log"
	: > "$_ecryptfs_logdir/$base.args"
	libs=$(_ecryptfs_tree_libdirs)
	echo "ecryptfs: the tree's own libraries: ${libs:-none} (LD_LIBRARY_PATH of the suite)"
	for fs in "${fs_list[@]}"; do
		run=()
		for t in "${absent[@]}"; do
			name=ecryptfs/$fs/${t%.sh}
			rapido_test_in_shard "$name" || continue
			total=$((total + 1))
			if [ -z "$tests" ]; then
				rapido_test_skip "$name" "tests/kernel/tests.rc lists $t, but the tree has no tests/kernel/$t"
			else
				rapido_test_fail "$name" "-t $t: the tree has no executable tests/kernel/$t"
				bad=1
			fi
		done
		for t in "${present[@]}"; do
			rapido_test_in_shard "ecryptfs/$fs/${t%.sh}" && run+=("$t")
		done
		[ ${#run[@]} -gt 0 ] || continue
		total=$((total + ${#run[@]}))
		argv=(tests/run_tests.sh -K -b "$blocks" ${ddir:+-D "$ddir"} ${lmnt:+-l "$lmnt"}
			${umnt:+-u "$umnt"} -f "$fs" -t "$(IFS=,; echo "${run[*]}")")
		echo "ecryptfs: $fs: running ${argv[*]} (log: $log)"
		echo "${argv[*]}" >> "$_ecryptfs_logdir/$base.args"
		: > "$st"
		_ecryptfs_results "$fs" "$log" "$st" "${run[@]}" < <(
			cd "$_ecryptfs_tree" &&
				LD_LIBRARY_PATH=$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "${argv[@]}" 2>&1
			echo "$?" > "$st"
		) || bad=1
	done
	dmesg > "$_ecryptfs_logdir/dmesg.txt" 2>/dev/null
	# a shard, or the serial VM of ./vm --jobs, may have no test of its own
	if [ "$total" -eq 0 ] && [ -z "${RAPIDO_SHARD:-}${RAPIDO_SERIAL:-}" ]; then
		echo "ecryptfs: the suite has no test to run: check ECRYPTFS_TEST_CATEGORY and ECRYPTFS_TESTS" >&2
		bad=1
	fi
	echo "ecryptfs: the suite $([ $bad -eq 0 ] && echo passed || echo FAILED):" \
		"$total tests on ${fs_list[*]}${RAPIDO_SHARD:+ (shard $RAPIDO_SHARD)}"
	echo "$bad" > "$_ecryptfs_logdir/$base.status"
	return "$bad"
}

# _ecryptfs_results FS LOG STATUS-FILE TEST...: one run of run_tests.sh
# on stdin (its TESTs on lower file system FS, in that order), echoed to
# the console and appended to LOG, made into results ecryptfs/FS/TEST;
# STATUS-FILE holds run_tests.sh's exit status once stdin ends. The
# harness prints a test's name padded to 16 and a tab ("%-16s\t"), runs
# it (its output follows on the same line) and ends with "pass" or
# "FAIL": a read that times out on the name means the test has started,
# and the next name (or the summary) ends it. Returns 1 if a test failed,
# was not run, or the summary or exit status disagree with the lines.
_ecryptfs_results() {
	local fs=$1 log=$2 stf=$3
	shift 3
	local -a todo=("$@")
	local i=0 cur='' out='' pre='' disk='' summary=0 spass='' sfail='' hrc
	local npass=0 nfail=0 bad=0

	rapido_stream_results _ecryptfs_results_line
	_ecryptfs_results_end
	hrc=$(< "$stf")
	for ((; i < ${#todo[@]}; i++)); do
		if [ -n "$disk" ]; then
			rapido_test_fail "ecryptfs/$fs/${todo[i]%.sh}" "not run: run_tests.sh: $disk"
		else
			rapido_test_fail "ecryptfs/$fs/${todo[i]%.sh}" \
				"not run: run_tests.sh (exit status ${hrc:-unknown}) ended before it"
		fi
		bad=1
	done
	if [ "$spass/$sfail/$hrc" != "$npass/$nfail/$((nfail % 256))" ]; then
		rapido_test_fail "ecryptfs/$fs/run_tests.sh" "its Test Summary (${spass:-no} passed,\
 ${sfail:-no} failed) or exit status (${hrc:-unknown}) disagrees with its test lines\
 ($npass pass, $nfail FAIL)"
		bad=1
	fi
	return $bad
}

# _ecryptfs_results_line partial|line TEXT: one event of
# rapido_stream_results (part of _ecryptfs_results: its locals)
_ecryptfs_results_line() {
	if [ "$1" = partial ]; then
		# the name alone: its test is running
		if [ -z "$pre" ] && _ecryptfs_results_begin "$2"; then
			pre=$REPLY
		fi
		return 0
	fi
	printf '%s\n' "$2" >> "$log"
	if [ -z "$pre" ] && _ecryptfs_results_begin "$2"; then
		pre=$REPLY
	fi
	if [ -n "$pre" ]; then
		out=${2#"$pre"}
		pre=
	elif [ $summary -eq 1 ]; then
		[[ $2 =~ ^([0-9]+)\ passed$ ]] && spass=${BASH_REMATCH[1]}
		[[ $2 =~ ^([0-9]+)\ failed$ ]] && sfail=${BASH_REMATCH[1]}
	elif [ "$2" = "Test Summary:" ]; then
		_ecryptfs_results_end
		summary=1
	elif [ -z "$cur" ] && [[ $2 == "Failed to create disk for $fs "* ]]; then
		disk=$2
	elif [ -n "$cur" ]; then
		out+=$'\n'$2
	fi
	return 0
}

# _ecryptfs_results_begin LINE: if LINE starts with the next test's name
# as run_tests.sh prints it, end the current test and start that one;
# REPLY is the name's text (part of _ecryptfs_results: its locals)
_ecryptfs_results_begin() {
	local want
	[ "$i" -lt ${#todo[@]} ] || return 1
	printf -v want '%-16s\t' "${todo[i]%.sh}"
	[[ $1 == "$want"* ]] || return 1
	_ecryptfs_results_end
	cur=ecryptfs/$fs/${todo[i]%.sh}
	i=$((i + 1))
	out=
	rapido_test_start "$cur"
	REPLY=$want
}

# _ecryptfs_results_end: the current test's verdict, the pass or FAIL that
# ends its output (part of _ecryptfs_results: its locals)
_ecryptfs_results_end() {
	[ -n "$cur" ] || return 0
	while [[ $out == *$'\n' ]]; do
		out=${out%$'\n'}
	done
	case $out in
	*pass)
		out=${out%pass}
		rapido_test_pass "$cur" "${out%$'\n'}"
		npass=$((npass + 1))
		;;
	*FAIL)
		out=${out%FAIL}
		rapido_test_fail "$cur" "run_tests.sh: FAIL" "${out%$'\n'}"
		nfail=$((nfail + 1))
		bad=1
		;;
	*)
		rapido_test_fail "$cur" "run_tests.sh printed no pass or FAIL for it" "$out"
		bad=1
		;;
	esac
	cur=
}
