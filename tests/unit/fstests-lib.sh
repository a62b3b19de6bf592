#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-lib.sh: autorun/lib/fstests*.sh without a VM: the FSTESTS_* keys'
# defaults and every bad value refused with a message naming the key (before
# a disk is made), local.config written plain or in sections (external
# devices, FSTESTS_CONFIG's sections, FSTESTS_SECTION), and ./check's
# arguments from the selection keys. The boot tests (tests/boot/fstests*.sh)
# check the same in a guest with real disks.
. "$(dirname "$0")/../tap.sh"
top=$TOP tmp=$T

# in_lib SHELL-CODE: run it in a clean shell with the library sourced, no
# FSTESTS_ key from the caller's environment, its own RAPIDO_RUN_DIR, rapido_fail from rapido.sh,
# the filesystem check (modprobe, mkfs in PATH) stubbed; output to $tmp/out
in_lib() {
	# a fresh run dir per case: the guest's status and test counts live there
	rm -rf "$tmp/run" && mkdir "$tmp/run" || return 1
	env -i PATH="$PATH" RAPIDO_PROFILE=fstests_local RAPIDO_RUN_DIR="$tmp/run" bash -c '
		# every guest library, as the image sources them (autorun.sh)
		for f in "$1"/autorun/lib/*.sh; do
			source "$f"
		done
		_fstests_check_fs() { :; }
		_fstests_check_overlay() { :; }
		_fstests_exclude_path=$2/exclude
		_fstests_user_config=$2/user.config
		_fstests_sysfs=$2/sys
		eval "$3"' _ "$top" "$tmp" "$1" > "$tmp/out" 2>&1
}

# good DESC CODE EXPECTED: CODE succeeds and prints exactly EXPECTED
good() {
	if in_lib "$2" && [ "$(cat "$tmp/out")" = "$3" ]; then ok "$1"; else
		not_ok "$1"
		sed 's/^/#   out: /' "$tmp/out"
		echo "#   expected: $3"
	fi
}

# bad DESC CODE MESSAGE: CODE fails saying MESSAGE (a fixed string)
bad() {
	if ! in_lib "$2" && grep -qF -- "$3" "$tmp/out"; then ok "$1"; else
		not_ok "$1"
		sed 's/^/#   out: /' "$tmp/out"
	fi
}

show='fstests_settings && echo "$FSTYP pool=${_fstests_cfg[pool]}/${_fstests_cfg[pool_devs]}/${_fstests_cfg[pool_size]} size=${_fstests_cfg[size]} logw=${_fstests_cfg[logw_size]}" \
	"log=${_fstests_cfg[logdev_size]} rt=${_fstests_cfg[rtdev_size]} mkfs=[${_fstests_cfg[mkfs_opts]}] mount=[${_fstests_cfg[mount_opts]}]"'

good "defaults: btrfs, a pool of 5, a log-writes disk, no discard" "$show" \
	"btrfs pool=5/scsi/256M size=1G logw=1G log=0 rt=0 mkfs=[-K] mount=[]"
good "xfs: no pool by default" "FSTESTS_FS=xfs FSTESTS_ZRAM_SIZE=512M; $show" \
	"xfs pool=0/scsi/256M size=512M logw=512M log=0 rt=0 mkfs=[-K] mount=[]"
good "ext4: -E nodiscard, external log sized" \
	"FSTESTS_FS=ext4 FSTESTS_SCRATCH_LOGDEV_SIZE=64M FSTESTS_LOGWRITES_SIZE=0; $show" \
	"ext4 pool=0/scsi/256M size=1G logw=0 log=64M rt=0 mkfs=[-E nodiscard] mount=[]"
good "FSTESTS_MKFS_OPTIONS set empty: no options at all" \
	"FSTESTS_MKFS_OPTIONS= FSTESTS_SCRATCH_POOL=0; $show" \
	"btrfs pool=0/scsi/256M size=1G logw=1G log=0 rt=0 mkfs=[] mount=[]"
good "mkfs and mount options passed through" \
	"FSTESTS_FS=xfs FSTESTS_MKFS_OPTIONS='-m crc=1,reflink=1' FSTESTS_MOUNT_OPTIONS='-o noatime' FSTESTS_SCRATCH_RTDEV_SIZE=128M; $show" \
	"xfs pool=0/scsi/256M size=1G logw=1G log=0 rt=128M mkfs=[-m crc=1,reflink=1] mount=[-o noatime]"
good "the test disk's mkfs arguments: force, then MKFS_OPTIONS" \
	"FSTESTS_FS=xfs FSTESTS_MKFS_OPTIONS='-m crc=1'; fstests_settings && echo \$(zram_mkfs_args xfs \"\${_fstests_cfg[mkfs_opts]}\")" \
	"--mkfs-arg -f --mkfs-arg -m --mkfs-arg crc=1"
good "mkfs arguments given empty options: only the force" \
	"echo \$(zram_mkfs_args btrfs '')" "--mkfs-arg -f"
good "mkfs arguments for other profiles (ecryptfs_local): no discard by default" \
	"echo \$(zram_mkfs_args xfs) / \$(zram_mkfs_args ext3)" \
	"--mkfs-arg -f --mkfs-arg -K / --mkfs-arg -E --mkfs-arg nodiscard"

good "a pool of plain zram disks" "FSTESTS_SCRATCH_POOL=3 FSTESTS_SCRATCH_POOL_DEVS=zram; $show" \
	"btrfs pool=3/zram/1G size=1G logw=1G log=0 rt=0 mkfs=[-K] mount=[]"
bad "a pool of other disks" "FSTESTS_SCRATCH_POOL_DEVS=nvme; $show" \
	"FSTESTS_SCRATCH_POOL_DEVS='nvme': expected scsi (scsi_debug disks, which tests can drop"
good "a pool of 1G scsi_debug disks" "FSTESTS_SCRATCH_POOL_SIZE=1G; $show" \
	"btrfs pool=5/scsi/1G size=1G logw=1G log=0 rt=0 mkfs=[-K] mount=[]"
bad "a scsi_debug disk in bytes" "FSTESTS_SCRATCH_POOL_SIZE=1000000; $show" \
	"FSTESTS_SCRATCH_POOL_SIZE='1000000': a scsi_debug disk is sized in whole MiB or GiB"
bad "a size that is not one" "FSTESTS_ZRAM_SIZE=1X; $show" \
	"FSTESTS_ZRAM_SIZE='1X': expected a size such as 512M or 1G"
bad "0 is no size for the test disk" "FSTESTS_ZRAM_SIZE=0; $show" "FSTESTS_ZRAM_SIZE='0'"
bad "a log-writes size that is not one" "FSTESTS_LOGWRITES_SIZE=-1; $show" \
	"FSTESTS_LOGWRITES_SIZE='-1': expected a size such as 512M or 1G (0: none)"
bad "a pool of one" "FSTESTS_SCRATCH_POOL=1; $show" \
	"FSTESTS_SCRATCH_POOL='1': expected 0 (one SCRATCH_DEV) or a number of disks from 2 to 16"
bad "a pool of 17" "FSTESTS_SCRATCH_POOL=17; $show" "FSTESTS_SCRATCH_POOL='17'"
bad "a pool for xfs" "FSTESTS_FS=xfs FSTESTS_SCRATCH_POOL=4; $show" \
	"FSTESTS_SCRATCH_POOL=4: xfstests uses SCRATCH_DEV_POOL for btrfs only (FSTESTS_FS=xfs): set it to 0"
bad "an external log for btrfs" "FSTESTS_SCRATCH_LOGDEV_SIZE=64M; $show" \
	"FSTESTS_SCRATCH_LOGDEV_SIZE: an external log is for xfs and ext4, not btrfs"
bad "a realtime device for ext4" "FSTESTS_FS=ext4 FSTESTS_SCRATCH_RTDEV_SIZE=64M; $show" \
	"FSTESTS_SCRATCH_RTDEV_SIZE: a realtime device is for xfs, not ext4"
# issue 43 #5: f2fs, exfat, udf, ntfs3, as xfstests' common/config makes them
good "f2fs: no pool, nodiscard (-t 0), mkfs forced (-f) as xfstests' _scratch_mkfs does" \
	"FSTESTS_FS=f2fs; $show && echo \$(zram_mkfs_args f2fs \"\${_fstests_cfg[mkfs_opts]}\")" \
	"f2fs pool=0/scsi/256M size=1G logw=1G log=0 rt=0 mkfs=[-t 0] mount=[]
--mkfs-arg -f --mkfs-arg -t --mkfs-arg 0"
good "exfat and udf: no mkfs options" \
	"FSTESTS_FS=exfat; $show && FSTESTS_FS=udf && $show" \
	"exfat pool=0/scsi/256M size=1G logw=1G log=0 rt=0 mkfs=[] mount=[]
udf pool=0/scsi/256M size=1G logw=1G log=0 rt=0 mkfs=[] mount=[]"
good "ntfs3: mkfs.ntfs quick (-Q), on a whole disk (-F)" "FSTESTS_FS=ntfs3; $show" \
	"ntfs3 pool=0/scsi/256M size=1G logw=1G log=0 rt=0 mkfs=[-Q -F] mount=[]"
bad "an external log for f2fs" "FSTESTS_FS=f2fs FSTESTS_SCRATCH_LOGDEV_SIZE=64M; $show" \
	"FSTESTS_SCRATCH_LOGDEV_SIZE: an external log is for xfs and ext4, not f2fs"
bad "a pool for exfat" "FSTESTS_FS=exfat FSTESTS_SCRATCH_POOL=2; $show" \
	"FSTESTS_SCRATCH_POOL=2: xfstests uses SCRATCH_DEV_POOL for btrfs only (FSTESTS_FS=exfat): set it to 0"
bad "-overlay over exfat (no xattrs for overlayfs' upper)" "FSTESTS_FS=exfat FSTESTS_OVERLAY=1; $show" \
	"FSTESTS_OVERLAY=1: overlayfs needs xattrs on its upper file system, which exfat has not"
mkdir -p "$tmp/ntfsbin" && printf '#!/bin/sh\n' > "$tmp/ntfsbin/mkfs.ntfs" && cp "$tmp/ntfsbin/mkfs.ntfs" "$tmp/ntfsbin/ntfsfix" &&
	chmod +x "$tmp/ntfsbin"/*
good "ntfs3: mkfs.ntfs3 and fsck.ntfs3 (mkfs -t ntfs3, fsck -t ntfs3 -n) are mkfs.ntfs and ntfsfix" \
	"PATH=$tmp/ntfsbin:\$PATH; _fstests_ntfs3_progs && _fstests_ntfs3_progs &&
		readlink $tmp/ntfsbin/mkfs.ntfs3 $tmp/ntfsbin/fsck.ntfs3" \
	"$tmp/ntfsbin/mkfs.ntfs
$tmp/ntfsbin/ntfsfix"
good "the programs xfstests refuses to run without, per file system" \
	"for f in f2fs exfat udf ntfs3; do echo \$f: \$(_fstests_required_bins \$f | cut -d' ' -f12-); done" \
	"f2fs: mkfs mkfs.f2fs fsck.f2fs
exfat: mkfs yes fsck mkfs.exfat fsck.exfat
udf: mkfs mkudffs
ntfs3: mkfs yes fsck mkfs.ntfs3 fsck.ntfs3"
bad "a # in MKFS_OPTIONS (local.config would cut it)" "FSTESTS_MKFS_OPTIONS='-L a#b'; $show" \
	"FSTESTS_MKFS_OPTIONS='-L a#b': only letters, digits, spaces and"
bad "a quote in MOUNT_OPTIONS" "FSTESTS_MOUNT_OPTIONS='-o context=\"x\"'; $show" \
	"FSTESTS_MOUNT_OPTIONS='-o context=\"x\"': only letters"
bad "a test name without its directory" "FSTESTS_SRC=/x FSTESTS_TESTS='generic/001 002'; $show" \
	"FSTESTS_TESTS: '002' is not a test name such as generic/001"
bad "a group name with a slash" "FSTESTS_EXCLUDE_GROUPS='dangerous,a/b'; $show" \
	"FSTESTS_EXCLUDE_GROUPS: 'a/b' is not a group name"
bad "a section name with a space-less oddity" "FSTESTS_SECTION='x;y'; $show" \
	"FSTESTS_SECTION: 'x;y' is not a section name"
bad "tests picked without a tree" "FSTESTS_GROUPS=quick; $show" \
	"FSTESTS_GROUPS/FSTESTS_TESTS select xfstests tests to run, but there is no xfstests tree"
bad "tests picked and FSTESTS_AUTORUN_CMD both" \
	"FSTESTS_SRC=/x FSTESTS_GROUPS=quick FSTESTS_AUTORUN_CMD=./check; $show" \
	"FSTESTS_AUTORUN_CMD and FSTESTS_GROUPS/FSTESTS_TESTS are both set: use one"
bad "an exclude file that is not in the image" "FSTESTS_EXCLUDE_FILE=/ci/known; $show" \
	"FSTESTS_EXCLUDE_FILE=/ci/known is not in the image at $tmp/exclude"

# devices as fstests_devices leaves them
devs='TEST_DEV=/dev/zram0 TEST_DIR=/mnt/test SCRATCH_MNT=/mnt/scratch RESULT_BASE=/host/results'
pool="$devs SCRATCH_DEV= SCRATCH_DEV_POOL='/dev/zram1 /dev/zram2' LOGWRITES_DEV=/dev/zram3 SCRATCH_LOGDEV= SCRATCH_RTDEV="
write='fstests_settings && _fstests_write_config $tmp_cfg && cat $tmp_cfg && echo "sections: ${_fstests_cfg[sections]}"'
cfg="tmp_cfg=$tmp/local.config"

good "one configuration: plain local.config, pool without SCRATCH_DEV" "$cfg; $pool; $write" \
"# written by rapido (profile fstests_local) at boot; not used outside the VM
export FSTYP=btrfs
export TEST_DEV=/dev/zram0
export TEST_DIR=/mnt/test
export SCRATCH_DEV_POOL=\"/dev/zram1 /dev/zram2\"
export SCRATCH_MNT=/mnt/scratch
export LOGWRITES_DEV=/dev/zram3
export MKFS_OPTIONS=\"-K\"
export RESULT_BASE=/host/results
sections: btrfs"

good "udf: DISABLE_UDF_TEST=1 (no udf_test in the tree: xfstests' check would fail)" \
	"$cfg; FSTESTS_FS=udf; $devs SCRATCH_DEV=/dev/zram1 LOGWRITES_DEV=; $write" \
"# written by rapido (profile fstests_local) at boot; not used outside the VM
export FSTYP=udf
export TEST_DEV=/dev/zram0
export TEST_DIR=/mnt/test
export SCRATCH_DEV=/dev/zram1
export SCRATCH_MNT=/mnt/scratch
export MKFS_OPTIONS=\"\"
export RESULT_BASE=/host/results
export DISABLE_UDF_TEST=1
sections: udf"

# the external log's logical block size, as a zram disk has it
mkdir -p "$tmp/sys/block/zram2/queue"
echo 4096 > "$tmp/sys/block/zram2/queue/logical_block_size"
ext="$devs SCRATCH_DEV=/dev/zram1 SCRATCH_DEV_POOL= LOGWRITES_DEV= SCRATCH_LOGDEV=/dev/zram2 SCRATCH_RTDEV=/dev/zram3"
printf '%s\n' '# my sections' '[xfs_reflink]' 'MKFS_OPTIONS="-m reflink=1"' '' \
	'[xfs_nodiscard_off]' 'MKFS_OPTIONS=' > "$tmp/user.config"
good "external devices and FSTESTS_CONFIG: sections, the devices in each" \
	"$cfg; FSTESTS_FS=xfs FSTESTS_SCRATCH_RTDEV_SIZE=1G FSTESTS_CONFIG=/host/my.config FSTESTS_MOUNT_OPTIONS='-o noatime'; $ext; $write" \
"# written by rapido (profile fstests_local) at boot; not used outside the VM
[xfs]
FSTYP=xfs
TEST_DEV=/dev/zram0
TEST_DIR=/mnt/test
SCRATCH_DEV=/dev/zram1
SCRATCH_MNT=/mnt/scratch
MKFS_OPTIONS=\"-K\"
MOUNT_OPTIONS=\"-o noatime\"
RESULT_BASE=/host/results

[xfs_external]
FSTYP=xfs
TEST_DEV=/dev/zram0
TEST_DIR=/mnt/test
SCRATCH_DEV=/dev/zram1
SCRATCH_MNT=/mnt/scratch
MKFS_OPTIONS=\"-K -l sectsize=4096\"
MOUNT_OPTIONS=\"-o noatime\"
RESULT_BASE=/host/results
USE_EXTERNAL=yes
SCRATCH_LOGDEV=/dev/zram2
SCRATCH_RTDEV=/dev/zram3
# my sections
[xfs_reflink]
FSTYP=xfs
TEST_DEV=/dev/zram0
TEST_DIR=/mnt/test
SCRATCH_DEV=/dev/zram1
SCRATCH_MNT=/mnt/scratch
MKFS_OPTIONS=\"-K\"
MOUNT_OPTIONS=\"-o noatime\"
RESULT_BASE=/host/results
MKFS_OPTIONS=\"-m reflink=1\"

[xfs_nodiscard_off]
FSTYP=xfs
TEST_DEV=/dev/zram0
TEST_DIR=/mnt/test
SCRATCH_DEV=/dev/zram1
SCRATCH_MNT=/mnt/scratch
MKFS_OPTIONS=\"-K\"
MOUNT_OPTIONS=\"-o noatime\"
RESULT_BASE=/host/results
MKFS_OPTIONS=
sections: xfs xfs_external xfs_reflink xfs_nodiscard_off"

good "FSTESTS_SECTION alone makes a sectioned local.config" \
	"$cfg; FSTESTS_SECTION=btrfs; $pool; { $write; } | head -n 2" \
	"# written by rapido (profile fstests_local) at boot; not used outside the VM
[btrfs]"
bad "FSTESTS_SECTION naming a section that is not there" \
	"$cfg; FSTESTS_SECTION='btrfs xfs_external'; $pool; $write" \
	"FSTESTS_SECTION: no section 'xfs_external' in local.config (it has: btrfs)"
printf '%s\n' 'MKFS_OPTIONS=-K' '[late]' > "$tmp/user.config"
bad "FSTESTS_CONFIG: a setting before the first section" \
	"$cfg; FSTESTS_CONFIG=/host/my.config; $pool; $write" \
	"FSTESTS_CONFIG line 1: a setting before the first [section] (xfstests would ignore it): MKFS_OPTIONS=-K"
printf '%s\n' '[btrfs]' 'X=1' > "$tmp/user.config"
bad "FSTESTS_CONFIG: a section rapido writes" "$cfg; FSTESTS_CONFIG=/host/my.config; $pool; $write" \
	"FSTESTS_CONFIG line 1: section [btrfs] is there twice or is one rapido writes"
printf '%s\n' '[a]' 'X=1' '[a]' > "$tmp/user.config"
bad "FSTESTS_CONFIG: a section twice" "$cfg; FSTESTS_CONFIG=/host/my.config; $pool; $write" \
	"FSTESTS_CONFIG line 3: section [a] is there twice"
printf '%s\n' '[a]' 'export X=1' > "$tmp/user.config"
bad "FSTESTS_CONFIG: a line that is no setting" "$cfg; FSTESTS_CONFIG=/host/my.config; $pool; $write" \
	"FSTESTS_CONFIG line 2: expected [section], KEY=value or a comment, got: export X=1"
printf '# nothing\n' > "$tmp/user.config"
bad "FSTESTS_CONFIG without a section" "$cfg; FSTESTS_CONFIG=/host/my.config; $pool; $write" \
	"FSTESTS_CONFIG has no [section]"

: > "$tmp/exclude"
printf '[a]\n[b]\n' > "$tmp/user.config"
good "check's arguments: sections, -x, -e and -E from the keys" \
	"FSTESTS_CONFIG=/host/my.config FSTESTS_SECTION='a b' FSTESTS_EXCLUDE_GROUPS='dangerous stress' FSTESTS_EXCLUDE_TESTS='generic/001,btrfs/002' FSTESTS_EXCLUDE_FILE=/ci/known; fstests_settings && _fstests_check_args && echo \"\${_fstests_check_opts[*]}\"" \
	"-s a -s b -x dangerous,stress -e generic/001,btrfs/002 -E $tmp/exclude"
good "no selection keys: check gets no arguments" \
	"fstests_settings && _fstests_check_args && echo \"[\${_fstests_check_opts[*]}]\"" "[]"

# fstests_cephfs: no fstests_settings, one plain configuration, the
# client's key quoted for the shell
good "fstests_cephfs: plain local.config, no MKFS_OPTIONS, CEPHFS_MOUNT_OPTIONS quoted" \
	"FSTYP=ceph TEST_DEV=10.0.0.1:/t TEST_DIR=/mnt/test SCRATCH_DEV=10.0.0.1:/s SCRATCH_MNT=/mnt/scratch CEPHFS_MOUNT_OPTIONS='-o name=admin,secret=K'; _fstests_write_config $tmp/c.config && cat $tmp/c.config" \
"# written by rapido (profile fstests_local) at boot; not used outside the VM
export FSTYP=ceph
export TEST_DEV=10.0.0.1:/t
export TEST_DIR=/mnt/test
export SCRATCH_DEV=10.0.0.1:/s
export SCRATCH_MNT=/mnt/scratch
export CEPHFS_MOUNT_OPTIONS=-o\\ name=admin\\,secret=K"
# the real xfstests refuses FSTYP=ceph without mkfs (common/config, every
# FSTYP) and finds TEST_DEV's mount with findmnt (common/rc)
good "fstests_cephfs: the tree is refused without mkfs or findmnt" \
	"for b in \$(_fstests_required_bins ceph); do echo \$b; done | grep -x -e mkfs -e findmnt" \
	"mkfs
findmnt"

# rapido_fstests_check: rapido.conf's sections and exclusions before its
# own arguments; with sections each test recorded as SECTION:TEST, a
# failure with that section's .out.bad. A stand-in ./check prints what
# xfstests' does.
mkdir -p "$tmp/tree/results/b/generic"
cat > "$tmp/tree/check" <<'EOF2'
#!/bin/bash
echo "$*" > args
printf 'SECTION       -- a\n\ngeneric/001 1s\ngeneric/002 [not run] no scratch\n'
printf 'SECTION       -- b\n\ngeneric/001 - output mismatch (see results/b/generic/001.out.bad)\n'
exit 1
EOF2
chmod +x "$tmp/tree/check"
echo "-bad line" > "$tmp/tree/results/b/generic/001.out.bad"
good "rapido_fstests_check: conf's -s/-x first, SECTION:TEST records, check's status" \
	"cd $tmp/tree; RESULT_BASE=$tmp/tree/results RAPIDO_RESULTS_PORT=$tmp/port
	FSTESTS_SECTION='a b' FSTESTS_EXCLUDE_GROUPS=dangerous; _fstests_check_args
	rapido_fstests_check generic/001 generic/002 > /dev/null; echo \"rc \$?\"; cat args
	while read -r r ev name secs rest; do echo \"\$ev \$name\"; done < $tmp/port
	grep -c 'bad%20line' $tmp/port" \
"rc 1
-R xunit -s a -s b -x dangerous generic/001 generic/002
pass a:generic/001
skip a:generic/002
fail b:generic/001
1"

# The ways a ./check run reaches the profile's status (issue 25: 1, 3, 5,
# 8, 13). A stand-in ./check (not xfstests: the boot test fstests-real.sh
# runs the real one) prints, for the case named in ./case, what the real
# one prints and exits as it does.
mkdir -p "$tmp/t2/results"
cat > "$tmp/t2/check" <<'EOF2'
#!/bin/bash
case $(< case):$1 in
mismatch:*) printf 'generic/002        1s ... - output mismatch (see results/generic/002.out.bad)\nFailed 1 of 1 tests\n'; exit 1 ;;
pass:*) printf 'generic/001         2s\n'; exit 0 ;;
crash:*) printf 'generic/001         2s\n'; exit 139 ;;
nostart:*|quik:*) echo 'Group "quik" is empty or not defined?'; exit 1 ;;
unknown:*) echo 'generic/9999 - unknown test, ignored'; exit 0 ;;
empty:-n) exit 0 ;;
list:-n) echo "$*" > nargs; printf 'generic/001 \ngeneric/002 \ngeneric/003        [expunged]\n'; exit 0 ;;
list:*) echo "ran $*" > ran; exit 0 ;;
esac
EOF2
chmod +x "$tmp/t2/check"
# run2 CASE CODE: CODE in $tmp/t2 with ./check acting CASE; prints CODE's
# status, each record as "EVENT NAME", and the counts rapido_tests_done
# gives in this shell
run2() {
	echo "$1" > "$tmp/t2/case"
	printf '%s\n' "cd $tmp/t2; RESULT_BASE=$tmp/t2/results RAPIDO_RESULTS_PORT=$tmp/t2/port
		: > $tmp/t2/port; $2 > $tmp/t2/log 2>&1; echo \"rc \$?\"
		while read -r r ev name rest; do [ \$ev = start ] || echo \"\$ev \$name\"; done < $tmp/t2/port
		rapido_tests_done | sed 's/^rapido: //'"
}
good "FSTESTS_AUTORUN_CMD=./check: a failing test's status and its record from the console" \
	"$(run2 mismatch "FSTESTS_AUTORUN_CMD='./check generic/002'; _fstests_autorun_cmd")" \
"rc 1
fail generic/002
results: 0 passed, 1 failed, 0 skipped"
good "FSTESTS_AUTORUN_CMD: check's failure survives '| cat' (pipefail)" \
	"$(run2 mismatch "FSTESTS_AUTORUN_CMD='./check generic/002 | cat'; _fstests_autorun_cmd")" \
"rc 1
fail generic/002
results: 0 passed, 1 failed, 0 skipped"
good "FSTESTS_AUTORUN_CMD: check that cannot start fails, and says so in a record" \
	"$(run2 nostart "FSTESTS_AUTORUN_CMD='./check -g quik'; _fstests_autorun_cmd")" \
"rc 1
fail fstests/check
results: 0 passed, 1 failed, 0 skipped"
good "FSTESTS_AUTORUN_CMD: a test that failed fails the command that ignored it" \
	"$(run2 mismatch "FSTESTS_AUTORUN_CMD='./check generic/002; true'; _fstests_autorun_cmd")" \
"rc 1
fail generic/002
results: 0 passed, 1 failed, 0 skipped"
good "rapido_fstests_check: the failure count survives (no pipeline subshell)" \
	"$(run2 mismatch "rapido_fstests_check generic/002")" \
"rc 1
fail generic/002
results: 0 passed, 1 failed, 0 skipped"
good "rapido_fstests_check: check's crash status (139) after a passing test" \
	"$(run2 crash "rapido_fstests_check generic/001")" \
"rc 139
pass generic/001
fail fstests/check
results: 1 passed, 1 failed, 0 skipped"
good "rapido_fstests_check: a mistyped test name check ignores is a failure" \
	"$(run2 unknown "rapido_fstests_check generic/9999")" \
"rc 1
plan generic/9999
fail generic/9999
results: 0 passed, 1 failed, 0 skipped"
printf '<testsuite><testcase classname="xfstests.global" name="generic/001" time="1"/></testsuite>\n' \
	> "$tmp/t2/results/result.xml"
good "rapido_fstests_check: an old result.xml is removed, not imported as passes" \
	"$(run2 nostart "rapido_fstests_check -g quik"); test ! -e results/result.xml && echo gone" \
"rc 1
fail fstests/check
results: 0 passed, 1 failed, 0 skipped
gone"
printf '<testsuite><testcase classname="xfstests.global" name="generic/001" time="1"/></testsuite>\n' \
	> "$tmp/t2/results/result.xml"
good "FSTESTS_AUTORUN_CMD: an old result.xml is removed, not imported as passes" \
	"$(run2 nostart "FSTESTS_AUTORUN_CMD='./check -g quik'; _fstests_autorun_cmd")" \
"rc 1
fail fstests/check
results: 0 passed, 1 failed, 0 skipped"
good "--shard: ./check -n failing (-g quik) fails the shard, saying so" \
	"$(run2 quik "RAPIDO_SHARD=1/2 rapido_fstests_check -g quik"); grep '^fstests: shard' log" \
"rc 1
fail fstests/check
results: 0 passed, 1 failed, 0 skipped
fstests: shard 1/2: ./check -n -g quik failed (exit 1): no test list to shard"
good "--shard: ./check -n listing no test fails the shard" \
	"$(run2 empty "RAPIDO_SHARD=2/2 rapido_fstests_check -g quick"); grep '^fstests: shard' log" \
"rc 1
fail fstests/check
results: 0 passed, 1 failed, 0 skipped
fstests: shard 2/2: ./check -n -g quick listed no test"
good "--shard: the shards split ./check -n's list, expunged left out, -R dropped from -n" \
	"for i in 1 2; do { $(run2 list "RAPIDO_SHARD=\$i/2 rapido_fstests_check -R xunit -s a -g quick"); } > /dev/null; cat ran nargs; rm -f ran; done" \
"ran -R xunit -s a generic/001
-n -s a -g quick
ran -R xunit -s a generic/002
-n -s a -g quick"
# ./vm --jobs: the unreliable_in_parallel group (tests/DIR/group.list, as
# make writes it) is left by a shard to the serial VM, which runs only it
mkdir -p "$tmp/t2/tests/generic" "$tmp/t2/res"
printf '# QA groups control file\n001 auto unreliable_in_parallel\n002 auto quick\n' \
	> "$tmp/t2/tests/generic/group.list"
good "--jobs: a shard runs the others and lists the unreliable_in_parallel ones it left" \
	"{ $(run2 list "RAPIDO_SHARD=1/1 RAPIDO_SERIAL=defer RAPIDO_RESULTS_DIR=$tmp/t2/res rapido_fstests_check -g quick"); } > /dev/null
	cat ran res/rapido-deferred.txt; rm -f ran" \
"ran -R xunit generic/002
generic/001"
good "--jobs: the serial VM runs only them" \
	"{ $(run2 list "RAPIDO_SERIAL=only rapido_fstests_check -g quick"); } > /dev/null; cat ran; rm -f ran" \
"ran -R xunit generic/001"
rm -r "$tmp/t2/tests"

good "FSTESTS_AUTORUN_CMD: a process left holding the output does not hang the profile" \
	"$(run2 mismatch "_fstests_tee_wait=2
		FSTESTS_AUTORUN_CMD='./check generic/002; sleep 20 &'; _fstests_autorun_cmd"); grep -c 'still holds' log" \
"rc 1
fail generic/002
results: 0 passed, 1 failed, 0 skipped
1"

# FSTESTS_ZONED: zoned disks take btrfs, one SCRATCH_DEV and no log device by default
good "FSTESTS_ZONED: no pool, no log-writes disk by default" \
	"FSTESTS_ZONED=null_blk FSTESTS_ZRAM_SIZE=512M; $show; echo \"\${_fstests_cfg[zoned]} \${_fstests_cfg[zone_size]}\"" \
	"btrfs pool=0/scsi/256M size=512M logw=0 log=0 rt=0 mkfs=[-K] mount=[]
null_blk 16"
bad "FSTESTS_ZONED with xfs refused" "FSTESTS_FS=xfs FSTESTS_ZONED=scsi_debug; fstests_settings" \
	"FSTESTS_ZONED: zoned devices take btrfs here, not xfs"
bad "FSTESTS_ZONED: an unknown driver refused" "FSTESTS_ZONED=zram; fstests_settings" \
	"FSTESTS_ZONED='zram': expected null_blk or scsi_debug"
bad "FSTESTS_ZONED: a size not in whole MiB refused" \
	"FSTESTS_ZONED=null_blk FSTESTS_ZRAM_SIZE=1000K; fstests_settings" \
	"FSTESTS_ZRAM_SIZE='1000K': a zoned disk is sized in whole MiB or GiB"
bad "FSTESTS_ZONE_SIZE: not a number refused" \
	"FSTESTS_ZONED=null_blk FSTESTS_ZONE_SIZE=4M; fstests_settings" \
	"FSTESTS_ZONE_SIZE='4M': expected MiB"
# FSTESTS_OVERLAY=1: ./check -overlay over one SCRATCH_DEV
good "FSTESTS_OVERLAY=1: one SCRATCH_DEV (no btrfs pool), ./check -overlay" \
	"FSTESTS_OVERLAY=1; $show; _fstests_check_args; echo \"\${_fstests_check_opts[*]}\"" \
	"btrfs pool=0/scsi/256M size=1G logw=1G log=0 rt=0 mkfs=[-K] mount=[]
-overlay"
bad "FSTESTS_OVERLAY=1 with a pool refused" "FSTESTS_OVERLAY=1 FSTESTS_SCRATCH_POOL=5; fstests_settings" \
	"FSTESTS_SCRATCH_POOL=5: ./check -overlay (FSTESTS_OVERLAY=1) takes one SCRATCH_DEV: set it to 0"
bad "FSTESTS_OVERLAY=1 with FSTESTS_ZONED refused" \
	"FSTESTS_OVERLAY=1 FSTESTS_ZONED=null_blk FSTESTS_ZRAM_SIZE=512M; fstests_settings" \
	"FSTESTS_OVERLAY=1 and FSTESTS_ZONED: overlayfs runs over a regular"
bad "FSTESTS_OVERLAY: another value refused" "FSTESTS_OVERLAY=yes; fstests_settings" \
	"FSTESTS_OVERLAY='yes': expected 0 or 1 (./check -overlay)"
# --rerun-failures (RAPIDO_RERUN_FAILURES): a failed test run again by
# ./check TEST with check's options (not its selection), in its section,
# until it passes. A stand-in ./check fails generic/002 the first N times
# it runs (N in ./fails), each run's arguments appended to ./runs.
mkdir -p "$tmp/t3/results"
cat > "$tmp/t3/check" <<'EOF2'
#!/bin/bash
# -n: the list (the plan ./vm gets first), not a run
case " $* " in *" -n "*) for a; do [[ $a != */* ]] || echo "$a"; done; exit 0 ;; esac
echo "$*" >> runs
n=$(< fails)
sect=
for a; do [ "$prev" = -s ] && sect=$a; prev=$a; done
[ -z "$sect" ] || printf 'SECTION       -- %s\n\n' "$sect"
case " $* " in *" generic/001 "*) printf 'generic/001        1s\n' ;; esac
if [ "$n" -gt 0 ]; then
	echo $((n - 1)) > fails
	printf 'generic/002        1s ... - output mismatch (see results/generic/002.out.bad)\n'
	exit 1
fi
printf 'generic/002        1s\n'
EOF2
chmod +x "$tmp/t3/check"
# run3 FAILS CODE: CODE in $tmp/t3, generic/002 failing its first FAILS
# runs; its status, the records "EVENT NAME" (a re-run said by "rerun
# NAME"; the plan left out), then check's runs
run3() {
	echo "$1" > "$tmp/t3/fails"
	: > "$tmp/t3/runs"
	printf '%s\n' "cd $tmp/t3; RESULT_BASE=$tmp/t3/results RAPIDO_RESULTS_PORT=$tmp/t3/port
		: > $tmp/t3/port; $2 > $tmp/t3/log 2>&1; echo \"rc \$?\"
		while read -r r ev name rest; do [ \$ev = start ] || [ \$ev = plan ] || echo \"\$ev \$name\"; done < $tmp/t3/port
		cat runs"
}
good "--rerun-failures 2: a test failing once runs again alone and passes" \
	"$(run3 1 "RAPIDO_RERUN_FAILURES=2 rapido_fstests_check -i 1 generic/001 generic/002"); grep -c 'passed on re-run 1 of 2: flaky' log" \
"rc 1
pass generic/001
fail generic/002
rerun generic/002
pass generic/002
-R xunit -i 1 generic/001 generic/002
-R xunit -i 1 generic/002
1"
good "--rerun-failures 2: failing every time, 3 runs" \
	"$(run3 9 "RAPIDO_RERUN_FAILURES=2 rapido_fstests_check generic/002")" \
"rc 1
fail generic/002
rerun generic/002
fail generic/002
rerun generic/002
fail generic/002
-R xunit generic/002
-R xunit generic/002
-R xunit generic/002"
good "--rerun-failures: a section's test runs again in its section only" \
	"$(run3 1 "RAPIDO_RERUN_FAILURES=1 rapido_fstests_check -s a generic/002")" \
"rc 1
fail a:generic/002
rerun a:generic/002
pass a:generic/002
-R xunit -s a generic/002
-R xunit -s a generic/002"
good "no --rerun-failures: one run" \
	"$(run3 1 "rapido_fstests_check generic/002")" \
"rc 1
fail generic/002
-R xunit generic/002"

done_testing
