#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ceph-fstests-real.sh: fstests_cephfs with the real xfstests (tests/suite-tree
# xfstests, built once and cached) on a real local cluster (./ceph-local in
# a network namespace made here), through both ways the profile starts
# ./check, comparing what the guest printed with what ./vm reported (exit
# status, junit.xml). One VM at a time:
#  1. generic/001 passes (FSTESTS_TESTS) on the real tree: it starts on
#     FSTYP=ceph (common/config finds mkfs, common/rc finds TEST_DEV
#     mounted), exit 0, one passing testcase.
#  2. A failing variant of the tree (a hardlinked copy made here with
#     generic/002's golden output replaced: "output mismatch"), run by
#     a. FSTESTS_AUTORUN_CMD='./check generic/002'
#     b. FSTESTS_TESTS=generic/002
#     each: exit 1, generic/002 a failure in junit.xml, as on the console.
#  3. ./check that cannot start: FSTESTS_AUTORUN_CMD removes mkfs from
#     the guest first, so common/config stops with "mkfs not found" as it
#     did when the image had none; ./vm does not exit 0.
# A test of its own, not part of ceph.sh: a boot test has one timeout
# (tests/run's BOOT_TIMEOUT), and generic/001 alone takes minutes under
# TCG. The cluster may be the run's shared one (lib-ceph.inc): the VM's
# directories are /rapido-fstests/rapidoN, N its VM number. generic/001
# is five rounds of some 450 short-lived programs (cp, rm, cmp), each a
# fork and exec, which TCG makes slow (CephFS is not what costs: cp takes
# as long on tmpfs). Where this was written (2 cores, load 20-35) a
# program took 0.25-0.45s, a round 5.5 minutes; at load 7 generic/001
# passed in 603 s, and the others took 1-4 minutes a boot. The failing
# cases use generic/002, a quick one. Wall times are printed with each
# boot. ONLY="1 2a ..." runs some.
# tests/run timeout: 1800s
# tests/run uses: ceph-cluster
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-ceph.inc"

# X, the real xfstests; BAD, its failing variant (generic/002's golden output replaced)
xfstests_and_failing

# -- the cluster ----------------------------------------------------------------
cluster_up

want() { case " ${ONLY:-1 2a 2b 3} " in *" $1 "*) return 0 ;; esac; return 1; }

# fstests NAME WANT DESC KEY=VALUE...: cut fstests_cephfs with the keys in
# rapido.conf, boot it with ./vm --results $T/NAME.res, expect exit WANT
boot_timeout=1500
fstests() {
	local name=$1 want=$2 desc=$3 s

	shift 3
	printf '%s\n' "$@" > "$RAPIDO_CONF"
	s=$SECONDS
	if ! "$CUT" fstests_cephfs -o "$T/$name.img" > "$T/out" 2>&1; then
		not_ok "$desc: cut"
		sed 's/^/# /' "$T/out"
		return 1
	fi
	echo "# cut $name: $((SECONDS - s))s"
	boot "$name" "$T/$name.img" --net tap --results "$T/$name.res"
	wait
	booted "$name" "$want" "$desc"
	check "  console clean" console_clean "$T/$name"
	return 0	# the boot's checks go on: a kernel report is one not-ok, not the end of them
}
# vm_number NAME: the VM number the boot NAME took (./vm --results says
# "vmN: results: ..."), as the guest's hostname rapidoN has it
vm_number() {
	sed -n 's/^vm\([0-9][0-9]*\): results: .*/\1/p' "$T/$1" | head -n 1
}
# junit_is NAME WANT: the testcases of NAME's junit.xml are WANT ("NAME STATE" lines)
junit_is() {
	local got

	got=$(testcases "$T/$1.res/junit.xml" 2> /dev/null)
	[ "$got" = "$2" ] || { echo "# junit.xml has: ${got:-nothing}"; return 1; }
}

section "2a: a failing test through FSTESTS_AUTORUN_CMD"
want 2a && fstests autorun-fail 1 "FSTESTS_AUTORUN_CMD='./check generic/002' on the failing variant" \
	"FSTESTS_SRC=$BAD" 'FSTESTS_AUTORUN_CMD="./check generic/002"' &&
	{
		check "  check says output mismatch" guest_says "$T/autorun-fail" \
			"- output mismatch (see /results/fstests/generic/002.out.bad)"
		check "  and Failed 1 of 1" guest_says "$T/autorun-fail" "Failed 1 of 1 tests"
		check "  junit.xml: generic/002 failed" junit_is autorun-fail "generic/002 failure"
	}

section "2b: a failing test through FSTESTS_TESTS"
want 2b && fstests tests-fail 1 "FSTESTS_TESTS=generic/002 on the failing variant" \
	"FSTESTS_SRC=$BAD" FSTESTS_TESTS=generic/002 &&
	{
		check "  check says output mismatch" guest_says "$T/tests-fail" \
			"- output mismatch (see /results/fstests/generic/002.out.bad)"
		check "  junit.xml: generic/002 failed" junit_is tests-fail "generic/002 failure"
	}

section "3: ./check cannot start"
want 3 && fstests nostart 1 "FSTESTS_AUTORUN_CMD: ./check finds no mkfs" "FSTESTS_SRC=$X" \
	'FSTESTS_AUTORUN_CMD="rm -f /usr/sbin/mkfs /sbin/mkfs; ./check generic/001"' &&
	check "  check said so" guest_says "$T/nostart" "mkfs not found"

# a real test passing on the cluster
passes() {
	local case=$1 t=$2
	section "$case: $t passes"
	fstests "pass-$case" 0 "FSTESTS_TESTS=$t passes" "FSTESTS_SRC=$X" FSTESTS_TESTS=$t &&
		{
			check "  TEST_DEV is this VM's CephFS directory" guest_says "$T/pass-$case" \
				"fstests: ceph TEST_DEV=192.168.155.1:6789:/rapido-fstests/rapido$(vm_number "pass-$case")/test mounted at /mnt/test"
			check "  ./check runs on FSTYP=ceph" guest_says "$T/pass-$case" "FSTYP         -- ceph"
			check "  and passes it" guest_says "$T/pass-$case" "Passed all 1 tests"
			check "  junit.xml: $t passed" junit_is "pass-$case" "$t pass"
		}
}
want 1 && passes 1 generic/001

cluster_down
echo "# all done after $((SECONDS - start))s"
done_testing
