# SPDX-License-Identifier: GPL-2.0
# tap.sh: the TAP helpers of the shell tests, as tests/tap.h is for the C
# ones. Sourced by tests/unit/*.sh and, through tests/boot/lib.sh, by every
# boot and slow test.
#
#	. "$(dirname "$0")/../tap.sh"
#	run "$TOP/vmctl" --bogus
#	check "unknown option: exit 2" exits 2
#	check "  says so" contains "$T/err" "unknown option '--bogus'"
#	expect_rc "make man" 0 $?
#	skip "the root check" "running as root without setpriv"
#	done_testing
#
# What sourcing gives (set -u is on):
#   TOP                    the top of the source tree
#   T                      a private temporary directory, removed at exit
#                          unless KEEP_TEST_DIR is set
#   fails                  how many checks failed so far (to show more of
#                          what went wrong: [ $fails = 0 ] || sed ...)
# Reporting, one TAP line each (the plan comes last, from done_testing):
#   ok DESCRIPTION         a check that passed
#   not_ok DESCRIPTION     one that failed; then runs $TAP_ON_FAIL if set
#                          (a command showing why, such as show_run)
#   check DESCRIPTION COMMAND...      ok if COMMAND succeeds
#   expect_rc DESCRIPTION WANT GOT    ok if exit status GOT is WANT
#   skip DESCRIPTION WHY   a check that cannot run here: "ok N - ... # SKIP WHY"
#   done_testing           prints the plan 1..N; exits 1 if any check
#                          failed, else 0
# Running a command and looking at what it did (predicates for check):
#   run COMMAND...         stdout in $T/out, stderr in $T/err, status in $rc
#   show_run               the last run's status, stdout and stderr as
#                          TAP comments
#   exits STATUS [STDERR]  the last run exited STATUS and, if STDERR is
#                          given, printed exactly that on stderr (if not,
#                          what was expected, as TAP comments)
#   fails_with STATUS STDERR   exits STATUS STDERR, and nothing on stdout
#   out_is TEXT, err_is TEXT   the last run's stdout, stderr is exactly
#                          TEXT (as "$(cat FILE)" is: trailing newlines dropped)
#   contains FILE TEXT     a line of FILE holds TEXT (a fixed string)
#   same_file WANT GOT     the two files are the same; if not, their diff
#                          as TAP comments
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
T=$(mktemp -d /tmp/rapido-test.XXXXXX) || exit 1
trap '[ -n "${KEEP_TEST_DIR:-}" ] || rm -rf "$T"' EXIT

tap_n=0
fails=0
ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $*"
}
not_ok() {
	tap_n=$((tap_n + 1))
	fails=$((fails + 1))
	echo "not ok $tap_n - $*"
	[ -z "${TAP_ON_FAIL:-}" ] || $TAP_ON_FAIL
	# false, so that `check ... || show what went wrong` shows it (it
	# returned the test of TAP_ON_FAIL: true, and no diagnostic ran)
	return 1
}
check() {
	local d=$1
	shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}
expect_rc() {
	if [ "$3" = "$2" ]; then ok "$1 (exit $3)"; else not_ok "$1: expected exit $2, got $3"; fi
}
skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}
# netns_or_why NS: make the network namespace NS and see that ip -n enters
# it (its loopback up); prints nothing when it does (NS is then the
# caller's to delete), else why not, NS gone. ip -n makes / a slave mount
# first, which fails (EINVAL) where / is no mount point, as in a chroot.
netns_or_why() {
	local err
	[ "$(id -u)" -eq 0 ] || { echo "needs root"; return; }
	command -v ip > /dev/null || { echo "needs ip (iproute2)"; return; }
	err=$(ip netns add "$1" 2>&1) || { echo "ip netns add $1: $err"; return; }
	err=$(ip -n "$1" link set lo up 2>&1) && return
	ip netns del "$1" 2> /dev/null
	printf 'ip -n cannot enter a namespace here (%s)%s\n' "${err//$'\n'/; }" \
		"$(awk '$5 == "/" { m = 1 } END { if (!m) print ": / is no mount point (a chroot)" }' /proc/self/mountinfo)"
}
# netns_or_skip: exit 77 saying why (netns_or_why) where a network
# namespace cannot be made and entered here, before any check
netns_or_skip() {
	local ns=rapido-probe-$$ why
	why=$(netns_or_why "$ns")
	[ -z "$why" ] || { echo "# SKIP $why"; exit 77; }
	ip netns del "$ns" 2> /dev/null
}
done_testing() {
	echo "1..$tap_n"
	[ "$fails" -eq 0 ] || exit 1
	exit 0
}

rc=
run() {
	"$@" > "$T/out" 2> "$T/err"
	rc=$?
}
show_run() {
	echo "#   exit $rc"
	sed 's/^/#   stdout: /' "$T/out"
	sed 's/^/#   stderr: /' "$T/err"
}
exits() {
	if [ "$rc" != "$1" ]; then
		echo "#   expected exit $1"
		return 1
	fi
	[ $# -lt 2 ] || err_is "$2" || { printf '%s\n' "$2" | sed 's/^/#   expected stderr: /'; false; }
}
fails_with() {
	exits "$1" "$2" && [ ! -s "$T/out" ]
}
out_is() {
	[ "$(cat "$T/out")" = "$1" ]
}
err_is() {
	[ "$(cat "$T/err")" = "$1" ]
}
contains() {
	grep -qF -- "$2" "$1"
}
same_file() {
	diff -u "$1" "$2" | sed 's/^/#   /'
	[ "${PIPESTATUS[0]}" -eq 0 ]
}
