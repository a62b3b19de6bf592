#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# blktests-lib.sh: autorun/lib/blktests.sh without a VM: ./check's output
# lines, in the format blktests' check prints them (its _output_status,
# _output_notrun, the indented lines after a verdict), become the records
# of results.sh, each named by its results file (DEV/GROUP/NNN, DEV_COND
# under a condition), a skip with its reasons, a failure with its reason
# from the results file and its .out.bad; a mistyped name a failure; the
# selection and shard lists. tests/boot/blktests-real.sh checks the same
# with the real blktests in a guest.
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/guest-lib.inc"
# the results tree the verdicts are read from
in_lib_pre='_blktests_out=$2/res'

mkdir -p "$tmp/res/nodev/block" "$tmp/res/nullb1/zbd" "$tmp/res/nodev_x_0_y_1/meta"
printf 'status\tpass\nruntime\t3.5s\n' > "$tmp/res/nodev/block/021"
printf 'status\tfail\nreason\toutput\nruntime\t1.0s\n' > "$tmp/res/nodev/block/023"
printf 'Running block/023\nTest complete, or not\n' > "$tmp/res/nodev/block/023.out.bad"
printf 'status\tfail\nreason\texit\nexit_status\t3\n' > "$tmp/res/nullb1/zbd/002"
printf 'status\tpass\nruntime\t12.9s\n' > "$tmp/res/nodev_x_0_y_1/meta/018"

cat > "$tmp/check.out" <<'OUT'
block/021 (read/write nr_requests on null-blk with different schedulers)
block/021 (read/write nr_requests on null-blk with different schedulers) [passed]
    runtime    ...  3.5s
block/023 (do I/O on all null_blk queue modes)
block/023 (do I/O on all null_blk queue modes)               [failed]
    runtime    ...  1.0s
    --- tests/block/023.out
    +++ /results/nodev/block/023.out.bad
zbd/001 => nullb1 (sysfs and ioctl)                          [not run]
    runtime  3.7s  ...
    kernel 6.1.0 config not found
    driver foo is not available
zbd/002 => nullb1 (report zone)                              [failed]
    exited with status 3
meta/018 (x=0 y=1) (combine two set_conditions() hooks)      [passed]
nvme/*** => nullb1                                           [not run]
    nvme_trtype=loop is not supported in this test
./check: no group or test named blok/001
OUT
in_lib '_blktests_res_begin; while IFS= read -r l; do blktests_res_line "$l"; done < "$2/check.out"
	_blktests_res_flush; echo "failed=$_blktests_failed"; rapido_tests_done'
check "a failed test fails the run" test $? = 1
records start > "$tmp/got"
check "each verdict a record named by its results file, reasons from the file and the console" \
	same_file - "$tmp/got" <<'EOF'
start nodev/block/021
pass nodev/block/021
start nodev/block/023
fail nodev/block/023 output mismatch (see 023.out.bad)
skip nullb1/zbd/001 kernel 6.1.0 config not found; driver foo is not available
fail nullb1/zbd/002 exited with status 3
pass nodev_x_0_y_1/meta/018
skip nullb1/nvme nvme_trtype=loop is not supported in this test
fail blktests/blok/001 ./check: no group or test of this name
EOF
check "a failure's output holds its .out.bad" grep -q "Test%20complete,%20or%20not" "$tmp/rec"
check "a verdict without its start seen takes the results file's runtime" \
	grep -qE '^R1 pass nodev_x_0_y_1/meta/018 12\.[0-9]+ ' "$tmp/rec"
check "the totals" grep -qF "results: 2 passed, 3 failed, 2 skipped" "$tmp/out"

# the selection: groups in order, each with its words; shards and excludes
mkdir -p "$tmp/tree/tests/block" "$tmp/tree/tests/zbd"
touch "$tmp/tree/tests/block/001" "$tmp/tree/tests/block/002" "$tmp/tree/tests/block/003" \
	"$tmp/tree/tests/block/rc" "$tmp/tree/tests/zbd/001"
in_lib 'BLKTESTS_TESTS="zbd/001,block tests/block/002"; _blktests_selection
	for g in "${_blktests_sel_groups[@]}"; do echo "$g: ${_blktests_sel[$g]}"; done
	cd "$2/tree" && BLKTESTS_EXCLUDE="block/003" && _blktests_shard block zbd/001 &&
	echo "all: ${_blktests_w[*]}"
	RAPIDO_SHARD=1/2 _blktests_shard block zbd/001; a=${_blktests_w[*]}
	RAPIDO_SHARD=2/2 _blktests_shard block zbd/001; echo "shards: $a | ${_blktests_w[*]}"'
# (the first two lines in a file of their own: a /dev/stdin read inside a
# pipe is the pipe, and the check compared the output with itself)
head -n 2 "$tmp/out" > "$tmp/groups"
check "groups in order of first mention, commas or blanks, tests/ dropped" \
	same_file - "$tmp/groups" <<'EOF'
zbd: zbd/001
block: block block/002
EOF
check "a group expanded from the tree, BLKTESTS_EXCLUDE left out (check would run a named test)" \
	grep -qxF "all: block/001 block/002 zbd/001" "$tmp/out"
check "the two shards split the tests, each test in one" sh -c '
	l=$(grep "^shards: " "$0"); l=${l#shards: }
	set -- ${l%% |*} ${l##*| }
	[ "$(printf "%s\n" "$@" | sort | tr "\n" " ")" = "block/001 block/002 zbd/001 " ]' "$tmp/out"
# every test ./check was asked to run ends as one result: the tests of
# its selection (check's _found_test: config EXCLUDE, QUICK_RUN) that
# printed no verdict are errors (zbd/012 once vanished from junit.xml
# with ./vm's status 0); a device test run on no device a skip
mkdir -p "$tmp/sel/tests/zbd" "$tmp/sel/tests/block"
printf 'DESCRIPTION=x\ntest() { :; }\n' > "$tmp/sel/tests/zbd/011"
printf 'DESCRIPTION=x\nTIMED=1\ntest() { :; }\n' > "$tmp/sel/tests/zbd/012"
printf 'DESCRIPTION=x\ntest() { :; }\n' > "$tmp/sel/tests/zbd/013"
printf 'DESCRIPTION=x\nQUICK=1\ntest() { :; }\n' > "$tmp/sel/tests/zbd/014"
printf 'DESCRIPTION=x\ntest_device() { :; }\n' > "$tmp/sel/tests/block/001"
printf 'DESCRIPTION=x\ntest() { :; }\n' > "$tmp/sel/tests/block/002"
printf 'QUICK_RUN=1\nEXCLUDE=(zbd/014)\n' > "$tmp/sel/config"
in_lib '_blktests_cfg=$2/sel/config; cd "$2/sel" && _blktests_expected zbd block/001 block/002
	printf "%s\n" "${_blktests_exp[@]}"
	_blktests_res_begin
	blktests_res_line "zbd/011 (x)                                [passed]"
	blktests_res_line "block/002 (x)                              [passed]"
	_blktests_res_flush; _blktests_reported; echo "reported=$?"
	rapido_test_reported T zbd/011 nodev/block/002 a; echo "shared=$?"'
head -n 3 "$tmp/out" > "$tmp/exp"
check "the selection as check picks it: QUICK_RUN keeps TIMED and drops the rest, EXCLUDE drops" \
	same_file - "$tmp/exp" <<'EOF'
zbd/012 nodev
block/001 none
block/002 nodev
EOF
records > "$tmp/got"
check "a selected test with no verdict an error, one run on no device a skip" \
	same_file - "$tmp/got" <<'EOF'
pass nodev/zbd/011
pass nodev/block/002
skip nodev/block/001 a device test: no TEST_DEVS and no fallback device
error zbd/012 selected (blktests: BLKTESTS_TESTS) and no result reported: the suite printed no verdict for it
error a selected (T) and no result reported: the suite printed no verdict for it
EOF
check "its status 1" grep -qx "reported=1" "$tmp/out"
check "rapido_test_reported: ID's result is ID or a name ending in /ID" grep -qx "shared=1" "$tmp/out"
done_testing
