#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests.sh: the fstests_local profile as xfstests users run it, with
# FSTESTS_SRC at the fixture tree (tests/fixtures/xfstests, not xfstests,
# but reading the same variables the same way):
#  1. defaults (btrfs, 1G): a pool of five bare scratch disks in
#     SCRATCH_DEV_POOL with SCRATCH_DEV unset, SCSI disks (scsi_debug),
#     raid10 over four of them, a replace onto the spare, a disk
#     dropped and scanned back as btrfs/003 does; LOGWRITES_DEV and a dm-log-writes test
#     that reads the log back; FSTESTS_GROUPS=quick + FSTESTS_TESTS run by
#     the profile, FSTESTS_EXCLUDE_FILE expunges the failing test (CI's
#     "-g quick -E known-failures"); only btrfs of the filesystems loaded.
#  2. xfs, 512M: external log and realtime device in section xfs_external,
#     a user section from FSTESTS_CONFIG, FSTESTS_SECTION picking two of the
#     three, FSTESTS_EXCLUDE_TESTS, FSTESTS_MOUNT_OPTIONS on /mnt/test,
#     FSTESTS_AUTORUN_CMD calling rapido_fstests_check under ./vm --results
#     (each test a SECTION:TEST testcase); a failing test's exit status;
#     only xfs loaded.
#  3. ext4, 512M, no xfstests: /mnt/test mounted, data survives a remount,
#     scratch and log-writes disks bare and of the right size; only ext4.
. "$(dirname "$0")/lib.sh"

FIX=$TOP/tests/fixtures/xfstests
SHARE=$T/share

# Guest side, after the profile (and its check run): KEY=value facts in
# /host/probe.txt; exits with the profile's own status
cat > "$T/probe.sh" <<'EOF'
rc=$?
{
	echo "profile_rc=$rc"
	echo "fstype=$(findmnt -n -o FSTYPE "$TEST_DIR")"
	echo "source=$(findmnt -n -o SOURCE "$TEST_DIR")"
	echo "test_opts=$(findmnt -n -o OPTIONS "$TEST_DIR")"
	echo "test_dev=$TEST_DEV"
	echo "test_bytes=$(blockdev --getsize64 "$TEST_DEV")"
	echo "test_fs_bytes=$(df -B1 --output=size "$TEST_DIR" | tail -n 1 | tr -d ' ')"
	echo "blkid_type=$(blkid -o value -s TYPE "$TEST_DEV")"
	echo "env_scratch=${SCRATCH_DEV-unset}"
	echo "env_pool=${SCRATCH_DEV_POOL-unset}"
	echo "env_logw=${LOGWRITES_DEV-unset}"
	for d in ${SCRATCH_DEV:-} ${SCRATCH_DEV_POOL:-} ${LOGWRITES_DEV:-}; do
		echo "dev $d $(blockdev --getsize64 "$d") [$(blkid -o value -s TYPE "$d")]" \
			"[$(findmnt -n -o TARGET -S "$d" | tr '\n' ' ')]"
	done
	echo "scratch_dir=$([ -d "$SCRATCH_MNT" ] && echo yes || echo no)"
	# the filesystems' modules: loaded, or only in the image
	for m in btrfs xfs ext4; do
		if grep -q "^$m " /proc/modules; then echo "mod_$m=loaded"
		elif modprobe -n -q "$m"; then echo "mod_$m=image"
		else echo "mod_$m=none"; fi
	done
	[ -e /fstests/local.config ] && sed 's/^/config: /' /fstests/local.config
	if [ -e /host/data.bin ]; then
		cp /host/data.bin "$TEST_DIR/data.bin" && sync
		umount "$TEST_DIR" && mount "$TEST_DEV" "$TEST_DIR"
		echo "remounted=$(findmnt -n -o FSTYPE "$TEST_DIR")"
		echo "data_sum=$(sha256sum < "$TEST_DIR/data.bin" | cut -d ' ' -f 1)"
	fi
	echo "cwd=$PWD"
} > /host/probe.txt 2>&1
(exit $rc)
EOF

# the value of KEY in the share's probe.txt
probe() {
	sed -n "s/^$1=//p" "$SHARE/probe.txt"
}

# boot DESC WANT_RC CUT-ARGS...: cut, boot with a fresh share (and the
# ./vm options in the array vm_args), check the exit status; leaves the
# console in $T/console
vm_args=()
boot() {
	local d=$1 want=$2 start rc
	shift 2
	rm -rf "$SHARE"
	mkdir -p "$SHARE"
	cp "$T/data.bin" "$SHARE/"
	start=$(date +%s)
	if ! "$CUT" fstests_local "$@" > "$T/cut.out" 2>&1; then
		not_ok "$d: cut"
		sed 's/^/# /' "$T/cut.out"
		return 1
	fi
	"$VM" --batch --timeout 1500 --share "$SHARE" "${vm_args[@]}" > "$T/console" 2>&1
	rc=$?
	expect_rc "$d: ./vm exits with the last command's status ($(( $(date +%s) - start ))s)" \
		"$want" $rc
	if [ ! -s "$SHARE/probe.txt" ]; then
		not_ok "$d: no probe.txt in the share"
		guest_text "$T/console" | tail -n 30 | sed 's/^/# /'
		return 1
	fi
	sed 's/^/# /' "$SHARE/probe.txt"
	check "$d: kernel console clean" console_clean "$T/console"
	return 0	# the boot's checks go on: a kernel report is one not-ok, not the end of them
}

head -c 3M /dev/urandom > "$T/data.bin"
sum=$(sha256sum < "$T/data.bin" | cut -d ' ' -f 1)


# xml FILE: "failures skipped tests" of a result.xml
xml() {
	sed -n 's/.*<testsuite [^>]*failures="\([0-9]*\)" skipped="\([0-9]*\)" tests="\([0-9]*\)".*/\1 \2 \3/p' "$1"
}

# devs_ok N BYTES POOL: no pool (POOL is "unset"), N "dev" lines, each
# BYTES big, no filesystem, unmounted
devs_ok() {
	[ "$3" = unset ] && [ "$(grep -c '^dev ' "$SHARE/probe.txt")" = "$1" ] &&
		! grep '^dev ' "$SHARE/probe.txt" | grep -v " $2 \[\] \[\]$" | grep -q .
}

# 1. defaults: btrfs, the pool, log-writes, -g quick -E known-failures
printf 'generic/900   # fails on purpose\n' > "$T/known-failures"
printf 'FSTESTS_SRC=%s\nFSTESTS_GROUPS=quick\nFSTESTS_TESTS="btrfs/902 btrfs/903"\nFSTESTS_EXCLUDE_FILE=%s\n' \
	"$FIX" "$T/known-failures" > "$RAPIDO_CONF"
if boot "btrfs defaults" 0 -f "$T/probe.sh"; then
	R=$SHARE/results
	pool=($(probe env_pool))
	check "btrfs: the profile said what it set up" \
		guest_says "$T/console" "fstests: SCRATCH_DEV_POOL=\"${pool[*]}\" (5 x 256M scsi disks, bare; SCRATCH_DEV unset, xfstests takes the first)"
	check "btrfs: the extras see SCRATCH_DEV_POOL with five SCSI disks, SCRATCH_DEV unset" \
		test "$(printf '%s\n' "${pool[@]}" | grep -c '^/dev/sd[a-z]$') $(probe env_scratch)" = "5 unset"
	check "btrfs: local.config has the pool and LOGWRITES_DEV, no SCRATCH_DEV" \
		bash -c "grep -qx 'config: export SCRATCH_DEV_POOL=\"${pool[*]}\"' '$SHARE/probe.txt' &&
			grep -qx 'config: export LOGWRITES_DEV=$(probe env_logw)' '$SHARE/probe.txt' &&
			! grep -q 'config: export SCRATCH_DEV=' '$SHARE/probe.txt' &&
			grep -qx 'config: export MKFS_OPTIONS=\"-K\"' '$SHARE/probe.txt'"
	check "btrfs: the pool disks are 256M each, the log disk 1G" \
		test "$(grep '^dev /dev/sd' "$SHARE/probe.txt" | awk '{print $3}' | sort -u) $(grep "^dev $(probe env_logw) " "$SHARE/probe.txt" | awk '{print $3}')" = "$((256 << 20)) $((1 << 30))"
	check "btrfs: the profile ran check -E (the exclude file) -g quick and the test named" \
		guest_says "$T/console" "fstests: running ./check -E /etc/rapido/fstests.exclude -g quick btrfs/902 btrfs/903"
	check "btrfs: the known failure was expunged" guest_says "$T/console" "generic/900       [expunged]"
	check "btrfs: six tests ran, none failed or was skipped" \
		test "$(xml "$R/result.xml")" = "0 0 6"
	check "btrfs: the fixture's check saw the pool (SCRATCH_DEV its first disk)" \
		bash -c "grep -qx 'pool disks: 5' '$R/btrfs/901.full' &&
			grep -qx 'SCRATCH_DEV=${pool[0]}' '$R/btrfs/901.full'"
	check "btrfs: raid10 over four pool disks passed (btrfs/901)" \
		test -s "$R/btrfs/901.full" -a ! -e "$R/btrfs/901.out.bad" -a ! -e "$R/btrfs/901.notrun"
	check "btrfs: replace onto the spare passed (btrfs/902)" \
		bash -c "grep -q 'spare: ${pool[2]}, replacing ${pool[1]}' '$R/btrfs/902.full' &&
			test ! -e '$R/btrfs/902.out.bad'"
	check "btrfs: a pool disk dropped as failed, replaced, scanned back (btrfs/903)" \
		bash -c "grep -q 'dropping ${pool[2]} ([0-9]*:0:0:0), adding ${pool[3]}' '$R/btrfs/903.full' &&
			test ! -e '$R/btrfs/903.out.bad' -a ! -e '$R/btrfs/903.notrun'"
	check "btrfs: the dm-log-writes test ran and passed (generic/901)" \
		bash -c "grep -q 'LOGWRITES_DEV=$(probe env_logw)' '$R/generic/901.full' &&
			test ! -e '$R/generic/901.out.bad' -a ! -e '$R/generic/901.notrun'"
	check "btrfs: btrfs loaded; xfs and ext4 in the image, not loaded" \
		test "$(probe mod_btrfs) $(probe mod_xfs) $(probe mod_ext4)" = "loaded image image"
	check "btrfs: /mnt/test is btrfs on TEST_DEV, extras ran in /fstests" \
		test "$(probe fstype) $(probe source) $(probe cwd)" = "btrfs /dev/zram0 /fstests"
fi
diag

# 2. xfs: external devices and sections, FSTESTS_AUTORUN_CMD, a failure
printf '# a section of my own\n[xfs_crc]\nMKFS_OPTIONS="-m crc=1"\n' > "$T/user.config"
{
	printf 'FSTESTS_FS=xfs\nFSTESTS_ZRAM_SIZE=512M\nFSTESTS_SRC=%s\n' "$FIX"
	printf 'FSTESTS_SCRATCH_LOGDEV_SIZE=64M\nFSTESTS_SCRATCH_RTDEV_SIZE=128M\n'
	printf 'FSTESTS_LOGWRITES_SIZE=0\nFSTESTS_CONFIG=%s\n' "$T/user.config"
	printf '%s\n' "FSTESTS_SECTION='xfs xfs_external'" FSTESTS_EXCLUDE_TESTS=generic/900
	printf '%s\n' "FSTESTS_MOUNT_OPTIONS='-o noatime'"
	printf '%s\n' "FSTESTS_AUTORUN_CMD='rapido_fstests_check generic/001 generic/900 xfs/901 > /host/autorun.out 2>&1; echo \"autorun status \$?\" >> /host/autorun.out'"
} > "$RAPIDO_CONF"
vm_args=(--results "$T/res")
if boot "xfs sections" 1 -f "$T/probe.sh" -x './check -R xunit -s xfs_crc generic/002 generic/900'; then
	R=$T/res/files/fstests
	sed 's/^/# autorun.out: /' "$SHARE/autorun.out"
	check "xfs: FSTESTS_AUTORUN_CMD's rapido_fstests_check passed" \
		grep -qx "autorun status 0" "$SHARE/autorun.out"
	check "xfs: the profile listed the sections" \
		guest_says "$T/console" "fstests: local.config sections: xfs xfs_external xfs_crc"
	check "xfs: rapido_fstests_check adds the sections and the exclusion" \
		guest_says "$T/console" "fstests: rapido_fstests_check adds: -s xfs -s xfs_external -e generic/900"
	# the extra's plain ./check (no records) failed the run: its status is a
	# testcase of its own, "rapido: exit status 1: ..."
	check "xfs: junit.xml: the run's failure without a failing record is a testcase" \
		grep -q 'name="rapido: exit status 1: ' "$T/res/junit.xml"
	check "xfs: junit.xml: a testcase per section and test" \
		test "$(testcases "$T/res/junit.xml" | grep -v '^rapido: ' | LC_ALL=C sort | tr '\n' ' ')" = \
		"xfs:generic/001 pass xfs:generic/900 skipped xfs:xfs/901 skipped xfs_external:generic/001 pass xfs_external:generic/900 skipped xfs_external:xfs/901 pass "
	check "xfs: the external section gives the log zram's 4096-byte sectors" \
		grep -qx 'config: MKFS_OPTIONS="-K -l sectsize=4096"' "$SHARE/probe.txt"
	check "xfs: local.config: three sections, each with the devices" \
		test "$(grep -c '^config: \[' "$SHARE/probe.txt") $(grep -c '^config: TEST_DEV=/dev/zram0$' "$SHARE/probe.txt")" = "3 3"
	check "xfs: only the sections picked ran" \
		bash -c "grep -q 'SECTION       -- xfs_external' '$SHARE/autorun.out' &&
			grep -q 'SECTION       -- xfs$' '$SHARE/autorun.out' &&
			! grep -q 'SECTION       -- xfs_crc' '$SHARE/autorun.out'"
	check "xfs: generic/900 expunged (-e) in both" \
		test "$(grep -c 'generic/900       \[expunged\]' "$SHARE/autorun.out")" = 2
	check "xfs: section xfs: generic/001 passed, xfs/901 not run (no external log there)" \
		bash -c "test '$(xml "$R/xfs/result.xml")' = '0 1 2' &&
			grep -q 'SCRATCH_LOGDEV' '$R/xfs/xfs/901.notrun'"
	check "xfs: section xfs_external: both passed" test "$(xml "$R/xfs_external/result.xml")" = "0 0 2"
	check "xfs: xfs/901 mounted the scratch fs with the external log and realtime device" \
		bash -c "grep -q 'logdev=/dev/zram2' '$R/xfs_external/xfs/901.full' &&
			grep -q 'rtdev=/dev/zram3' '$R/xfs_external/xfs/901.full'"
	check "xfs: the user section's MKFS_OPTIONS reached check (-s xfs_crc)" \
		grep -q '<property name="MKFS_OPTIONS" value="-m crc=1"/>' "$R/xfs_crc/result.xml"
	check "xfs: the failing test's mismatch is reported, exit 1 above" \
		guest_says "$T/console" "- output mismatch (see /results/fstests/xfs_crc/generic/900.out.bad)"
	check "xfs: no pool, SCRATCH_DEV set, LOGWRITES_DEV unset (size 0)" \
		test "$(probe env_pool) $(probe env_scratch) $(probe env_logw)" = "unset /dev/zram1 unset"
	check "xfs: /mnt/test is xfs, mounted noatime (FSTESTS_MOUNT_OPTIONS)" \
		bash -c "test '$(probe fstype)' = xfs && [[ ',$(probe test_opts),' == *,noatime,* ]]"
	check "xfs: xfs loaded; btrfs and ext4 in the image, not loaded" \
		test "$(probe mod_btrfs) $(probe mod_xfs) $(probe mod_ext4)" = "image loaded image"
fi
vm_args=()
diag

# 3. ext4, 512M, no xfstests: disks bare, data survives a remount, exit 3
printf 'FSTESTS_FS=ext4\nFSTESTS_ZRAM_SIZE=512M\n' > "$RAPIDO_CONF"
if boot "ext4" 3 -f "$T/probe.sh" -x 'echo ext4-ran > /host/ext4.txt; exit 3'; then
	check "ext4: says xfstests is not included" \
		guest_says "$T/console" "fstests: xfstests not included (FSTESTS_SRC unset)"
	check "ext4: /mnt/test is ext4 on TEST_DEV, 512M" \
		test "$(probe fstype) $(probe blkid_type) $(probe source) $(probe test_bytes)" = \
		"ext4 ext4 $(probe test_dev) $((512 << 20))"
	fsb=$(probe test_fs_bytes)
	check "ext4: df size of /mnt/test ($fsb) within the device's" \
		test "${fsb:-0}" -gt $((256 << 20)) -a "${fsb:-0}" -le $((512 << 20))
	check "ext4: data written to /mnt/test reads back the same after a remount" \
		test "$(probe remounted) $(probe data_sum)" = "ext4 $sum"
	check "ext4: no pool; SCRATCH_DEV and LOGWRITES_DEV 512M each, bare, unmounted" \
		devs_ok 2 $((512 << 20)) "$(probe env_pool)"
	check "ext4: scratch and log-writes disks differ from the test disk" \
		test -n "$(probe env_scratch)" -a "$(probe env_scratch)" != "$(probe test_dev)" -a \
		"$(probe env_logw)" != "$(probe env_scratch)"
	check "ext4: /mnt/scratch exists" test "$(probe scratch_dir)" = yes
	check "ext4: ext4 loaded; btrfs and xfs in the image, not loaded" \
		test "$(probe mod_btrfs) $(probe mod_xfs) $(probe mod_ext4)" = "image image loaded"
	check "ext4: the command's output is in the share" grep -qx ext4-ran "$SHARE/ext4.txt"
fi
diag

done_testing
