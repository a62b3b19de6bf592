#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tool-ktap-cli.sh: rapido-ktap, the guest's TAP reader (results.sh's
# rapido_test_tap): the stream copied to stdout as it was, the records on
# the records fd ending in "end", COMMAND's failure and crash as records,
# and its usage errors.
. "$(dirname "$0")/../tap.sh"
bin=$TOP/build/guest/rapido-ktap
if [ ! -x "$bin" ]; then
	echo "SKIP: $bin is not built (run make)"
	exit 77
fi
TAP_ON_FAIL=show_run
# records STREAM: the records (fd 3) in $T/rec, the copy in $T/out
records() {
	printf '%s' "$1" | "$bin" 3> "$T/rec" > "$T/out" 2> "$T/err"
	rc=$?
}

records $'1..2\n# why\nnot ok 1 - a\nok 2 b # SKIP no disk\n'
check "a stream: exit 0" exits 0
check "  copied to stdout as it was" out_is $'1..2\n# why\nnot ok 1 - a\nok 2 b # SKIP no disk'
# the time field is how long the test took here: any decimal, not a fixed 0.000
# (a loaded machine takes a millisecond between two lines)
check "  its records, output first, then end" test \
	"$(sed -E 's/^(fail|skip)\t[0-9]+\.[0-9]{3}\t/\1\tT\t/' "$T/rec")" = \
	"$(printf 'D\twhy\nfail\tT\ta\tnot ok\nskip\tT\tb\tno disk\nend')"

records $'1..1\nok 1 no newline at the end'
check "a last line without a newline is read" test "$(head -n 1 "$T/rec" | cut -f 1,3)" = \
	"$(printf 'pass\tno newline at the end')"

"$bin" -- sh -c 'echo 1..1; echo ok 1 - fine; kill -SEGV $$' 3> "$T/rec" > "$T/out" 2> "$T/err"
check "-- COMMAND killed by a signal: a failed record for the stream" \
	grep -qP '^fail\t[0-9.]+\t\tsh: killed by signal 11' "$T/rec"
check "  after what it printed" grep -qP '^pass\t[0-9.]+\tfine$' "$T/rec"

"$bin" -- sh -c 'echo 1..1; echo ok 1 - fine; echo oops >&2; exit 3' 3> "$T/rec" > "$T/out" 2> "$T/err"
check "-- COMMAND exiting 3: a failed record" grep -qP '^fail\t[0-9.]+\t\tsh: exit status 3$' "$T/rec"
check "  its stderr is in the stream" grep -qx oops "$T/out"

run "$bin" --records 3x
check "--records 3x: exit 2" exits 2
check "  says why" contains "$T/err" "--records: '3x' is not a file descriptor"
run "$bin" --records 9 < /dev/null
check "a records fd that is not open: exit 1" exits 1
check "  named" contains "$T/err" "rapido-ktap: records fd 9: Bad file descriptor"
run "$bin" --help
check "--help: exit 0, usage on stdout" contains "$T/out" "Usage:"
done_testing
