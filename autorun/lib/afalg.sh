# SPDX-License-Identifier: GPL-2.0
# afalg.sh: shell functions for the afalg profile (AF_ALG self-test, the
# rapido-afalg-sum hasher against coreutils, its exit codes) and its bench
# mode (bench/afalg). Sourced into every profile's shell: only function
# definitions here, nothing runs.
#
# Results go to the console as "afalg: ok - ..." / "afalg: not ok - ..."
# lines and, when ./vm --share mounted a host directory at /host, into files
# there (see autorun/afalg.sh for the list).

# afalg_host_dir: print /host when it is a mounted host share, else nothing
afalg_host_dir() {
	rapido_mounted /host 9p && echo /host
}

# afalg_say MESSAGE: "afalg: MESSAGE [UPTIMEs]" on the console
afalg_say() {
	local up _

	read -r up _ < /proc/uptime
	echo "afalg: $* [${up}s]"
}

# afalg_begin WORKDIR: set up the counters, the work dir and the result files
afalg_begin() {
	AFALG_WORK=$1
	AFALG_HOST=$(afalg_host_dir)
	AFALG_N=0
	AFALG_FAILS=0
	rm -rf "$AFALG_WORK"
	mkdir -p "$AFALG_WORK" || rapido_fail "mkdir $AFALG_WORK"
	if [ -n "$AFALG_HOST" ]; then
		rm -rf "$AFALG_HOST/afalg-sums"
		mkdir -p "$AFALG_HOST/afalg-sums" || rapido_fail "mkdir $AFALG_HOST/afalg-sums"
		: > "$AFALG_HOST/afalg-results.txt"
		: > "$AFALG_HOST/afalg-exit-codes.txt"
	fi
}

# afalg_result ok|"not ok" DESCRIPTION: one result line, console (with the
# guest's uptime) and host
afalg_result() {
	local line

	AFALG_N=$((AFALG_N + 1))
	[ "$1" = ok ] || AFALG_FAILS=$((AFALG_FAILS + 1))
	line="$1 $AFALG_N - ${*:2}"
	afalg_say "$line"
	[ -z "$AFALG_HOST" ] || echo "$line" >> "$AFALG_HOST/afalg-results.txt"
}

# afalg_save NAME [FILE]: copy FILE (or stdin) to the host share as NAME
afalg_save() {
	[ -n "$AFALG_HOST" ] || return 0
	if [ $# -ge 2 ]; then
		cp "$2" "$AFALG_HOST/$1"
	else
		cat > "$AFALG_HOST/$1"
	fi
}

# afalg_drivers: "name=driver(priority)" of the highest-priority hash
# implementation the kernel has for each algorithm, as /proc/crypto says
afalg_drivers() {
	local alg line k v name='' driver='' prio='' type='' best
	declare -A top=() topprio=()

	while IFS= read -r line || [ -n "$line" ]; do
		k=${line%%:*}
		k=${k%"${k##*[! ]}"}
		v=${line#*: }
		case $k in
		name) name=$v ;;
		driver) driver=$v ;;
		priority) prio=$v ;;
		type) type=$v ;;
		"")
			if [[ "$type" == *hash ]] && [ -n "$name" ] &&
				{ [ -z "${topprio[$name]:-}" ] || [ "$prio" -gt "${topprio[$name]}" ]; }; then
				top[$name]=$driver
				topprio[$name]=$prio
			fi
			name='' driver='' prio='' type=''
			;;
		esac
	done < /proc/crypto
	best=
	for alg in "$@"; do
		best+="$alg=${top[$alg]:-none}(${topprio[$alg]:-})  "
	done
	echo "${best%  }"
}

# afalg_modules: say which AF_ALG and driver modules are loaded
afalg_modules() {
	local m loaded=() missing=()

	for m in "$@"; do
		if [ -d "/sys/module/$m" ]; then
			loaded+=("$m")
		else
			missing+=("$m")
		fi
	done
	afalg_say "modules loaded: ${loaded[*]:-none}"
	[ ${#missing[@]} -eq 0 ] || echo "afalg: modules not loaded (built in, or not for this CPU): ${missing[*]}"
}

# afalg_selftest [ARGS...]: rapido-afalg-selftest, TAP to the console and to
# /host/afalg-selftest.tap; ok if it exits 0 with a plan and no "not ok"
afalg_selftest() {
	local tap=$AFALG_WORK/selftest.tap rc nok=0 okc=0 skip=0 plan='' line start secs
	local cmd="rapido-afalg-selftest${*:+ $*}"

	start=$EPOCHREALTIME
	rapido-afalg-selftest "$@" | tee "$tap"
	rc=${PIPESTATUS[0]}
	secs=$(afalg_secs "$start" "$EPOCHREALTIME")
	afalg_save afalg-selftest.tap "$tap"
	# ./vm --results: each self-test result a testcase (autorun/lib/results.sh)
	[ -z "${RAPIDO_RESULTS_PORT:-}" ] || rapido_test_tap afalg-selftest "$tap" > /dev/null
	while IFS= read -r line; do
		case $line in
		"not ok"*) nok=$((nok + 1)) ;;
		ok*"# SKIP"*|ok*"# skip"*) skip=$((skip + 1)) ;;
		ok*) okc=$((okc + 1)) ;;
		1..*) plan=${line%% *} ;;
		esac
	done < "$tap"
	if [ "$rc" = 0 ] && [ $nok = 0 ] && [ -n "$plan" ] && [ $okc -gt 0 ]; then
		afalg_result ok "$cmd: $okc ok, $skip skipped, 0 not ok, plan $plan (${secs}s)"
	else
		afalg_result "not ok" "$cmd: exit $rc, $okc ok, $skip skipped, $nok not ok, plan '${plan:-none}' (${secs}s)"
	fi
}

# afalg_secs START END: seconds between two $EPOCHREALTIME values, 0.1 s precision
afalg_secs() {
	local us=$(( ${2//[.,]/} - ${1//[.,]/} ))

	printf '%d.%d\n' $((us / 1000000)) $((us % 1000000 / 100000))
}

# afalg_make_file FILE SIZE: SIZE (head -c syntax: 512, 4K, 1M) random bytes
afalg_make_file() {
	head -c "$2" /dev/urandom > "$1" || rapido_fail "cannot write $2 bytes to $1"
}

# afalg_check_sums DIR BIG FILE...: for each algorithm, the hasher through
# splice and through --no-splice prints the same lines as coreutils' ALGsum
# for FILE... (and BIG, for the algorithms in AFALG_BIG_ALGS: default all,
# "none" for none);
# --debug must show that each path was the one taken. The three commands of
# an algorithm run at the same time (under TCG each vCPU is a host thread).
afalg_check_sums() {
	local dir=$1 big=$2 alg path f rc bad want got dbg why start pid=()
	shift 2
	local small=("$@") files
	local big_algs=" ${AFALG_BIG_ALGS:-md5 sha1 sha224 sha256 sha384 sha512} "
	declare -A st=()

	for alg in md5 sha1 sha224 sha256 sha384 sha512; do
		files=("${small[@]}")
		[[ "$big_algs" != *" $alg "* ]] || files+=("$big")
		start=$EPOCHREALTIME
		want=$AFALG_WORK/want-$alg
		(cd "$dir" && exec "${alg}sum" "${files[@]}") > "$want" &
		pid[0]=$!
		(cd "$dir" && exec rapido-afalg-sum --debug -a "$alg" "${files[@]}") \
			> "$AFALG_WORK/got-splice-$alg" 2> "$AFALG_WORK/dbg-splice-$alg" &
		pid[1]=$!
		(cd "$dir" && exec rapido-afalg-sum --debug --no-splice -a "$alg" "${files[@]}") \
			> "$AFALG_WORK/got-no-splice-$alg" 2> "$AFALG_WORK/dbg-no-splice-$alg" &
		pid[2]=$!
		wait "${pid[0]}"
		rc=$?
		wait "${pid[1]}"
		st[splice]=$?
		wait "${pid[2]}"
		st[no-splice]=$?
		afalg_save "afalg-sums/coreutils-$alg.txt" "$want"
		if [ $rc != 0 ]; then
			afalg_result "not ok" "${alg}sum ${files[*]}: exit $rc"
			continue
		fi
		for path in splice no-splice; do
			got=$AFALG_WORK/got-$path-$alg
			dbg=$AFALG_WORK/dbg-$path-$alg
			rc=${st[$path]}
			afalg_save "afalg-sums/$path-$alg.txt" "$got"
			bad=()
			why=
			for f in "${files[@]}"; do
				# the line for f in each output (names here need no escaping)
				local w g
				w=$(afalg_line_for "$f" < "$want")
				g=$(afalg_line_for "$f" < "$got")
				[ -n "$g" ] && [ "$w" = "$g" ] || bad+=("$f")
				afalg_debug_ok "$f" "$path" < "$dbg" ||
					why+=" $f: not fed by $path ($(afalg_line_for "$f:" < "$dbg"))"
			done
			cmp -s "$want" "$got" || [ ${#bad[@]} -gt 0 ] || bad+=("(order or extra lines)")
			if [ "$rc" = 0 ] && [ ${#bad[@]} = 0 ] && [ -z "$why" ]; then
				afalg_result ok "$alg $path: ${files[*]} match ${alg}sum"
			else
				afalg_result "not ok" "$alg $path: exit $rc${bad[*]:+; differ from ${alg}sum: ${bad[*]}}${why:+;$why}"
				sed 's/^/afalg:   /' "$dbg" >&2
			fi
		done
		afalg_say "$alg: ${alg}sum, splice and --no-splice took $(afalg_secs "$start" "$EPOCHREALTIME")s together"
	done
}

# afalg_line_for NAME < LINES: the first line that names NAME as its file
# ("HEX  NAME", or "rapido-afalg-sum: NAME: ..." from --debug)
afalg_line_for() {
	local line

	while IFS= read -r line; do
		case $line in
		*"  $1"|*"*$1") echo "$line"; return 0 ;;
		"rapido-afalg-sum: $1 "*) echo "$line"; return 0 ;;
		esac
	done
	return 1
}

# afalg_debug_ok FILE splice|no-splice < DEBUG: --debug says FILE went that way
afalg_debug_ok() {
	local line n

	while IFS= read -r line; do
		case $line in
		"rapido-afalg-sum: $1: "*) ;;
		*) continue ;;
		esac
		line=${line#"rapido-afalg-sum: $1: "}
		n=${line%% bytes*}
		if [ "$2" = splice ]; then
			[ "$line" = "$n bytes, $n spliced, splice" ]
		else
			[ "$line" = "$n bytes, 0 spliced, read+send (--no-splice)" ]
		fi
		return
	done
	return 1
}

# afalg_check_check DIR VICTIM FILE...: -c passes on intact files, then
# catches VICTIM with one byte changed: FAILED for it, OK for the rest,
# exit 1, the same stdout, stderr and status as sha256sum -c; through both
# feed paths
afalg_check_check() {
	local dir=$1 victim=$2 rc wrc path out size off byte
	shift 2
	local files=("$@")

	(cd "$dir" && rapido-afalg-sum "${files[@]}") > "$dir/SUMS" ||
		{ afalg_result "not ok" "-c: cannot make the checksum file"; return; }
	afalg_save afalg-sums/check-sums.txt "$dir/SUMS"
	(cd "$dir" && rapido-afalg-sum -c SUMS) > "$AFALG_WORK/check-intact" 2>&1
	rc=$?
	if [ $rc = 0 ] && [ "$(afalg_count ': OK$' < "$AFALG_WORK/check-intact")" = ${#files[@]} ]; then
		afalg_result ok "-c on intact files: ${#files[@]} OK, exit 0"
	else
		afalg_result "not ok" "-c on intact files: exit $rc: $(tr '\n' '|' < "$AFALG_WORK/check-intact")"
	fi

	# one byte in the middle of the victim, inverted in place
	size=$(stat -c %s "$dir/$victim")
	off=$((size / 2))
	byte=$(od -An -tu1 -j "$off" -N1 "$dir/$victim")
	# shellcheck disable=SC2059 # the format is the escape \xHH on purpose
	printf "\\x$(printf %02x $(( ${byte// /} ^ 255 )))" |
		dd of="$dir/$victim" bs=1 seek="$off" conv=notrunc status=none
	(cd "$dir" && sha256sum -c SUMS) > "$AFALG_WORK/check-want" 2> "$AFALG_WORK/check-want.err"
	wrc=$?
	afalg_exit_code check-corrupted-sha256sum "$wrc"
	afalg_save afalg-check-sha256sum.txt "$AFALG_WORK/check-want"
	sed 's/^sha256sum: /rapido-afalg-sum: /' "$AFALG_WORK/check-want.err" > "$AFALG_WORK/check-want.err2"
	for path in splice no-splice; do
		local opt=()
		[ $path = no-splice ] && opt=(--no-splice)
		out=$AFALG_WORK/check-$path
		(cd "$dir" && rapido-afalg-sum "${opt[@]}" -c SUMS) > "$out" 2> "$out.err"
		rc=$?
		afalg_save "afalg-check-$path.txt" "$out"
		afalg_exit_code "check-corrupted-$path" "$rc"
		if [ $rc = 1 ] && grep -qx "$victim: FAILED" "$out" &&
			[ "$(afalg_count ': OK$' < "$out")" = $((${#files[@]} - 1)) ] &&
			cmp -s "$AFALG_WORK/check-want" "$out" &&
			cmp -s "$AFALG_WORK/check-want.err2" "$out.err"; then
			afalg_result ok "-c $path catches $victim with one byte changed: FAILED, exit 1, same stdout and stderr as sha256sum -c"
		else
			afalg_result "not ok" "-c $path with $victim corrupted: exit $rc (sha256sum: $wrc): $(cat "$out" "$out.err" | tr '\n' '|')"
		fi
	done
}

# afalg_count REGEX < LINES: how many lines match
afalg_count() {
	grep -c -- "$1"
}

# afalg_exit_code NAME STATUS: record an exit status for the host to check
afalg_exit_code() {
	echo "afalg: exit-code $1 $2"
	[ -z "$AFALG_HOST" ] || echo "$1 $2" >> "$AFALG_HOST/afalg-exit-codes.txt"
}

# afalg_expect_exit NAME WANT STDERR-PATTERN CMD...: run CMD, record its
# status, ok if it is WANT and stderr matches the (grep) pattern
afalg_expect_exit() {
	local name=$1 want=$2 pat=$3 rc
	shift 3

	"$@" > "$AFALG_WORK/exit-out" 2> "$AFALG_WORK/exit-err"
	rc=$?
	afalg_exit_code "$name" "$rc"
	if [ "$rc" = "$want" ] && grep -q -- "$pat" "$AFALG_WORK/exit-err"; then
		afalg_result ok "$name: exit $rc, '$(head -n1 "$AFALG_WORK/exit-err")'"
	else
		afalg_result "not ok" "$name: exit $rc, want $want; stderr: $(tr '\n' '|' < "$AFALG_WORK/exit-err")"
	fi
}

# afalg_check_exit_codes DIR FILE: the documented statuses (rapido-afalg-sum
# --help): a keyed hash without a key 5, an unknown algorithm 4, a
# nonexistent file 1 (as sha256sum, which is asked too)
afalg_check_exit_codes() {
	local dir=$1 f=$2

	afalg_expect_exit missing-key 5 'needs a key' \
		rapido-afalg-sum -a 'hmac(sha256)' "$dir/$f"
	afalg_expect_exit unknown-alg 4 "unknown hash algorithm 'no-such-hash'" \
		rapido-afalg-sum -a no-such-hash "$dir/$f"
	afalg_expect_exit no-such-file 1 'No such file or directory' \
		rapido-afalg-sum "$dir/no-such-file"
	afalg_expect_exit no-such-file-sha256sum 1 'No such file or directory' \
		sha256sum "$dir/no-such-file"
	# the kernel refuses a key for an unkeyed hash (setkey: ENOSYS)
	printf k > "$AFALG_WORK/key"
	afalg_expect_exit key-for-sha256 5 'takes no key' \
		rapido-afalg-sum --key-file "$AFALG_WORK/key" "$dir/$f"
	# and takes one where it is needed: RFC 4231 test case 2
	printf Jefe > "$AFALG_WORK/jefe"
	printf 'what do ya want for nothing?' > "$AFALG_WORK/msg"
	local d
	d=$(rapido-afalg-sum -a 'hmac(sha256)' --key-file "$AFALG_WORK/jefe" "$AFALG_WORK/msg")
	if [ "${d%% *}" = 5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843 ]; then
		afalg_result ok "hmac(sha256) with --key-file: RFC 4231 case 2 digest"
	else
		afalg_result "not ok" "hmac(sha256) with --key-file: got '$d'"
	fi
}

# afalg_end: the summary line; status 1 if anything failed
afalg_end() {
	if [ "$AFALG_FAILS" = 0 ]; then
		echo "afalg: PASS: $AFALG_N checks"
		[ -z "$AFALG_HOST" ] || echo "PASS $AFALG_N" > "$AFALG_HOST/afalg-status.txt"
		return 0
	fi
	echo "afalg: FAIL: $AFALG_FAILS of $AFALG_N checks failed" >&2
	# the kernel's last words, if the image has dmesg
	command -v dmesg > /dev/null &&
		dmesg | { mapfile -t l; printf 'afalg: dmesg: %s\n' "${l[@]: -20}"; } >&2
	[ -z "$AFALG_HOST" ] || echo "FAIL $AFALG_FAILS $AFALG_N" > "$AFALG_HOST/afalg-status.txt"
	return 1
}

# ---- bench mode (bench/afalg) -------------------------------------------

# afalg_time OUT CMD...: run CMD with stdout to OUT and stderr thrown away;
# AFALG_US is how long it took in microseconds by bash's $EPOCHREALTIME
# (taken in this shell: no fork of ours inside the interval)
afalg_time() {
	local out=$1 t0 t1
	shift

	t0=$EPOCHREALTIME
	"$@" > "$out" 2> /dev/null
	AFALG_RC=$?
	t1=$EPOCHREALTIME
	AFALG_US=$(( ${t1//[.,]/} - ${t0//[.,]/} ))
}

# afalg_bench_cmd TOOL ALG FILE: set AFALG_CMD to the command line for TOOL
afalg_bench_cmd() {
	case $1 in
	splice) AFALG_CMD=(rapido-afalg-sum -a "$2" "$3") ;;
	no-splice) AFALG_CMD=(rapido-afalg-sum --no-splice -a "$2" "$3") ;;
	openssl) AFALG_CMD=(openssl dgst "-$2" "$3") ;;
	coreutils) AFALG_CMD=("${2}sum" "$3") ;;
	esac
}

# afalg_digest FILE: the hex digest in a tool's output ("HEX  NAME" or
# openssl's "SHA2-256(NAME)= HEX")
afalg_digest() {
	local d

	IFS= read -r d < "$1" || return 1
	d=${d##*= }
	echo "${d%% *}"
}

# afalg_bench WORKDIR: time each tool on each algorithm and size, all the
# files in tmpfs (page cache warm). Writes "ALG BYTES TOOL RUN MICROSECONDS"
# lines (and "# KEY VALUE" facts) to /host/afalg-bench.raw, or to the
# console without a share. Each timed command is a whole process, start-up
# included (the hasher is static; openssl and coreutils are dynamic).
# Settings (rapido.conf keys or environment, passed by ./cut):
#   AFALG_BENCH_RUNS      timed runs per cell (default 5)
#   AFALG_BENCH_BIG_RUNS  timed runs per cell of AFALG_BENCH_BIG bytes or more (default 3)
#   AFALG_BENCH_BIG       what "big" is, in bytes (default 16777216)
#   AFALG_BENCH_SIZES     sizes, head -c syntax (default "512 4K 64K 1M 16M 32M")
#   AFALG_BENCH_ALGS      algorithms (default "md5 sha1 sha224 sha256 sha384 sha512")
# Runs take the four tools in turn (run 1 of each, run 2 of each, ...). A
# small cell first gets one untimed warm-up run of each tool. The digests
# of the first timed run must agree ("# mismatch" line when they do not).
afalg_bench() {
	local work=$1 out runs big_runs big sizes algs tools=(splice no-splice openssl coreutils)
	local alg size file bytes n r tool d first mism start

	runs=${AFALG_BENCH_RUNS:-5}
	big_runs=${AFALG_BENCH_BIG_RUNS:-3}
	big=${AFALG_BENCH_BIG:-16777216}
	sizes=${AFALG_BENCH_SIZES:-512 4K 64K 1M 16M 32M}
	algs=${AFALG_BENCH_ALGS:-md5 sha1 sha224 sha256 sha384 sha512}
	rm -rf "$work"
	mkdir -p "$work" || rapido_fail "mkdir $work"
	out=$(afalg_host_dir)
	out=${out:+$out/afalg-bench.raw}
	out=${out:-/dev/stdout}
	[ "$out" = /dev/stdout ] || : > "$out" || rapido_fail "cannot write $out"
	command -v openssl > /dev/null || rapido_fail "openssl is not in the image (install it on the host, cut again)"
	command -v rapido-afalg-sum > /dev/null || rapido_fail "rapido-afalg-sum is not in the image"
	start=$EPOCHREALTIME
	{
		echo "# kernel $(uname -r)"
		echo "# cpu $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
		echo "# vcpus $(grep -c '^processor' /proc/cpuinfo)"
		echo "# cpuflags $(sed -n 's/^flags[[:space:]]*: //p' /proc/cpuinfo | head -n1 |
			tr ' ' '\n' | grep -xE 'ssse3|avx|avx2|aes|pclmulqdq|sha_ni|avx512f' | tr '\n' ' ')"
		# shellcheck disable=SC2086 # one argument per algorithm
		echo "# drivers $(afalg_drivers $algs)"
		echo "# openssl $(openssl version)"
		echo "# coreutils $(sha256sum --version | head -n1)"
		echo "# runs $runs big_runs $big_runs big $big"
	} >> "$out"
	for size in $sizes; do
		afalg_make_file "$work/$size" "$size"
	done
	for alg in $algs; do
		for size in $sizes; do
			file=$work/$size
			bytes=$(stat -c %s "$file")
			n=$runs
			if [ "$bytes" -ge "$big" ]; then
				n=$big_runs
			else
				for tool in "${tools[@]}"; do
					afalg_bench_cmd "$tool" "$alg" "$file"
					afalg_time "$work/out" "${AFALG_CMD[@]}"
				done
			fi
			for r in $(seq "$n"); do
				for tool in "${tools[@]}"; do
					afalg_bench_cmd "$tool" "$alg" "$file"
					afalg_time "$work/out-$tool" "${AFALG_CMD[@]}"
					if [ $AFALG_RC != 0 ]; then
						echo "# failed $alg $bytes $tool: exit $AFALG_RC" >> "$out"
						continue
					fi
					echo "$alg $bytes $tool $r $AFALG_US" >> "$out"
				done
				[ "$r" = 1 ] || continue
				first=
				mism=
				for tool in "${tools[@]}"; do
					d=$(afalg_digest "$work/out-$tool")
					[ -n "$first" ] || first=$d
					[ -n "$d" ] && [ "$d" = "$first" ] || mism+=" $tool=${d:-none}"
				done
				[ -z "$mism" ] || echo "# mismatch $alg $bytes:$mism" >> "$out"
			done
			echo "afalg: bench $alg $size: $n runs ($(afalg_secs "$start" "$EPOCHREALTIME")s)"
		done
	done
	echo "# elapsed $(afalg_secs "$start" "$EPOCHREALTIME")" >> "$out"
	echo "afalg: bench done in $(afalg_secs "$start" "$EPOCHREALTIME")s"
}
