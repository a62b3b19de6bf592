#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tool-zram-cli.sh: rapido-zram's command line, run against a fake sysfs tree.
#
# The tree under --root is plain directories and files, so the writes land
# in files whose contents and order (--trace) are checked. Nothing here
# mounts, unmounts or swaps anything: those steps are only planned with
# --dry-run. mkfs is a stub script put first in PATH.
. "$(dirname "$0")/../tap.sh"
bin=${RAPIDO_ZRAM:-$TOP/build/guest/rapido-zram}
exp=$TOP/tests/expected
if [ ! -x "$bin" ]; then
	echo "SKIP: $bin is not built (run make)"
	exit 77
fi
TAP_ON_FAIL=show_run

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

r=$T/root

# --help and usage errors
run "$bin" --help
check "--help: usage on stdout, exit 0" eval '[ $rc -eq 0 ] && [ ! -s "$T/err" ] && same_file "$exp/tool-zram-help.txt" "$T/out"'
run "$bin" -h
check "-h: same as --help" eval '[ $rc -eq 0 ] && same_file "$exp/tool-zram-help.txt" "$T/out"'
run "$bin" --bogus add
check "bad option: Try --help, exit 1" eval '[ $rc -eq 1 ] && [ ! -s "$T/out" ] && grep -q "^Try '\''rapido-zram --help'\''" "$T/err"'
run "$bin"
check "no command: exit 1" eval '[ $rc -eq 1 ] && grep -q "no command given" "$T/err" && grep -q "^Try " "$T/err"'
run "$bin" frobnicate
check "unknown command: exit 1" eval '[ $rc -eq 1 ] && grep -q "unknown command '\''frobnicate'\''" "$T/err"'
run "$bin" add
check "add without --size: exit 1" eval '[ $rc -eq 1 ] && grep -q "add needs --size" "$T/err"'
run "$bin" add -s 1X
check "bad size names the option and value" eval '[ $rc -eq 1 ] && grep -q -- "--size: invalid size '\''1X'\''" "$T/err"'
run "$bin" add -s 1G --mem-limit=lots
check "bad mem-limit names the option and value" eval '[ $rc -eq 1 ] && grep -q -- "--mem-limit: invalid size '\''lots'\''" "$T/err"'
run "$bin" add -s 99999999999999999999
check "size overflow: too large" eval '[ $rc -eq 1 ] && grep -q -- "--size: size '\''99999999999999999999'\'' is too large" "$T/err"'
run "$bin" add -s 0
check "size 0 rejected" eval '[ $rc -eq 1 ] && grep -q "more than 0" "$T/err"'
run "$bin" remove --size 1G 0
check "add-only option with remove" eval '[ $rc -eq 1 ] && grep -q -- "--size is an option of add" "$T/err"'
run "$bin" add -s 1G --mount /mnt
check "--mount without --mkfs" eval '[ $rc -eq 1 ] && grep -q -- "--mount needs --mkfs" "$T/err"'
run "$bin" add -s 1G --mkfs ../evil
check "--mkfs with a slash rejected" eval '[ $rc -eq 1 ] && grep -q "invalid filesystem type" "$T/err"'
run "$bin" remove sda
check "bad device name" eval '[ $rc -eq 1 ] && grep -q "invalid zram device '\''sda'\''" "$T/err"'
run "$bin" remove
check "remove without a device" eval '[ $rc -eq 1 ] && grep -q "remove takes one device" "$T/err"'

# zram not loaded
mkdir -p "$T/empty/sys/block" "$T/empty/proc"
echo "rapido.vm=1" > "$T/empty/proc/cmdline"
run "$bin" --root "$T/empty" add -s 1G
check "no zram module: says to load it" eval '[ $rc -eq 1 ] && grep -q "zram module is not loaded: .*/sys/class/zram-control does not exist (run '\''modprobe zram'\''" "$T/err"'

# dry run: zram0 is set up, so a new device would come from hot_add. hot_add
# is a directory here, so reading it would fail: the plan must not try.
fake_tree "$r"
fake_dev "$r" 0 4096
rm "$r"/sys/class/zram-control/hot_add
mkdir "$r"/sys/class/zram-control/hot_add
run "$bin" --root "$r" --dry-run add -s 512M -a lz4 -m 64M --mkfs btrfs --mkfs-arg=-f \
	--mkfs-arg -L --mkfs-arg "my scratch" --mount /tmp
check "dry run plan" eval '[ $rc -eq 0 ] && [ ! -s "$T/err" ] && same_file "$exp/tool-zram-add-dry-run.txt" "$T/out"'
check "dry run wrote nothing" eval '[ "$(cat "$r"/sys/block/zram0/disksize)" = 4096 ] && [ -z "$(ls "$r"/sys/class/zram-control/hot_add)" ]'
run "$bin" --root "$r" -n add -s 1G -a lzma
check "dry run warns of an algorithm not listed" eval '[ $rc -eq 0 ] && grep -q "'\''lzma'\'' is not in the kernel'\''s list (lzo lzo-rle lz4 zstd)" "$T/err"'

# a real run on the fake tree: zram1 is free; mkfs is a stub that chats on stdout
fake_tree "$r"
fake_dev "$r" 0 4096
fake_dev "$r" 1 0
mkdir "$T/bin"
cat > "$T/bin/mkfs.ext4" <<'EOS'
#!/bin/sh
echo "mke2fs chatter"
echo "$@" > "$MKFS_LOG"
exit "${MKFS_EXIT:-0}"
EOS
chmod +x "$T/bin/mkfs.ext4"
export MKFS_LOG=$T/mkfs.log
PATH=$T/bin:$PATH run "$bin" --root "$r/" --trace "$T/trace" add --size 2G --algorithm zstd \
	--mkfs ext4 --mkfs-arg -E --mkfs-arg nodiscard
check "add prints only the device path" eval '[ $rc -eq 0 ] && [ "$(cat "$T/out")" = /dev/zram1 ]'
check "trace: writes in order" eval 'same_file "$exp/tool-zram-add-trace.txt" "$T/trace"'
check "disksize and algorithm written" eval '[ "$(cat "$r"/sys/block/zram1/disksize)" = 2147483648 ] && [ "$(cat "$r"/sys/block/zram1/comp_algorithm)" = zstd ]'
check "mkfs got -F, the extra args and the device" eval '[ "$(cat "$MKFS_LOG")" = "-F -E nodiscard $r/dev/zram1" ]'
check "mkfs stdout went to stderr" eval 'grep -q "mke2fs chatter" "$T/err"'

# mkfs fails: the device is reset again (it was free, so not removed)
fake_tree "$r"
fake_dev "$r" 0 0
MKFS_EXIT=3 PATH=$T/bin:$PATH run "$bin" --root "$r" --trace "$T/trace" add -s 1G --mkfs ext4
check "mkfs failure: exit 1 with its status" eval '[ $rc -eq 1 ] && [ ! -s "$T/out" ] && grep -q "rapido-zram: mkfs.ext4 -F /dev/zram0 failed with exit status 3" "$T/err"'
check "mkfs failure: device reset after" eval '[ "$(tail -n1 "$T/trace")" = "write /sys/block/zram0/reset 1" ]'
run "$bin" --root "$r" add -s 1G --mkfs nosuchfs
check "missing mkfs: named" eval '[ $rc -eq 1 ] && grep -q "cannot run mkfs.nosuchfs: No such file or directory" "$T/err"'

# remove, planned: both mounts (newest first), swap, reset, hot_remove
fake_tree "$r"
fake_dev "$r" 1 4096
cat >> "$r"/proc/self/mountinfo <<'EOS'
40 22 252:1 / /mnt/scratch rw,relatime shared:5 - ext4 /dev/zram1 rw
41 22 252:2 / /mnt/other rw - ext4 /dev/zram2 rw
42 40 252:1 /d /mnt/scratch/inner rw - ext4 /dev/zram1 rw
EOS
echo "/dev/zram1 partition 4 0 -2" >> "$r"/proc/swaps
run "$bin" --root "$r" --dry-run remove /dev/zram1
check "remove plan" eval '[ $rc -eq 0 ] && same_file "$exp/tool-zram-remove-dry-run.txt" "$T/out"'
run "$bin" --root "$r" -n reset zram1
check "reset plan" eval '[ $rc -eq 0 ] && [ "$(cat "$T/out")" = "write /sys/block/zram1/reset 1" ]'
run "$bin" --root "$r" -n remove 7
check "remove of a missing device" eval '[ $rc -eq 1 ] && grep -q "no such zram device: /dev/zram7" "$T/err"'

# outside a rapido guest: refused unless --force; dry runs still plan
fake_tree "$r"
fake_dev "$r" 0 0
echo "BOOT_IMAGE=/vmlinuz root=/dev/sda1 xrapido.vm=1 rapido.vm=x rapido.vm= quiet" > "$r"/proc/cmdline
rm -f "$T/trace"
run "$bin" --root "$r" --trace "$T/trace" add -s 1G
check "host: add refused" eval '[ $rc -eq 1 ] && [ ! -s "$T/out" ] && grep -q "^rapido-zram: refusing to add: this is not a rapido guest ($r/proc/cmdline has no rapido.vm=N), so this would change this machine'\''s own zram devices; --dry-run shows the plan, --force does it anyway$" "$T/err"'
check "host: nothing written, no trace made" eval '[ "$(cat "$r"/sys/block/zram0/disksize)" = 0 ] && [ ! -e "$T/trace" ]'
fake_dev "$r" 1 4096
run "$bin" --root "$r" reset 1
check "host: reset refused" eval '[ $rc -eq 1 ] && grep -q "refusing to reset: this is not a rapido guest" "$T/err" && [ ! -s "$r"/sys/block/zram1/reset ]'
run "$bin" --root "$r" remove zram1
check "host: remove refused" eval '[ $rc -eq 1 ] && grep -q "refusing to remove: this is not a rapido guest" "$T/err" && [ ! -s "$r"/sys/class/zram-control/hot_remove ]'
run "$bin" --root "$r" --dry-run add -s 1G
check "host: a dry run still plans" eval '[ $rc -eq 0 ] && [ "$(head -n1 "$T/out")" = "write /sys/block/zram0/disksize 1073741824" ]'
run "$bin" --root "$r" --force add -s 1G
check "host: --force does it" eval '[ $rc -eq 0 ] && [ "$(cat "$T/out")" = /dev/zram0 ] && [ "$(cat "$r"/sys/block/zram0/disksize)" = 1073741824 ]'
rm "$r"/proc/cmdline
run "$bin" --root "$r" reset 0
check "no /proc/cmdline: refused, saying why" eval '[ $rc -eq 1 ] && grep -q "refusing to reset: cannot tell whether this is a rapido guest: $r/proc/cmdline: No such file or directory" "$T/err"'

done_testing
