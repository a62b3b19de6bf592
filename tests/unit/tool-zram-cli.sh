#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tool-zram-cli.sh: rapido-zram's command line, run against a fake sysfs tree.
#
# The tree under --root is plain directories and files, so the writes land
# in files whose contents and order (--trace) are checked. Nothing here
# mounts, unmounts or swaps anything: those steps are only planned with
# --dry-run. mkfs is a stub script put first in PATH.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${RAPIDO_ZRAM:-$top/build/guest/rapido-zram}
exp=$top/tests/expected
if [ ! -x "$bin" ]; then
	echo "SKIP: $bin is not built (run make)"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rapido-zram-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	echo "#   exit $rc"
	sed 's/^/#   stdout: /' "$tmp/out"
	sed 's/^/#   stderr: /' "$tmp/err"
}
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }
run() { "$bin" "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?; }
same() { diff -u "$1" "$2" | sed 's/^/#   /'; [ "${PIPESTATUS[0]}" -eq 0 ]; }

# fake_tree DIR: a rapido guest (rapido.vm= on its command line), zram
# loaded, no devices, nothing mounted, no swap
fake_tree() {
	rm -rf "$1"
	mkdir -p "$1"/sys/class/zram-control "$1"/sys/block "$1"/dev "$1"/proc/self
	echo "console=ttyS0 panic=-1 rapido.vm=3 rapido.batch=1" > "$1"/proc/cmdline
	: > "$1"/sys/class/zram-control/hot_add
	: > "$1"/sys/class/zram-control/hot_remove
	echo "22 1 8:1 / / rw - ext4 /dev/sda1 rw" > "$1"/proc/self/mountinfo
	echo "Filename Type Size Used Priority" > "$1"/proc/swaps
}

# fake_dev DIR N DISKSIZE
fake_dev() {
	local d=$1/sys/block/zram$2
	mkdir -p "$d"/holders
	echo "$3" > "$d"/disksize
	[ "$3" = 0 ] && echo 0 > "$d"/initstate || echo 1 > "$d"/initstate
	echo "lzo [lzo-rle] lz4 zstd " > "$d"/comp_algorithm
	echo 0 > "$d"/mem_limit
	echo "252:$2" > "$d"/dev
	: > "$d"/reset
	: > "$1"/dev/zram$2
}

r=$tmp/root

# --help and usage errors
run --help
check "--help: usage on stdout, exit 0" '[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && same "$exp/tool-zram-help.txt" "$tmp/out"'
run -h
check "-h: same as --help" '[ $rc -eq 0 ] && same "$exp/tool-zram-help.txt" "$tmp/out"'
run --bogus add
check "bad option: Try --help, exit 1" '[ $rc -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "^Try '\''rapido-zram --help'\''" "$tmp/err"'
run
check "no command: exit 1" '[ $rc -eq 1 ] && grep -q "no command given" "$tmp/err" && grep -q "^Try " "$tmp/err"'
run frobnicate
check "unknown command: exit 1" '[ $rc -eq 1 ] && grep -q "unknown command '\''frobnicate'\''" "$tmp/err"'
run add
check "add without --size: exit 1" '[ $rc -eq 1 ] && grep -q "add needs --size" "$tmp/err"'
run add -s 1X
check "bad size names the option and value" '[ $rc -eq 1 ] && grep -q -- "--size: invalid size '\''1X'\''" "$tmp/err"'
run add -s 1G --mem-limit=lots
check "bad mem-limit names the option and value" '[ $rc -eq 1 ] && grep -q -- "--mem-limit: invalid size '\''lots'\''" "$tmp/err"'
run add -s 99999999999999999999
check "size overflow: too large" '[ $rc -eq 1 ] && grep -q -- "--size: size '\''99999999999999999999'\'' is too large" "$tmp/err"'
run add -s 0
check "size 0 rejected" '[ $rc -eq 1 ] && grep -q "more than 0" "$tmp/err"'
run remove --size 1G 0
check "add-only option with remove" '[ $rc -eq 1 ] && grep -q -- "--size is an option of add" "$tmp/err"'
run add -s 1G --mount /mnt
check "--mount without --mkfs" '[ $rc -eq 1 ] && grep -q -- "--mount needs --mkfs" "$tmp/err"'
run add -s 1G --mkfs ../evil
check "--mkfs with a slash rejected" '[ $rc -eq 1 ] && grep -q "invalid filesystem type" "$tmp/err"'
run remove sda
check "bad device name" '[ $rc -eq 1 ] && grep -q "invalid zram device '\''sda'\''" "$tmp/err"'
run remove
check "remove without a device" '[ $rc -eq 1 ] && grep -q "remove takes one device" "$tmp/err"'

# zram not loaded
mkdir -p "$tmp/empty/sys/block" "$tmp/empty/proc"
echo "rapido.vm=1" > "$tmp/empty/proc/cmdline"
run --root "$tmp/empty" add -s 1G
check "no zram module: says to load it" '[ $rc -eq 1 ] && grep -q "zram module is not loaded: .*/sys/class/zram-control does not exist (run '\''modprobe zram'\''" "$tmp/err"'

# dry run: zram0 is set up, so a new device would come from hot_add. hot_add
# is a directory here, so reading it would fail: the plan must not try.
fake_tree "$r"
fake_dev "$r" 0 4096
rm "$r"/sys/class/zram-control/hot_add
mkdir "$r"/sys/class/zram-control/hot_add
run --root "$r" --dry-run add -s 512M -a lz4 -m 64M --mkfs btrfs --mkfs-arg=-f \
	--mkfs-arg -L --mkfs-arg "my scratch" --mount /tmp
check "dry run plan" '[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && same "$exp/tool-zram-add-dry-run.txt" "$tmp/out"'
check "dry run wrote nothing" '[ "$(cat "$r"/sys/block/zram0/disksize)" = 4096 ] && [ -z "$(ls "$r"/sys/class/zram-control/hot_add)" ]'
run --root "$r" -n add -s 1G -a lzma
check "dry run warns of an algorithm not listed" '[ $rc -eq 0 ] && grep -q "'\''lzma'\'' is not in the kernel'\''s list (lzo lzo-rle lz4 zstd)" "$tmp/err"'

# a real run on the fake tree: zram1 is free; mkfs is a stub that chats on stdout
fake_tree "$r"
fake_dev "$r" 0 4096
fake_dev "$r" 1 0
mkdir "$tmp/bin"
cat > "$tmp/bin/mkfs.ext4" <<'EOS'
#!/bin/sh
echo "mke2fs chatter"
echo "$@" > "$MKFS_LOG"
exit "${MKFS_EXIT:-0}"
EOS
chmod +x "$tmp/bin/mkfs.ext4"
export MKFS_LOG=$tmp/mkfs.log
PATH=$tmp/bin:$PATH run --root "$r/" --trace "$tmp/trace" add --size 2G --algorithm zstd \
	--mkfs ext4 --mkfs-arg -E --mkfs-arg nodiscard
check "add prints only the device path" '[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = /dev/zram1 ]'
check "trace: writes in order" 'same "$exp/tool-zram-add-trace.txt" "$tmp/trace"'
check "disksize and algorithm written" '[ "$(cat "$r"/sys/block/zram1/disksize)" = 2147483648 ] && [ "$(cat "$r"/sys/block/zram1/comp_algorithm)" = zstd ]'
check "mkfs got -F, the extra args and the device" '[ "$(cat "$MKFS_LOG")" = "-F -E nodiscard $r/dev/zram1" ]'
check "mkfs stdout went to stderr" 'grep -q "mke2fs chatter" "$tmp/err"'

# mkfs fails: the device is reset again (it was free, so not removed)
fake_tree "$r"
fake_dev "$r" 0 0
MKFS_EXIT=3 PATH=$tmp/bin:$PATH run --root "$r" --trace "$tmp/trace" add -s 1G --mkfs ext4
check "mkfs failure: exit 1 with its status" '[ $rc -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "rapido-zram: mkfs.ext4 -F /dev/zram0 failed with exit status 3" "$tmp/err"'
check "mkfs failure: device reset after" '[ "$(tail -n1 "$tmp/trace")" = "write /sys/block/zram0/reset 1" ]'
run --root "$r" add -s 1G --mkfs nosuchfs
check "missing mkfs: named" '[ $rc -eq 1 ] && grep -q "cannot run mkfs.nosuchfs: No such file or directory" "$tmp/err"'

# remove, planned: both mounts (newest first), swap, reset, hot_remove
fake_tree "$r"
fake_dev "$r" 1 4096
cat >> "$r"/proc/self/mountinfo <<'EOS'
40 22 252:1 / /mnt/scratch rw,relatime shared:5 - ext4 /dev/zram1 rw
41 22 252:2 / /mnt/other rw - ext4 /dev/zram2 rw
42 40 252:1 /d /mnt/scratch/inner rw - ext4 /dev/zram1 rw
EOS
echo "/dev/zram1 partition 4 0 -2" >> "$r"/proc/swaps
run --root "$r" --dry-run remove /dev/zram1
check "remove plan" '[ $rc -eq 0 ] && same "$exp/tool-zram-remove-dry-run.txt" "$tmp/out"'
run --root "$r" -n reset zram1
check "reset plan" '[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "write /sys/block/zram1/reset 1" ]'
run --root "$r" -n remove 7
check "remove of a missing device" '[ $rc -eq 1 ] && grep -q "no such zram device: /dev/zram7" "$tmp/err"'

# outside a rapido guest: refused unless --force; dry runs still plan
fake_tree "$r"
fake_dev "$r" 0 0
echo "BOOT_IMAGE=/vmlinuz root=/dev/sda1 xrapido.vm=1 rapido.vm=x rapido.vm= quiet" > "$r"/proc/cmdline
rm -f "$tmp/trace"
run --root "$r" --trace "$tmp/trace" add -s 1G
check "host: add refused" '[ $rc -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "^rapido-zram: refusing to add: this is not a rapido guest ($r/proc/cmdline has no rapido.vm=N), so this would change this machine'\''s own zram devices; --dry-run shows the plan, --force does it anyway$" "$tmp/err"'
check "host: nothing written, no trace made" '[ "$(cat "$r"/sys/block/zram0/disksize)" = 0 ] && [ ! -e "$tmp/trace" ]'
fake_dev "$r" 1 4096
run --root "$r" reset 1
check "host: reset refused" '[ $rc -eq 1 ] && grep -q "refusing to reset: this is not a rapido guest" "$tmp/err" && [ ! -s "$r"/sys/block/zram1/reset ]'
run --root "$r" remove zram1
check "host: remove refused" '[ $rc -eq 1 ] && grep -q "refusing to remove: this is not a rapido guest" "$tmp/err" && [ ! -s "$r"/sys/class/zram-control/hot_remove ]'
run --root "$r" --dry-run add -s 1G
check "host: a dry run still plans" '[ $rc -eq 0 ] && [ "$(head -n1 "$tmp/out")" = "write /sys/block/zram0/disksize 1073741824" ]'
run --root "$r" --force add -s 1G
check "host: --force does it" '[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = /dev/zram0 ] && [ "$(cat "$r"/sys/block/zram0/disksize)" = 1073741824 ]'
rm "$r"/proc/cmdline
run --root "$r" reset 0
check "no /proc/cmdline: refused, saying why" '[ $rc -eq 1 ] && grep -q "refusing to reset: cannot tell whether this is a rapido guest: $r/proc/cmdline: No such file or directory" "$tmp/err"'

echo "1..$n"
[ $failed -eq 0 ]
