#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cache.sh: layered images from the cut cache (docs/CACHE.md), real dracut.
# A cached cut, a --standalone one and a --no-cache one are the same bytes;
# a re-cut with other extras runs no dracut and reuses every layer; each
# input change rebuilds exactly the layers it feeds: a kernel module file
# replaced (by the same bytes: nothing; by others: the modules layer), a
# binary upgraded, dracut.conf.d edited, a tree file touched, a profile's
# bins list edited, a helper rebuilt (the helpers layer only). One boot of
# a cached image under TCG. --cache-info lists every kind, and which
# program of a bins layer asks for the loader.
. "$(dirname "$0")/lib.sh"

installed_kernel_or_skip

# cutv DESCRIPTION ARGS...: a verbose cut that must succeed
cutv() {
	local d=$1
	shift
	if "$CUT" -v "$@" > "$T/out" 2> "$T/err"; then
		ok "$d"
	else
		not_ok "$d"
		sed 's/^/# /' "$T/err" | tail -n 20
	fi
}
# states WANT: "modules bins tree" states after the last cut, e.g. "cached built -"
states() {
	local m b t
	m=$(state modules); b=$(state bins); t=$(state tree)
	echo "${m:--} ${b:--} ${t:--}"
}

# A private copy of the tree, the dracut config, a helper and a profile
# whose inputs this test may change.
cp -r "$TOP/tests/fixtures/xfstests" "$T/tree"
rm "$RD/dracut.conf.d"
cp -r "$TOP/dracut.conf.d" "$RD/dracut.conf.d"
rm "$RD/build"
mkdir -p "$RD/build/guest"
cp "$TOP"/build/guest/rapido-* "$RD/build/guest/"
mkdir -p "$T/bin"
cp /bin/true "$T/bin/rapido-test-tool"
export PATH=$T/bin:$PATH
cat > "$RD/autorun/cachetest.sh" <<'EOP'
#!/bin/bash
#@ description: cache test profile
#@ bins: rapido-test-tool cat
#@ modules: zram
#@ helpers: zram
#@ conf-optional: TREE
#@ files: ${TREE}:/tree
read -r line < /tree/README
echo "cachetest: $line"
EOP
printf 'TREE=%s\n' "$T/tree" > "$RAPIDO_CONF"

# 1. same bytes, whichever way the image was made
cutv "cold cut" cachetest
check "  built every layer (modules bins tree)" test "$(states)" = "built built built"
check "  the image file is head + tail: much smaller than its layers" \
	test "$(stat -c %s "$DRACUT_OUT")" -lt $((4 << 20))
cp "$DRACUT_OUT" "$T/cached.img"
cutv "cut --standalone from the cache" --standalone cachetest
check "  every layer came from the cache" test "$(states)" = "cached cached cached"
cp "$DRACUT_OUT" "$T/standalone.img"
"$CUT" --no-cache cachetest > "$T/out" 2>&1
expect_rc "cut --no-cache" 0 $?
check "  --no-cache wrote nothing into the cache" \
	test "$(find "$CUT_CACHE_DIR/layers" -newer "$T/standalone.img" -name '*.cpio' | wc -l)" = 0
check "  cached --standalone and --no-cache images are byte-identical" cmp -s "$T/standalone.img" "$DRACUT_OUT"
check "  the cached image names the same layers (same head)" \
	test "$(cpio -i --quiet --to-stdout rapido/layers < "$T/cached.img")" = \
	"$(cpio -i --quiet --to-stdout rapido/layers < "$T/standalone.img")"

# 2. a re-cut with other extras reuses every layer
start=$EPOCHREALTIME
cutv "re-cut with -x" cachetest -x 'echo re-cut'
check "  no layer rebuilt (took $(awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN {printf "%.3f", e - s}') s)" \
	test "$(states) $(state helpers)" = "cached cached cached cached"
mods=$(layer modules "$DRACUT_OUT") bins=$(layer bins "$DRACUT_OUT") tree=$(layer tree "$DRACUT_OUT")

# 3. one input at a time; each rebuilds exactly its layers
touch "$T/tree/common/rc"
cutv "tree file touched" cachetest
check "  only the tree layer rebuilt" test "$(states)" = "cached cached built"
check "  under a new key; modules and bins keys kept" test "$(layer tree "$DRACUT_OUT") $(layer modules "$DRACUT_OUT") $(layer bins "$DRACUT_OUT")" = "$(layer tree "$DRACUT_OUT") $mods $bins" -a "$(layer tree "$DRACUT_OUT")" != "$tree"
tree=$(layer tree "$DRACUT_OUT")

cp --remove-destination /bin/true "$T/bin/rapido-test-tool"
cutv "binary upgraded (new file in PATH)" cachetest
check "  only the bins layer rebuilt" test "$(states)" = "cached built cached"
check "  modules and tree keys kept" test "$(layer modules "$DRACUT_OUT") $(layer tree "$DRACUT_OUT")" = "$mods $tree"
bins=$(layer bins "$DRACUT_OUT")

sed -i 's/^#@ bins: rapido-test-tool cat$/#@ bins: rapido-test-tool cat uname/' "$RD/autorun/cachetest.sh"
cutv "profile's bins list edited" cachetest
check "  only the bins layer rebuilt, under a new key" \
	test "$(states) $(layer modules "$DRACUT_OUT")" = "cached built cached $mods" -a "$(layer bins "$DRACUT_OUT")" != "$bins"
bins=$(layer bins "$DRACUT_OUT")

echo "# edited by cache.sh" > "$RD/dracut.conf.d/99-test.conf"
cutv "dracut.conf.d edited" cachetest
# the modules layer is ./cut's own (kmods.c): dracut's configuration is not its input
check "  dracut's bins layer rebuilt; the modules layer (./cut's) and the tree kept" \
	test "$(states)" = "cached built cached"
check "  the bins layer under a new key, the modules key kept" \
	test "$(layer modules "$DRACUT_OUT")" = "$mods" -a "$(layer bins "$DRACUT_OUT")" != "$bins"
bins=$(layer bins "$DRACUT_OUT")

printf '\nrapido-cache-test-marker\n' >> "$RD/build/guest/rapido-zram"
cutv "helper rebuilt" cachetest
check "  only the helpers layer rebuilt" test "$(states) $(state helpers)" = "cached cached cached built"
check "  the new helper is in it" \
	grep -qa rapido-cache-test-marker "$CUT_CACHE_DIR/layers/$(layer helpers "$DRACUT_OUT").cpio"

# a #! script given with -b: dracut adds its interpreter, which the bins
# key does not name; replaced by a program that needs another library,
# the bins layer is built again under the same key, and its libraries
# must be the new program's, not the cached ones of the old (the libs
# layer's key takes the bins layer's bytes)
# (outside /tmp, which the guest mounts over: ./cut refuses a -b path there)
P=$(mktemp -d /var/tmp/rapido-cache.XXXXXX) || exit 1
trap '[ -n "${KEEP_TEST_DIR:-}" ] || rm -rf "$T" "$P"' EXIT
cp /bin/true "$P/interp"
printf '#!%s\n' "$P/interp" > "$P/script"
chmod +x "$P/script"
# names of the image's libs layer, from the cache
libs_names() {
	cpio -t --quiet < "$CUT_CACHE_DIR/layers/$(layer libs "$DRACUT_OUT").cpio"
}
cutv "a #! script given with -b" cachetest -b "$P/script"
libs=$(layer libs "$DRACUT_OUT")
check "  no libpcre2 in its libs layer yet" eval '! libs_names | grep -q "libpcre2-8\.so"'
cp /usr/bin/grep "$P/interp.new" && mv "$P/interp.new" "$P/interp"
cutv "its interpreter replaced by grep, which needs libpcre2" cachetest -b "$P/script"
check "  the libs layer under a new key" test -n "$libs" -a "$(layer libs "$DRACUT_OUT")" != "$libs"
check "  holding libpcre2" eval 'libs_names | grep -q "libpcre2-8\.so"'

# kernel modules: a KERNEL_SRC tree whose modules are a hard-linked copy of the installed ones
ktree=$T/linux
mkdir -p "$ktree/arch/x86/boot" "$ktree/include/config" "$T/mods/lib/modules"
ln -s "/boot/vmlinuz-$rel" "$ktree/arch/x86/boot/bzImage"
cp "/boot/config-$rel" "$ktree/.config"
echo "$rel" > "$ktree/include/config/kernel.release"
cp "/lib/modules/$rel/modules.builtin" "$ktree/modules.builtin"
# (tree_copy: where $T is on another file system, a tmpfs /tmp as Debian 13
# has, a plain cp -a after cp -al would nest the copy one level down)
if tree_copy "/lib/modules/$rel" "$T/mods/lib/modules/$rel"; then
	export KERNEL_SRC=$ktree KERNEL_INSTALL_MOD_PATH=$T/mods
	cutv "KERNEL_SRC kernel" cachetest
	mods=$(layer modules "$DRACUT_OUT") bins=$(layer bins "$DRACUT_OUT")
	ko=$(find "$T/mods/lib/modules/$rel" -name 'zram.ko*' | head -n 1)
	cp --remove-destination "/lib/modules/$rel/${ko#$T/mods/lib/modules/$rel/}" "$ko"
	cutv "a module file replaced by the same bytes (modules_install of one module)" cachetest
	# the modules layer is keyed by its files' bytes (kmods.c): found again, not rebuilt
	check "  no layer rebuilt" test "$(states)" = "cached cached cached"
	check "  the same modules and bins keys" \
		test "$(layer modules "$DRACUT_OUT") $(layer bins "$DRACUT_OUT")" = "$mods $bins"
	{ cat "/lib/modules/$rel/${ko#$T/mods/lib/modules/$rel/}"; printf 'rebuilt'; } > "$ko.new" &&
		mv "$ko.new" "$ko"
	cutv "a module file replaced by other bytes" cachetest
	check "  only the modules layer rebuilt, under a new key" \
		test "$(states) $(layer bins "$DRACUT_OUT")" = "built cached cached $bins" -a \
		"$(layer modules "$DRACUT_OUT")" != "$mods"
	unset KERNEL_SRC KERNEL_INSTALL_MOD_PATH
else
	not_ok "cannot copy /lib/modules/$rel"
fi

# 4. boot a cached image (the layers come from the cache through ./vm)
cutv "cut for a boot" cachetest -x 'test -x /usr/bin/rapido-zram && while read -r m _; do [ "$m" = zram ] && exit 9; done < /proc/modules'
# every layer's record marked used by the boot, those it leaves out too
# (ondemand here: no share, NIC or results port), else the cache's
# least-recently-used eviction takes first what the next boot with a
# share needs
touch -d @1 "$CUT_CACHE_DIR"/layers/*.meta
check "  from the cache" test "$(states)" = "cached cached cached"
"$VM" --batch --timeout 400 > "$T/console" 2>&1
expect_rc "the cached image boots; zram (modules layer) loaded, the helper (tail) there" 9 $?
stale=
for k in $(cpio -i --quiet --to-stdout rapido/layers < "$DRACUT_OUT" | awk '$1 == "layer" {print $5}'); do
	[ -n "$(find "$CUT_CACHE_DIR/layers/$k.meta" -newermt @2)" ] || stale="$stale $k"
done
check "  every layer of the image marked used, ondemand's too (stale:${stale:- none})" test -z "$stale"
check "  ondemand, left out of this boot, is one of them" \
	grep -q '^layer ondemand .* when ' <(cpio -i --quiet --to-stdout rapido/layers < "$DRACUT_OUT")
check "  the tree layer is in the guest" guest_says "$T/console" "cachetest: "
check "  kernel console clean" console_clean "$T/console"
diag
"$VM" --dry-run > /dev/null 2> "$T/err"
check "./vm --dry-run warns that qemu alone cannot boot a cached image" grep -q -- "--standalone" "$T/err"

"$CUT" --cache-info > "$T/info"
check "cut --cache-info names the cache and the layers" \
	bash -c "grep -q '^cache: $CUT_CACHE_DIR' '$T/info' && grep -q '^modules ' '$T/info' && grep -q '^tree ' '$T/info'"
check "  the on-demand modules' and the libraries' layers; a bins layer names its program that asks for the loader" \
	bash -c "grep -q '^ondemand ' '$T/info' && grep -q '^libs ' '$T/info' &&
		grep -Eq '^bins .*; /[^ ]*/(cat|rapido-test-tool) asks for the loader$' '$T/info'"
done_testing
