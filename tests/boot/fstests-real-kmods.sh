#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests-real-kmods.sh: fstests_local with a kernel whose modules are
# compressed, the real xfstests' generic/001 on xfs passing (issue 45).
# The installed kernel as a KERNEL_SRC tree whose module directory has
# the profile's modules recompressed, .ko.zst and .ko.xz by turns (xfs.ko.zst,
# zram.ko.xz), and its modules.dep, by depmod, naming them: ./cut's
# modules layer is written without depmod (src/image/depmod.c reads them
# itself), holds them compressed, and the guest's modprobe (kmod, built
# with xz and zstd) loads both kinds: /proc/modules after the run lists
# xfs and zram, whose only files in the image are compressed. One boot.
# tests/run timeout: 1800s
. "$(dirname "$0")/lib.sh"
installed_kernel_or_skip
command -v mkfs.xfs > /dev/null || { echo "SKIP: mkfs.xfs not installed (xfsprogs)"; exit 77; }
for c in xz zstd cpio; do
	command -v $c > /dev/null || { echo "SKIP: $c not installed"; exit 77; }
done
suite_tree xfstests
X=$SUITE
installed_kernel_tree "$T/kernel"
printf 'FSTESTS_FS=xfs\nFSTESTS_ZRAM_SIZE=512M\nFSTESTS_LOGWRITES_SIZE=0\n' > "$RAPIDO_CONF"
printf 'FSTESTS_SRC=%s\nFSTESTS_TESTS=generic/001\n' "$X" >> "$RAPIDO_CONF"

# the modules of the profile's layer, as the uncompressed tree has them
"$CUT" -v fstests_local > "$T/out" 2>&1
expect_rc "cut fstests_local (uncompressed modules)" 0 $?
key=$(layer modules "$DRACUT_OUT")
cpio -t --quiet < "$CUT_CACHE_DIR/layers/$key.cpio" | sed -n "s|^.*lib/modules/$rel/||p" |
	grep -E '\.ko(\.[a-z]+)?$' > "$T/mods"
check "the layer has modules ($(wc -l < "$T/mods")), xfs and zram among them" \
	eval 'grep -q "/xfs\.ko" "$T/mods" && grep -q "/zram\.ko" "$T/mods"'
i=0
while read -r mod; do
	case $mod in
	*/xfs.ko*) ext=zst ;; */zram.ko*) ext=xz ;;
	*) ext=zst; [ $((i++ % 2)) = 0 ] || ext=xz ;;
	esac
	recompress "$m/$mod" $ext
done < "$T/mods"
depmod -a -b "$T/kernel/mods" "$rel"

# depmod, logged: ./cut runs none where the writer knows the host's kmod
mkdir -p "$T/bin"
printf '#!/bin/bash\necho "$*" >> "%s"\nexec "%s" "$@"\n' "$T/depmod.log" "$(command -v depmod)" > "$T/bin/depmod"
chmod +x "$T/bin/depmod"
start=$(date +%s)
PATH=$T/bin:$PATH "$CUT" -v fstests_local -x 'grep -E "^(xfs|zram) " /proc/modules' > "$T/out" 2>&1
rc=$?
expect_rc "cut fstests_local, its modules .ko.zst and .ko.xz ($(( $(date +%s) - start ))s)" 0 $rc
: >> "$T/depmod.log"
check "no depmod ran (the writer read them)" eval '! grep -qvx -- --version "$T/depmod.log"'
key=$(layer modules "$DRACUT_OUT")
cpio -t --quiet < "$CUT_CACHE_DIR/layers/$key.cpio" > "$T/layer"
check "the layer holds xfs.ko.zst and zram.ko.xz, no xfs.ko nor zram.ko" \
	eval 'grep -q "/xfs\.ko\.zst$" "$T/layer" && grep -q "/zram\.ko\.xz$" "$T/layer" &&
		! grep -qE "/(xfs|zram)\.ko$" "$T/layer"'

start=$(date +%s)
"$VM" --batch --timeout 3000 --results "$T/res" > "$T/console" 2> "$T/err"
rc=$?
expect_rc "./vm: generic/001 on xfs ($(( $(date +%s) - start ))s)" 0 $rc
check "the guest printed: generic/001 pass" test "$(xfstests_printed "$T/console")" = "generic/001 pass"
check "junit.xml says the same" \
	test "$(testcases "$T/res/junit.xml" | grep -v '^kernel: ')" = "generic/001 pass"
check "the guest's modprobe loaded xfs (.ko.zst) and zram (.ko.xz)" \
	eval 'guest_text "$T/console" | grep -q "^xfs " && guest_text "$T/console" | grep -q "^zram "'
check "kernel console clean" console_clean "$T/console"
diag
done_testing
