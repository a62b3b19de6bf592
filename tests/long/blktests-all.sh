#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# blktests-all.sh (long): every test of the real blktests' block, loop, scsi
# and zbd groups (tests/suite-tree blktests) on the devices the guest can
# make, in two boots: block, loop and scsi on a zram and a brd disk, zbd on
# a zoned null_blk (the block group's own null_blk tests unload null_blk,
# and a null_blk TEST_DEV with it, for the rest of that group). No test
# fails, or is skipped, for a program or module the image lacks; the tests
# that fail on Debian's 6.1 under TCG are the known failures below, each
# with its cause, so ./vm exits 0. What is skipped stays skipped for the
# devices (no PCI device behind zram or brd: setpci; no hybrid polling),
# the kernel's configuration (null_blk without fault injection) or the
# programs tests/unit/blktests-programs.sh says the image leaves out.
# tests/boot/blktests-real.sh runs a few of these in the boot tier (block/001,
# block/009, loop/004: scsi_debug disks of their own, hexdump, sha256sum).
# blktests' TIMEOUT bounds each fio test (block/010 reads 8 GiB from each
# of 32 null_blk disks, twice: without TIMEOUT, at TCG's 20000 IOPS, hours;
# the run never ended), as blktests' README says to for a quick run.
# Far longer than 4 minutes under TCG (22 minutes on two loaded cores:
# block, loop and scsi 18, zbd 3; 31 under a load average of 20), so not
# in CI.
# tests/run timeout: 5400s
. "$(dirname "$0")/../boot/lib.sh"

installed_kernel_or_skip
suite_tree blktests

# What fails on Debian's 6.1 (6.1.0-57) under TCG with the profile's two
# CPUs, and why: the kernel's, the emulator's or the guest's verdicts, not
# the profile's (a run of block, loop and scsi took 29 minutes).
# - scsi/004 reads /proc/scsi/scsi_debug/HOST: Debian's kernel has no
#   CONFIG_SCSI_PROC_FS.
# - block/017 reads the inflight counters while null_blk holds the I/O for
#   a timer; under TCG the timer has expired before the read ("sysfs
#   inflight reads 0", not 1). It passes now and then: flaky, not fixed.
# - block/024 does I/O "faster than a jiffy" and checks iostats' times;
#   TCG's I/O is slower than a jiffy.
# - loop/003 expects its loop device set-up to take "0 seconds"; under
#   TCG it takes 1.
# - block/038 sets null_blk's submit_queues to 4, which null_blk refuses
#   (EINVAL) above nr_cpu_ids: the guest has 2 CPUs (#@ cpus: 2).
# - scsi/007 expects a read to fail once the queue's io_timeout (1 jiffy)
#   is below scsi_debug's delay; on 6.1 under TCG the read succeeds (the
#   command completes before the timer is handled; the cause is not
#   proven further).
cat > "$T/known" <<'EOF'
nodev/scsi/004 6.1.* # CONFIG_SCSI_PROC_FS is not set: the test reads /proc/scsi/scsi_debug
nodev/block/017 6.1.* # TCG: null_blk's timer expires before the inflight counters are read
nodev/block/024 6.1.* # TCG: the I/O is slower than the jiffy the test expects
nodev/loop/003 6.1.* # TCG: the loop set-up takes 1 second, the test expects 0
nodev/block/038 6.1.* # 2 CPUs: null_blk refuses submit_queues=4 above nr_cpu_ids
nodev/scsi/007 6.1.* # TCG: the read completes before the 1-jiffy io_timeout fails it
EOF
# what may be missing: the programs blktests-programs.sh lets the image go
# without, and modules of tests of another kind (dm-crypt: zbd/011 with
# cryptsetup; f2fs: zbd/010 with mkfs.f2fs; ublk_drv: Debian's 6.1 has no
# CONFIG_BLK_DEV_UBLK); blktests names a driver as the kernel does,
# dm_crypt
absent='(setpci|cryptsetup|mkfs\.f2fs|mkfs\.vfat|systemctl|tlshd)'
absent_mod='(dm[-_]crypt|f2fs|ublk_drv)'

# each fio test (blktests' TIMED ones: block/010, the zbd fio tests...)
# runs for at most this many seconds
echo 'TIMEOUT=30' > "$T/blktests.config"

# boot GROUPS DEVS: one boot of GROUPS on DEVS, results in $T/res-DEVS
boot() {
	local res=$T/res-${2// /-} start n
	printf 'BLKTESTS_SRC=%s\nBLKTESTS_DEVS="%s"\nBLKTESTS_TESTS="%s"\nBLKTESTS_CONFIG=%s\n' \
		"$SUITE" "$2" "$1" "$T/blktests.config" > "$RAPIDO_CONF"
	start=$(date +%s)
	"$CUT" blktests > "$T/cut.out" 2>&1
	rc=$?	# (the $(...) below sets $? too)
	expect_rc "cut blktests ($(( $(date +%s) - start ))s)" 0 $rc || sed 's/^/# /' "$T/cut.out"
	start=$(date +%s)
	"$VM" --batch --timeout 4800 --results "$res" --known-failures "$T/known" \
		> "$T/console" 2> "$T/err"
	rc=$?	# (the $(...) below sets $? too)
	expect_rc "$1 on $2: only the known failures failed ($(( $(date +%s) - start ))s)" 0 $rc
	testcases "$res/junit.xml" > "$T/got"
	# every kind counted: a failed test is no "missing" one
	n="$(grep -c ' pass$' "$T/got") passed, $(grep -c ' failure$' "$T/got") failed"
	n+=", $(grep -c ' error$' "$T/got") errors, $(grep -c ' skipped$' "$T/got") skipped"
	check "  ($n)" test -s "$T/got"
	check "  no test ran a command the image lacks" \
		sh -c '! grep -aq "command not found" "$0"' "$T/console"
	check "  no test skipped for a program the image lacks" sh -c '! grep -aE \
		"^ +command [^ ]+ is not available" "$0" | grep -vqE "command $1 is"' \
		"$T/console" "$absent"
	check "  no test skipped for a module the image lacks" sh -c '! grep -aE \
		"^ +(driver|module) [^ ]+ is not available" "$0" | grep -vqE "(driver|module) $1 is"' \
		"$T/console" "$absent_mod"
	[ "$fails" = 0 ] || grep -E ' (failure|error)$' "$T/got" | sed 's/^/# failed: /'
}

boot "block loop scsi" "zram brd"
# the tests issue 43 found failing for sd_mod, hexdump and sha256sum (of
# them, scsi/004 and scsi/007 are known failures above; scsi/008 and
# scsi/009 skip: fio older than 3.37, xfs_io without statx atomic writes),
# and block/035 (echo), loop/007 (ext4), block/027 and block/037 (cgroup2)
# that this test found
for t in block/001 block/002 block/009 block/025 block/027 block/028 block/032 block/037 \
	block/035 loop/004 loop/007 scsi/005; do
	check "$t passed" grep -qE "^[^ ]*/$t pass$" "$T/got"
done
boot zbd null_blk_zoned
for t in zbd/008 zbd/009 zbd/012; do
	check "$t passed" grep -qE "^[^ ]*/$t pass$" "$T/got"
done
check "kernel console clean" console_clean "$T/console"
done_testing
