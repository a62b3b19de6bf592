#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# blktests-real.sh: the blktests profile with the real blktests
# (tests/suite-tree blktests, built once and cached), and btrfs on zoned
# null_blk disks through fstests_local's FSTESTS_ZONED. Two boots:
#  1. blktests from a copy of the tree in which block/023's golden output
#     is broken, TEST_DEVS a zoned null_blk (BLKTESTS_DEVS), BLKTESTS_TESTS
#     block/021 block/023 zbd/001, nvme/006 and nvme/008 (nvmet-tcp on
#     loopback, each on a device and a file), loop/001, block/001,
#     block/009 and loop/004 (scsi_debug disks of their own: sd_mod;
#     hexdump, sha256sum; tests/long/blktests-all.sh runs every test of
#     block, loop, scsi and zbd), scsi/004 (a known
#     failure, --known-failures, on a kernel without CONFIG_SCSI_PROC_FS:
#     Debian's 6.1 and 6.12; a pass on one with it) and the meta group (blktests' tests of
#     its own harness: passes, failures by exit status and by output,
#     skips with reasons, tests under conditions) less the three that
#     write fake oopses to the kernel log and three slow ones
#     (BLKTESTS_EXCLUDE) and eight more (EXCLUDE=() of a BLKTESTS_CONFIG
#     file), and a meta/099 of the copy that ./check runs and prints
#     nothing for: ./vm exits
#     1, block/023 and meta's failing tests are failures of junit.xml,
#     meta/099 an error ("selected and no result reported"),
#     block/021 and zbd/001 (on the zoned null_blk, made again after the
#     block tests unloaded null_blk) pass; every verdict ./check printed
#     is the one junit.xml holds, named DEV/GROUP/NNN as in its results
#     tree, which is in DIR/files/blktests.
#  2. fstests_local, FSTESTS_ZONED=null_blk, no xfstests: btrfs on a zoned
#     null_blk mounted at /mnt/test; a file written there survives an
#     unmount and mount byte for byte, and the disk reports written zones.
#  3. zoned_local: btrfs and zonefs on a zoned null_blk and on a zoned
#     scsi_debug disk, four passing testcases.
# Also (no boot): a bad BLKTESTS_DEVS word is refused by ./cut.
# tests/run timeout: 900s
. "$(dirname "$0")/lib.sh"

installed_kernel_or_skip
suite_tree blktests
BAD=$T/blktests-bad
tree_copy "$SUITE" "$BAD" && rm "$BAD/tests/block/023.out" &&
	printf 'Running block/023\nTest complete, or not\n' > "$BAD/tests/block/023.out" || exit 1
# and a test ./check picks and prints nothing for (its subshell ends in
# requires, status 0, as a test check drops without a verdict would)
printf '. tests/meta/rc\nDESCRIPTION="leave no verdict"\nrequires() { exit 0; }\ntest() { :; }\n' \
	> "$BAD/tests/meta/099" || exit 1

printf 'BLKTESTS_SRC=%s\nBLKTESTS_DEVS="null_blk_zoned bogus"\n' "$BAD" > "$RAPIDO_CONF"
run_err "a bad BLKTESTS_DEVS word is refused before a boot" \
	"BLKTESTS_DEVS: expected each word to be zram, null_blk, null_blk_zoned, scsi_debug, scsi_debug_zoned, brd or loop, got 'bogus'" \
	"$CUT" blktests

# 1. blktests
cat > "$RAPIDO_CONF" <<EOF
BLKTESTS_SRC=$BAD
BLKTESTS_DEVS=null_blk_zoned
BLKTESTS_TESTS="block/001 block/009 block/021 block/023 meta zbd/001 nvme/006 nvme/008 loop/001 loop/004 scsi/004"
BLKTESTS_EXCLUDE="meta/009 meta/010 meta/011 meta/016 meta/017 meta/019"
BLKTESTS_CONFIG=$T/blktests.config
EOF
# a config as blktests users write one (each meta test costs seconds under TCG)
cat > "$T/blktests.config" <<'EOF'
EXCLUDE=(meta/002 meta/004 meta/006 meta/008 meta/012 meta/013 meta/014 meta/015)
EOF
start=$(date +%s)
"$CUT" blktests > "$T/cut.out" 2>&1
rc=$?	# (the $(...) below sets $? too)
expect_rc "cut blktests ($(( $(date +%s) - start ))s)" 0 $rc || sed 's/^/# /' "$T/cut.out"
# scsi/004 reads /proc/scsi/scsi_debug/HOST, which a kernel without
# CONFIG_SCSI_PROC_FS (Debian's 6.1 and 6.12) has not: it fails there, for
# the kernel's config, a known failure of the real suite on the kernel
# booted ($rel, whatever its version); with the option it must pass
if grep -qx '# CONFIG_SCSI_PROC_FS is not set' "/boot/config-$rel"; then
	scsi004=skipped
	printf 'nodev/scsi/004 %s # CONFIG_SCSI_PROC_FS is not set: the test reads /proc/scsi/scsi_debug\n' \
		"$rel" > "$T/known"
else
	scsi004=pass
	: > "$T/known"
fi
start=$(date +%s)
"$VM" --batch --timeout 700 --results "$T/res" --known-failures "$T/known" > "$T/console" 2> "$T/err"
rc=$?
expect_rc "a failing blktests test is ./vm's exit status ($(( $(date +%s) - start ))s)" 1 $rc
testcases "$T/res/junit.xml" | LC_ALL=C sort > "$T/got"
# has NAME STATE: junit.xml has testcase NAME in STATE
has() { grep -qxF "$1 $2" "$T/got"; }
check "block/023 (golden output broken) failed" has nodev/block/023 failure
check "block/021 passed" has nodev/block/021 pass
check "nvme/006 and nvme/008 passed over nvmet-tcp on loopback, on a device and on a file" \
	sh -c 'for t in 006 008; do for b in device file; do
		grep -qxF "nodev_tr_tcp_bd_$b/nvme/$t pass" "$0" || exit 1; done; done' "$T/got"
check "loop/001 passed" has nodev/loop/001 pass
# issue 43 #8: tests that make their own scsi_debug disk need sd_mod
# loaded (no udev here), block/009 hexdump, loop/004 sha256sum
check "block/001 (scsi_debug disks hotplugged: sd_mod, sr_mod) passed" has nodev/block/001 pass
check "block/009 (scsi_debug, hexdump) passed" has nodev/block/009 pass
check "loop/004 (scsi_debug, sha256sum) passed" has nodev/loop/004 pass
check "no test ran a command the image lacks" sh -c '! grep -aq "command not found" "$0"' "$T/console"
if [ $scsi004 = skipped ]; then
	check "scsi/004 is $rel's known failure (skipped, its reason said)" has nodev/scsi/004 skipped
	check "  its reason in junit.xml" grep -qF 'known failure: CONFIG_SCSI_PROC_FS is not set' "$T/res/junit.xml"
else
	check "scsi/004 passed (CONFIG_SCSI_PROC_FS is set in $rel)" has nodev/scsi/004 pass
fi
check "zbd/001 passed on the zoned null_blk, made again after block/ unloaded null_blk" \
	grep -qxE 'rznullb[1-9][0-9]*/zbd/001 pass' "$T/got"
check "meta/003 (non-zero exit) failed, meta/005 (bad output) failed" \
	sh -c 'grep -qxF "nodev/meta/003 failure" "$0" && grep -qxF "nodev/meta/005 failure" "$0"' "$T/got"
check "meta/001 passed, meta/007 (skip in requires) skipped" \
	sh -c 'grep -qxF "nodev/meta/001 pass" "$0" && grep -qxF "nodev/meta/007 skipped" "$0"' "$T/got"
check "a test under conditions is named by its results directory (meta/018)" \
	grep -qE '^nodev_x_[0-9]+_y_[0-9]+/meta/018 pass$' "$T/got"
check "BLKTESTS_EXCLUDE's meta/009 010 011 016 017 019 did not run" \
	sh -c '! grep -qE "/meta/0(09|1[01679]) " "$0"' "$T/got"
check "BLKTESTS_CONFIG's EXCLUDE=(meta/002 ...) did not run" \
	sh -c '! grep -qE "/meta/0(0[2468]|1[2345]) " "$0"' "$T/got"
check "meta/099, picked and given no verdict by ./check, is an error" has meta/099 error
check "meta/007's skip reason is in junit.xml" grep -qF '(╯°□°)╯︵ ┻━┻' "$T/res/junit.xml"
check "block/023's .out.bad is in its failure" grep -qF 'Test complete, or not' "$T/res/junit.xml"
check "the results tree is in DIR/files/blktests" test -f "$T/res/files/blktests/nodev/block/021"
# printed: "NAME STATE" for each verdict line ./check printed, named as the
# profile names them (DEV/GROUP/NNN, DEV_COND with blanks and = as _;
# DEV/GROUP for "GROUP/*** => DEV [not run]", a group DEV cannot serve)
printed() {
	guest_text "$T/console" | perl -CSD -ne '
		next unless m{^([a-z0-9_-]+/(?:\d{3}|\*\*\*))(?: => (\S+))?\s+(?:\(([^()]*)\) \()?.*\[(passed|failed|not run)\]\s*$};
		my ($t, $d, $c, $s) = ($1, $2 // "nodev", $3, $4);
		$t =~ s{/\*\*\*$}{};	# a group not run on DEV: DEV/GROUP
		if (defined $c) { $c =~ s/[ =]/_/g; $d .= "_$c" }
		print "$d/$t ", {"passed" => "pass", "failed" => "failure", "not run" => "skipped"}->{$s}, "\n"' |
		LC_ALL=C sort
}
# (scsi/004, failed as ./check says, is junit.xml's known failure)
# (meta/099 printed nothing: the profile's error)
{ printed; echo "meta/099 error"; } | sed "s|^nodev/scsi/004 failure\$|nodev/scsi/004 $scsi004|" |
	LC_ALL=C sort > "$T/printed"
check "junit.xml holds every verdict ./check printed, and no other ($(wc -l < "$T/printed") tests)" \
	same_file "$T/printed" "$T/got"
check "kernel console clean" console_clean "$T/console"
[ $rc = 1 ] || guest_text "$T/console" | tail -n 40 | sed 's/^/# /'

# 2. btrfs on a zoned null_blk (fstests_local, FSTESTS_ZONED)
printf 'FSTESTS_FS=btrfs\nFSTESTS_ZONED=null_blk\nFSTESTS_ZRAM_SIZE=512M\nFSTESTS_SCRATCH_POOL=0\n' \
	> "$RAPIDO_CONF"
cat > "$T/roundtrip.sh" <<'EOF'
dd if=/dev/urandom of=/tmp/data bs=1M count=8 status=none &&
	cp /tmp/data /mnt/test/file && sync && umount /mnt/test &&
	mount -t btrfs "$TEST_DEV" /mnt/test || rapido_fail "zoned-roundtrip: write, remount"
[ "$(sha256sum < /tmp/data)" = "$(sha256sum < /mnt/test/file)" ] ||
	rapido_fail "zoned-roundtrip: the file changed"
echo "zoned-roundtrip: $(< "/sys/block/${TEST_DEV##*/}/queue/zoned") $TEST_DEV: 8 MiB read back"
wp=$(blkzone report "$TEST_DEV" | grep -c 'wptr 0x0*[1-9a-f]')
echo "zoned-roundtrip: $wp zones written"
EOF
start=$(date +%s)
"$CUT" fstests_local -f "$T/roundtrip.sh" > "$T/cut.out" 2>&1
rc=$?	# (the $(...) below sets $? too)
expect_rc "cut fstests_local FSTESTS_ZONED=null_blk ($(( $(date +%s) - start ))s)" 0 $rc ||
	sed 's/^/# /' "$T/cut.out"
start=$(date +%s)
"$VM" --batch --timeout 600 > "$T/console" 2>&1
rc=$?
expect_rc "btrfs on a zoned null_blk ($(( $(date +%s) - start ))s)" 0 $rc
check "TEST_DEV is a zoned null_blk with btrfs" \
	guest_says "$T/console" "fstests: zoned null_blk disks, 16M zones: host-managed on TEST_DEV"
check "a file round-trips through an unmount" \
	guest_says "$T/console" "zoned-roundtrip: host-managed /dev/rznullb0: 8 MiB read back"
says_re() { guest_text "$T/console" | grep -qE -- "$1"; }
check "btrfs wrote zones" says_re 'zoned-roundtrip: [1-9][0-9]* zones written'
check "kernel console clean" console_clean "$T/console"
[ $rc = 0 ] || guest_text "$T/console" | tail -n 40 | sed 's/^/# /'

# 3. zoned_local: btrfs and zonefs on a zoned null_blk and a zoned scsi_debug disk
: > "$RAPIDO_CONF"
start=$(date +%s)
"$CUT" zoned_local > "$T/cut.out" 2>&1
rc=$?	# (the $(...) below sets $? too)
expect_rc "cut zoned_local ($(( $(date +%s) - start ))s)" 0 $rc || sed 's/^/# /' "$T/cut.out"
start=$(date +%s)
"$VM" --batch --timeout 600 --results "$T/zres" > "$T/console" 2>&1
rc=$?
expect_rc "zoned_local ($(( $(date +%s) - start ))s)" 0 $rc
testcases "$T/zres/junit.xml" > "$T/zgot"
check "btrfs and zonefs passed on both disks" same_file - "$T/zgot" <<'EOF'
null_blk/btrfs pass
scsi_debug/btrfs pass
null_blk/zonefs pass
scsi_debug/zonefs pass
EOF
check "zonefs: a file per sequential zone" \
	says_re 'zoned_local: zonefs on /dev/sd[a-z]: 15 files in seq/, 15 sequential zones'
check "zonefs: 8 MiB appended, the zone's write pointer 16384 sectors on after a remount" \
	says_re 'zoned_local: zonefs: /mnt/zonefs/seq/1 8 MiB after a remount, write pointer at sector 16384'
check "zonefs: truncate -s 0 reset the zone" says_re 'zoned_local: zonefs: truncate -s 0 reset the zone'
check "the scsi_debug disk is host-managed ZBC" says_re 'zoned_local: /dev/rznullb0 \(null_blk\) and /dev/sd[a-z] \(scsi_debug\): host-managed'
check "btrfs wrote zones of the scsi_debug disk" \
	says_re 'zoned_local: btrfs on /dev/sd[a-z]: 8 MiB read back after a remount; [1-9][0-9]* zones written'
check "kernel console clean" console_clean "$T/console"
[ $rc = 0 ] || guest_text "$T/console" | tail -n 40 | sed 's/^/# /'
done_testing
