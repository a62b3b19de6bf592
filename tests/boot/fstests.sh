#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests.sh: the fstests_local profile with its defaults (btrfs, 1G zram
# disks) and on xfs and ext4 with 512M disks: /mnt/test mounted with the
# right type and size, data written through it survives a remount, the
# scratch disk is bare, unmounted and of the right size, output reaches the
# --share directory, ./vm exits with the last command's status; and with
# FSTESTS_SRC at the fixture tree (tests/fixtures/xfstests, not xfstests)
# ./check runs in /fstests, its results land on the host and a failing
# test gives a non-zero exit.
. "$(dirname "$0")/lib.sh"

FIX=$TOP/tests/fixtures/xfstests
SHARE=$T/share

# Guest side: facts about the two disks, as KEY=value lines in /host/probe.txt.
cat > "$T/probe.sh" <<'EOF'
{
	echo "fstype=$(findmnt -n -o FSTYPE "$TEST_DIR")"
	echo "source=$(findmnt -n -o SOURCE "$TEST_DIR")"
	echo "test_dev=$TEST_DEV"
	echo "test_bytes=$(blockdev --getsize64 "$TEST_DEV")"
	echo "test_fs_bytes=$(df -B1 --output=size "$TEST_DIR" | tail -n 1 | tr -d ' ')"
	echo "blkid_type=$(blkid -o value -s TYPE "$TEST_DEV")"
	echo "scratch_dev=$SCRATCH_DEV"
	echo "scratch_bytes=$(blockdev --getsize64 "$SCRATCH_DEV")"
	echo "scratch_mounts=$(findmnt -n -o TARGET -S "$SCRATCH_DEV" | tr '\n' ' ')"
	echo "scratch_blkid=$(blkid -o value -s TYPE "$SCRATCH_DEV")"
	echo "scratch_dir=$([ -d "$SCRATCH_MNT" ] && echo yes || echo no)"
	cp /host/data.bin "$TEST_DIR/data.bin" && sync
	umount "$TEST_DIR" && mount "$TEST_DEV" "$TEST_DIR"
	echo "remounted=$(findmnt -n -o FSTYPE "$TEST_DIR")"
	echo "data_sum=$(sha256sum < "$TEST_DIR/data.bin" | cut -d ' ' -f 1)"
	echo "cwd=$PWD"
} > /host/probe.txt 2>&1
EOF

# the value of KEY in the share's probe.txt
probe() {
	sed -n "s/^$1=//p" "$SHARE/probe.txt"
}

# boot_fs DESC FS BYTES WANT_RC CUT-ARGS...: cut, boot with a fresh share,
# check the probe's findings and the exit status
boot_fs() {
	local d=$1 fs=$2 bytes=$3 want=$4 start fsb rc
	shift 4
	rm -rf "$SHARE"
	mkdir -p "$SHARE"
	head -c 3M /dev/urandom > "$SHARE/data.bin"
	start=$(date +%s)
	if ! "$CUT" fstests_local -f "$T/probe.sh" "$@" > "$T/cut.out" 2>&1; then
		not_ok "$d: cut"
		sed 's/^/# /' "$T/cut.out"
		return
	fi
	"$VM" --batch --timeout 400 --share "$SHARE" > "$T/console" 2>&1
	rc=$?
	expect_rc "$d: ./vm exits with the last command's status ($(( $(date +%s) - start ))s)" \
		"$want" $rc
	if [ ! -s "$SHARE/probe.txt" ]; then
		not_ok "$d: no probe.txt in the share"
		grep -v '^\[' "$T/console" | tail -n 20 | sed 's/^/# /'
		return
	fi
	sed 's/^/# /' "$SHARE/probe.txt"
	check "$d: /mnt/test is $fs on \$TEST_DEV" \
		test "$(probe fstype) $(probe blkid_type) $(probe source)" = "$fs $fs $(probe test_dev)"
	check "$d: test device is $bytes bytes" test "$(probe test_bytes)" = "$bytes"
	fsb=$(probe test_fs_bytes)
	check "$d: df size of /mnt/test ($fsb) within the device's" \
		test "${fsb:-0}" -gt $((bytes / 2)) -a "${fsb:-0}" -le "$bytes"
	check "$d: data written to /mnt/test reads back the same after a remount" \
		test "$(probe remounted) $(probe data_sum)" = \
		"$fs $(sha256sum < "$SHARE/data.bin" | cut -d ' ' -f 1)"
	check "$d: scratch device differs from the test device" \
		test -n "$(probe scratch_dev)" -a "$(probe scratch_dev)" != "$(probe test_dev)"
	check "$d: scratch device is $bytes bytes" test "$(probe scratch_bytes)" = "$bytes"
	check "$d: scratch device unmounted, no filesystem, /mnt/scratch exists" \
		test "[$(probe scratch_mounts)][$(probe scratch_blkid)]$(probe scratch_dir)" = "[][]yes"
	check "$d: kernel console clean" console_clean "$T/console"
}

# 1. defaults (btrfs, 1G disks) with FSTESTS_SRC from rapido.conf: ./check
# runs in /fstests and its results land in the share
printf 'FSTESTS_SRC=%s\n' "$FIX" > "$RAPIDO_CONF"
boot_fs "defaults (btrfs 1G) + fixture" btrfs $((1 << 30)) 0 -x './check generic/001 generic/002'
check "defaults: the profile printed what it set up" \
	guest_says "$T/console" "fstests: btrfs on TEST_DEV=/dev/zram0 (1G) mounted at /mnt/test; SCRATCH_DEV=/dev/zram1 (1G) unmounted"
check "btrfs: extras ran in /fstests" test "$(probe cwd)" = /fstests
check "btrfs: local.config written as the profile says" \
	guest_says "$T/console" "fstests: xfstests from $FIX at /fstests, config /fstests/local.config, results in /host/results"
check "btrfs: check passed both fixture tests" guest_says "$T/console" "Passed all 2 tests"
check "btrfs: result.xml in the share, 2 tests, no failures" \
	grep -q 'failures="0" skipped="0" tests="2"' "$SHARE/results/result.xml"
check "btrfs: per-test results in the share" test -s "$SHARE/results/generic/002.full"
check "btrfs: the guest's local.config did not touch the fixture tree" \
	test ! -e "$FIX/local.config" -a ! -e "$FIX/results"
diag

# 2. xfs, 512M from the environment: FSTESTS_AUTORUN_CMD passes, then a failing test
: > "$RAPIDO_CONF"
FSTESTS_FS=xfs FSTESTS_ZRAM_SIZE=512M FSTESTS_SRC=$FIX \
FSTESTS_AUTORUN_CMD='./check generic/001 > /host/autorun.out; echo "autorun status $?" >> /host/autorun.out' \
	boot_fs "xfs 512M + failing fixture test" xfs $((512 << 20)) 1 \
	-x './check generic/002 > /host/002.out; echo "002 status $?" >> /host/002.out' \
	-x './check generic/900'
check "xfs: FSTESTS_AUTORUN_CMD ran generic/001 and it passed" \
	grep -q "autorun status 0" "$SHARE/autorun.out"
check "xfs: generic/002 (mkfs.xfs, mount the scratch disk) passed" \
	grep -q "002 status 0" "$SHARE/002.out"
check "xfs: the failing test's output mismatch is reported" \
	guest_says "$T/console" "- output mismatch (see /host/results/generic/900.out.bad)"
check "xfs: result.xml records the failure" \
	grep -q 'failures="1" skipped="0" tests="1"' "$SHARE/results/result.xml"
check "xfs: 900.out.bad in the share" test -s "$SHARE/results/generic/900.out.bad"
diag

# 3. ext4, 512M from rapido.conf, no xfstests: still mounted, plain message, exit 3
printf 'FSTESTS_FS=ext4\nFSTESTS_ZRAM_SIZE=512M\n' > "$RAPIDO_CONF"
boot_fs "ext4 512M" ext4 $((512 << 20)) 3 -x 'echo ext4-ran > /host/ext4.txt; exit 3'
check "ext4: says xfstests is not included" \
	guest_says "$T/console" "fstests: xfstests not included (FSTESTS_SRC unset)"
check "ext4: command output in the share" grep -qx ext4-ran "$SHARE/ext4.txt"
diag

done_testing
