#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-real.sh: fstests_local with the real xfstests (tests/suite-tree
# xfstests, built once and cached), through every way the profile starts
# ./check, comparing what the guest printed with what ./vm reported (exit
# status, junit.xml):
#  1. generic/001 passes (FSTESTS_TESTS): exit 0, one passing testcase,
#     result.xml written (rapido_fstests_check gives -R xunit).
#  2. A failing variant of the tree (a hardlinked copy made here with
#     generic/002's golden output replaced: "output mismatch"), run by
#     a. FSTESTS_AUTORUN_CMD='./check generic/002' (a plain ./check: no
#        -R xunit, so no result.xml; its console lines are the testcases)
#     b. FSTESTS_TESTS=generic/002 with an extra that passes after it
#        (-x true): the profile's failure sticks
#     c. FSTESTS_GROUPS=udf with the group's other tests excluded (-e)
#     d. ./vm --shard 1/2 and 2/2 of generic/005 and generic/002, merged
#        with ./vm --merge-results: each test in one shard, the merge has
#        both, generic/002 failed
#     each: exit 1 where generic/002 ran, generic/002 a failure in
#     junit.xml, as on the console.
#  3. ./check that cannot start (-g quik, a mistyped group):
#     a. in the results dir of 2b: exit non-zero, 2b's result.xml is not
#        imported
#     b. sharded: ./check -n fails, so the shard fails (not "0 tests")
#  4. btrfs/003 on the default btrfs pool (five scsi_debug disks).
# Wall times are printed with each boot; the verdict paths run first,
# generic/001 and btrfs/003 (minutes each under TCG) last. ONLY="1 2a ..."
# runs some.
. "$(dirname "$0")/lib.sh"

X=$("$TOP/tests/suite-tree" xfstests)
case $? in
0) ;;
77) echo "# SKIP ${X#SKIP: }"; exit 77 ;;
*) echo "Bail out! tests/suite-tree xfstests failed: $X"; exit 1 ;;
esac

# the failing variant: the tree hardlinked, one golden output replaced (a
# new file: the tree's own stays as it is)
BAD=$T/xfstests-bad
# (hardlinks need one mount: a copy where /tmp is another)
cp -al "$X" "$BAD" 2> /dev/null || { rm -rf "$BAD" && cp -a "$X" "$BAD"; } || exit 1
rm "$BAD/tests/generic/002.out" || exit 1
printf 'QA output created by 002\nSilence is not goodness ...\n' > "$BAD/tests/generic/002.out"

want() { case " ${ONLY:-1 2a 2b 2c 2d 3a 3b 4} " in *" $1 "*) return 0 ;; esac; return 1; }

# conf KEY=value...: rapido.conf, ext4 on 512M disks (the quickest set-up)
conf() {
	printf 'FSTESTS_FS=ext4\nFSTESTS_ZRAM_SIZE=512M\nFSTESTS_LOGWRITES_SIZE=0\n' > "$RAPIDO_CONF"
	printf '%s\n' "$@" >> "$RAPIDO_CONF"
}

# boot DESC WANT RESULTS-DIR CUT-ARGS...: cut, boot with ./vm --results
# RESULTS-DIR (and the options in vm_args), expect exit status WANT
vm_args=()
boot() {
	local d=$1 want=$2 res=$3 start rc
	shift 3
	start=$(date +%s)
	if ! "$CUT" fstests_local "$@" > "$T/cut.out" 2>&1; then
		not_ok "$d: cut"
		sed 's/^/# /' "$T/cut.out"
		return 1
	fi
	"$VM" --batch --timeout 3000 --results "$res" "${vm_args[@]}" > "$T/console" 2> "$T/err"
	rc=$?
	expect_rc "$d: ./vm's exit status ($(( $(date +%s) - start ))s)" "$want" $rc
	check "$d: kernel console clean" console_clean "$T/console"
}

# printed: "NAME STATE" for each result line ./check printed on the
# console (a time: pass; a mismatch or [failed...]: failure; [not run] or
# [expunged]: skipped), sorted
printed() {
	guest_text "$T/console" | perl -ne '
		next unless m{^([a-z0-9_.-]+/\d+)\s+(.*?)\s*$};
		my ($n, $r) = ($1, $2);
		if ($r =~ /\[not run\]|\[expunged\]/) { print "$n skipped\n" }
		elsif ($r =~ /output mismatch|\[failed/) { print "$n failure\n" }
		elsif ($r =~ /\d+s$/) { print "$n pass\n" }' | LC_ALL=C sort
}
# reported DIR: "NAME STATE" of DIR/junit.xml, sorted
reported() {
	testcases "$1/junit.xml" | LC_ALL=C sort
}
# console_re RE: a line the guest printed matches RE (grep -E)
console_re() {
	guest_text "$T/console" | grep -qE -- "$1"
}
# agree DESC DIR WANT: the console and junit.xml both say WANT ("NAME STATE")
agree() {
	check "$1: the guest printed: $3" test "$(printed)" = "$3"
	check "$1: junit.xml says the same" test "$(reported "$2")" = "$3"
}

# 2. the failing variant, every way in
if want 2a; then
	conf "FSTESTS_SRC=$BAD" "FSTESTS_AUTORUN_CMD='./check generic/002'"
	boot "2a FSTESTS_AUTORUN_CMD" 1 "$T/res2a"
	agree "2a FSTESTS_AUTORUN_CMD" "$T/res2a" "generic/002 failure"
	check "2a: no result.xml without -R xunit" test ! -e "$T/res2a/files/fstests/result.xml"
	diag
fi
# 3. ./check cannot start
if want 3b; then
	conf "FSTESTS_SRC=$X" FSTESTS_GROUPS=quik
	vm_args=(--shard 1/2)
	boot "3b --shard 1/2 -g quik" 1 "$T/res3b"
	vm_args=()
	check "3b: the guest says ./check -n failed" guest_says "$T/console" \
		"fstests: shard 1/2: ./check -n -g quik failed (exit 1)"
	check "3b: junit.xml has a failure" grep -q '<failure' "$T/res3b/junit.xml"
	diag
fi


if want 2b; then
	conf "FSTESTS_SRC=$BAD" FSTESTS_TESTS=generic/002
	boot "2b FSTESTS_TESTS, -x true" 1 "$T/res2b" -x 'true'
	agree "2b FSTESTS_TESTS, -x true" "$T/res2b" "generic/002 failure"
	check "2b: the failure's .out.bad is in junit.xml" \
		grep -q 'generic/002.out.bad &lt;==' "$T/res2b/junit.xml"
	diag
fi
if want 3a && [ ! -e "$T/res2b/files/fstests/result.xml" ]; then
	skip "3a -g quik after 2b" "2b wrote no result.xml to be stale"
elif want 3a; then
	conf "FSTESTS_SRC=$X" FSTESTS_GROUPS=quik
	boot "3a -g quik after 2b" 1 "$T/res2b"
	check "3a: the guest printed check's complaint" guest_says "$T/console" \
		'Group "quik" is empty or not defined?'
	check "3a: 2b's generic/002 is not imported from its result.xml" \
		bash -c "! grep -q 'generic/002' '$T/res2b/junit.xml'"
	check "3a: junit.xml has a failure" grep -q '<failure' "$T/res2b/junit.xml"
	diag
fi

if want 2c; then
	others=$(sed -n 's/^\([0-9]*\) .*\budf\b.*/generic\/\1/p' "$X/tests/generic/group.list" |
		grep -vx generic/002 | tr '\n' ' ')
	conf "FSTESTS_SRC=$BAD" FSTESTS_GROUPS=udf "FSTESTS_EXCLUDE_TESTS='$others'"
	boot "2c FSTESTS_GROUPS" 1 "$T/res2c"
	agree "2c FSTESTS_GROUPS" "$T/res2c" "$( { echo "generic/002 failure"
		for t in $others; do echo "$t skipped"; done; } | LC_ALL=C sort)"
	check "2c: the others expunged" console_re "^${others%% *} +\[expunged\]"
	diag
fi
if want 2d; then
	# each shard runs its part of ./check -n's list, as the guest hashes
	# the names; merged, the list once
	conf "FSTESTS_SRC=$BAD" "FSTESTS_TESTS='generic/005 generic/002'"
	for i in 1 2; do
		mine=$(for n in "generic/005 pass" "generic/002 failure"; do
			RAPIDO_SHARD=$i/2 bash -c ". '$TOP/autorun/lib/results.sh'
				rapido_test_in_shard ${n% *}" && echo "$n"
		done)
		w=0
		[[ $mine == *failure* ]] && w=1
		vm_args=(--shard "$i/2")
		boot "2d --shard $i/2" $w "$T/res2d.$i"
		vm_args=()
		agree "2d --shard $i/2" "$T/res2d.$i" "$mine"
		check "2d --shard $i/2: the guest said its part" guest_says "$T/console" \
			"fstests: shard $i/2: $(grep -c . <<< "$mine") of 2 tests:"
		diag
	done
	"$VM" --merge-results "$T/res2d" "$T/res2d.1" "$T/res2d.2" > "$T/merge.out" 2>&1
	expect_rc "2d merged: a test failed" 1 $?
	check "2d merged: the list once, generic/002 failed" test "$(reported "$T/res2d")" = \
		"$(printf 'generic/002 failure\ngeneric/005 pass')"
fi

# 1. generic/001 passes
if want 1; then
	conf "FSTESTS_SRC=$X" FSTESTS_TESTS=generic/001
	boot "1 generic/001" 0 "$T/res1"
	agree "1 generic/001" "$T/res1" "generic/001 pass"
	check "1: result.xml written (-R xunit)" grep -q 'name="generic/001"' \
		"$T/res1/files/fstests/result.xml"
	diag
fi

# 4. btrfs/003 on the pool
if want 4; then
	printf 'FSTESTS_SRC=%s\nFSTESTS_TESTS=btrfs/003\n' "$X" > "$RAPIDO_CONF"
	boot "4 btrfs/003" 0 "$T/res4"
	agree "4 btrfs/003" "$T/res4" "btrfs/003 pass"
	diag
fi
done_testing
