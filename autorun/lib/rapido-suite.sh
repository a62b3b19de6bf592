# SPDX-License-Identifier: GPL-2.0
# rapido-suite.sh: what a suite's profile asks of the library: its keys'
# form (rapido_conf_form), its selection's words (rapido_words,
# rapido_selected), a suite missing from the image (rapido_no_suite), a
# status that is no test's (rapido_not_skip) and its harness's PATH
# (rapido_harness). Apart from rapido.sh: a batch autorun sources it only
# when its profile or extras name one of these (src/cut/libpick.c). Only
# definitions here, nothing runs.

# rapido_conf_form KEY FORM: the key KEY, if set, has the form FORM, else
# the profile stops naming KEY, its value and what was expected. FORMs:
#   ipv4       a dotted IPv4 address (10.99.0.1)
#   usb-busid  a USB bus id, N-N[.N...] (1-1, 1-1.2: bus, then ports)
rapido_conf_form() {
	local v=${!1:-} o='(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])' re what
	case $2 in
	ipv4) re="^($o\.){3}$o\$" what="an IPv4 address (e.g. 10.99.0.1)" ;;
	usb-busid) re='^[0-9]+-[0-9]+(\.[0-9]+)*$' what="a USB bus id N-N[.N] (e.g. 1-1, 1-1.2)" ;;
	*) rapido_fail "rapido_conf_form: no form '$2'" ;;
	esac
	[ -z "$v" ] || [[ $v =~ $re ]] || rapido_fail "$1='$v': expected $what"
}

# rapido_words VALUE [SUFFIX]: VALUE's words (spaces or commas, as a
# suite's selection keys take them) in the array RAPIDO_WORDS, each
# without SUFFIX (a test named by its file: ".t"); never expanded as globs
# against the current directory ("open0*" is a test-name glob its caller
# matches)
rapido_words() {
	local v=${1//,/ } w
	local -
	set -f
	RAPIDO_WORDS=()
	# shellcheck disable=SC2086 # words on purpose
	for w in $v; do
		RAPIDO_WORDS+=("${w%"${2:-}"}")
	done
}

# rapido_selected COUNT KEYS: a suite's selection (by the keys KEYS, said
# as "LTP_TESTS/LTP_SKIP") of COUNT tests; none stops the profile, as a
# run of no test would pass
rapido_selected() {
	[ "$1" -gt 0 ] || rapido_fail "selected no test ($2)"
}

# where ./cut puts the autorun's parts: 00-PROFILE.sh, then the -x extras
_rapido_autorun_dir=/rapido/autorun

# rapido_no_suite KEY MSG...: the profile's suite is not in the image (KEY
# unset): MSG said. A run that collects results or powers off after the
# profile (./vm --results, --batch) with nothing else to run (no -x extra,
# no rapido run CMD) fails naming KEY, as a run of no test would pass; an
# interactive one gets its shell, as fstests_local's does without
# FSTESTS_SRC.
rapido_no_suite() {
	local key=$1 f
	shift
	echo "$*"
	[ "${RAPIDO_BATCH:-0}" = 1 ] || [ -n "${RAPIDO_RESULTS_PORT:-}" ] || return 0
	[ -z "${RAPIDO_EXEC:-}" ] || return 0
	for f in "$_rapido_autorun_dir"/*-cmd.sh "$_rapido_autorun_dir"/*-file.sh; do
		[ ! -e "$f" ] || return 0
	done
	rapido_fail "$key unset: the suite is not in the image, so no test ran (set $key and cut again)"
}

# rapido_not_skip CMD...: CMD's status, but 77 (rapido_test's skip) is 1,
# said: for a command whose status is the run's, not a test's verdict
rapido_not_skip() {
	local rc
	"$@"
	rc=$?
	[ "$rc" -eq 77 ] || return "$rc"
	echo "rapido: $1 exited 77: a failure here (status 1), not a skip"
	return 1
}

# rapido_harness CMD [ARG]...: run CMD (a suite's harness: ./check,
# run_kselftest.sh) with the PATH it expects, without busybox's applets
# (_rapido_path); its status. From an -x extra too.
rapido_harness() {
	local REPLY

	_rapido_path harness
	PATH=$REPLY "$@"
}
