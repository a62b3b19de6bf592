#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cut-kmods-rebuild.sh: ./cut's modules layer (src/cut/kmods.c) after a
# kernel rebuild. The installed kernel as a KERNEL_SRC tree whose module
# directory links the installed modules; a "rebuild" rewrites modules.dep
# and every module of the layer (new inode and mtime). Same bytes: the
# same cache entry, found without reading a module again; one module's
# bytes changed: a new layer holding them, its depmod files written by
# ./cut (depmod's bytes); a modules.order that lists none of them: depmod
# writes them (src/image/depmod.c cannot know its order). Nothing boots;
# dracut is a stub (an empty bins layer).
. "$(dirname "$0")/../boot/lib.sh"
TAP_ON_FAIL=show_run
# depmod, logged: the test counts its runs (./cut's fallback)
. "$(dirname "$0")/cut-kmods.inc"
cut_kmods_stub_needs

cat > "$T/dracut-empty" <<'EOF'
#!/bin/bash
cpio -o -H newc --quiet < /dev/null > "${!#}"
EOF
chmod +x "$T/dracut-empty"
export PATH=$T/bin:$PATH DRACUT=$T/dracut-empty

installed_kernel_tree "$T/kernel"

# the modules layer's cache key in the image
modules_key() {
	cpio -i --quiet --to-stdout rapido/layers < "$DRACUT_OUT" 2>/dev/null | awk '$2 == "modules" {print $5}'
}

run "$CUT" -v simple
expect_rc "cut simple with the kernel tree" 0 "$rc"
check "its modules layer built" test "$(state modules)" = built
k1=$(modules_key)
k1sum=$(sha256sum < "$CUT_CACHE_DIR/layers/$k1.cpio")
check "the image names a modules layer in the cache" test -f "$CUT_CACHE_DIR/layers/$k1.cpio"
check_no_depmod "without running depmod"
cpio -t --quiet < "$CUT_CACHE_DIR/layers/$k1.cpio" |
	sed -n "s|^usr/lib/modules/$rel/||p; s|^lib/modules/$rel/||p" | grep '\.ko' > "$T/kmods.list"
check "the layer holds modules" test -s "$T/kmods.list"

# rebuilt: new files, same bytes
cp --remove-destination "$m/modules.dep" "$m/modules.dep.new" && mv "$m/modules.dep.new" "$m/modules.dep"
while read -r f; do
	cp --remove-destination "$(readlink -f "$m/$f")" "$m/$f.new" && mv "$m/$f.new" "$m/$f"
done < "$T/kmods.list"
run "$CUT" -v simple
expect_rc "cut after a rebuild that kept every module's bytes" 0 "$rc"
check "the same modules layer, from the cache" test "$(modules_key)" = "$k1" -a "$(state modules)" = cached
run "$CUT" -v simple -x true
expect_rc "re-cut" 0 "$rc"
check "re-cut: the same modules layer, from the cache" \
	test "$(modules_key)" = "$k1" -a "$(state modules)" = cached

# rebuilt again, one module's bytes changed, not its size: a letter of the
# compiler's note in .comment, which depmod does not read
# (a plain .ko if there is one; a compressed one, as most distributions'
# kernels ship them, unpacked, changed and packed again as the kernel does)
first=$(grep -m 1 '\.ko$' "$T/kmods.list" || head -n 1 "$T/kmods.list")
case $first in
*.ko.xz) unz=(xz -dc) z=(xz --check=crc32 --lzma2=dict=1MiB -c) ;;
*.ko.zst) unz=(zstd -dcq) z=(zstd -qc) ;;
*.ko.gz) unz=(gzip -dc) z=(gzip -nc) ;;
*) unz=(cat) z=(cat) ;;
esac
"${unz[@]}" < "$(readlink -f "$m/$first")" > "$T/plain.ko"
off=$(grep -obUaF 'GCC: (' "$T/plain.ko" | head -n 1 | cut -d: -f1)
check "$first has a compiler note to change" test -n "$off"
printf 'X' | dd of="$T/plain.ko" bs=1 seek="${off:-0}" conv=notrunc status=none
"${z[@]}" < "$T/plain.ko" > "$m/$first.new"
mv "$m/$first.new" "$m/$first"
cp --remove-destination "$m/modules.dep" "$m/modules.dep.new" && mv "$m/modules.dep.new" "$m/modules.dep"
run "$CUT" -v simple
expect_rc "cut after a rebuild that changed $first" 0 "$rc"
k2=$(modules_key)
check "a new modules layer" test -n "$k2" -a "$k2" != "$k1" -a "$(state modules)" = built
check_no_depmod "still no depmod"
# with the on-demand modules' layer, which its depmod files name too
modules_unpack "$DRACUT_OUT" "$T/x"
got=$(find "$T/x" -path "*/modules/$rel/$first")
check "the new layer holds $first's new bytes" cmp -s "$got" "$m/$first"
check "the old layer is still in the cache, unchanged" \
	test "$(sha256sum < "$CUT_CACHE_DIR/layers/$k1.cpio" 2> /dev/null)" = "$k1sum"
# what depmod writes on a copy of the new layer is what it holds
d=$(dirname "$got")
while [ "$(basename "$d")" != "$rel" ]; do d=$(dirname "$d"); done
differ=$(depmod_differs "$d")
check "the new layer's depmod files are depmod's bytes${differ:+ (differ:$differ)}" test -z "$differ"

# a modules.order that lists none of the modules: depmod would order them
# as it reads the directory, which only depmod knows
# (counted from here: on another kmod's depmod ./cut ran it before too)
: > "$m/modules.order"
: > "$T/depmod.log"
run "$CUT" -v simple
expect_rc "cut with an empty modules.order" 0 "$rc"
check "a new modules layer, its depmod files by depmod" \
	test "$(state modules)" = built -a "$(depmod_runs)" = 1
done_testing
