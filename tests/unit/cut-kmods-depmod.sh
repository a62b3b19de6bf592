#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cut-kmods-depmod.sh: the depmod files ./cut writes itself in its modules
# layer (src/image/depmod.c) where depmod's order is its hash tables' (no
# modules.order, or one whose last line lacks its newline), where one
# module is missing from modules.order (it goes last), and where the
# builtin lists are missing (depmod writes empty indexes), and where the
# modules are compressed (.ko.xz, .ko.zst: the host's real modules
# recompressed): each time the bytes the host's depmod (kmod 30 on Debian
# 12, 34.2 on Debian 13) writes with -a -b on a copy of the layer, and no
# depmod ran.
# The installed kernel as a KERNEL_SRC tree whose module directory links
# the installed modules and holds copies of the lists, changed per case.
# Nothing boots; dracut is a stub (an empty bins layer).
. "$(dirname "$0")/../boot/lib.sh"
TAP_ON_FAIL=show_run
# depmod, logged: ./cut should run none
. "$(dirname "$0")/cut-kmods.inc"
cut_kmods_stub_needs
printf '#!/bin/bash\ncpio -o -H newc --quiet < /dev/null > "${!#}"\n' > "$T/dracut-empty"
chmod +x "$T/dracut-empty"
export PATH=$T/bin:$PATH DRACUT=$T/dracut-empty

installed_kernel_tree "$T/kernel"
# a profile of many modules that needs no configuration
prof=lio_local

# compare CASE: cut; depmod on a copy of the layer writes its bytes; the
# layer's module directory in $T/dir
compare() {
	local what=$1 key d differ
	run "$CUT" -v "$prof"
	expect_rc "$what: cut $prof" 0 "$rc"
	key=$(layer modules "$DRACUT_OUT")
	rm -rf "$T/x"
	modules_unpack "$DRACUT_OUT" "$T/x"
	d=$(ls -d "$T/x"/usr/lib/modules/* "$T/x"/lib/modules/* 2> /dev/null | head -n 1)
	echo "$d" > "$T/dir"
	differ=$(depmod_differs "$d")
	check "$what: a new layer whose depmod files are depmod's bytes${differ:+ (differ:$differ)}" \
		test -z "$differ" -a "$(state modules)" = built -a -n "$key"
	check_no_depmod "$what: no depmod ran"
}

compare "the lists as installed"
check "depmod --version was asked once (kmod $("$real_depmod" --version | sed -n 's/^kmod version //p'), the writer's)" \
	test "$(depmod_asked)" = 1
d=$(cat "$T/dir")
# the profile's modules, as modules.order names them
# (a compressed module, .ko.xz or .ko.zst, is named .ko there)
find "$d" -name '*.ko' -o -name '*.ko.*' | sed "s|^$d/||; s|\.ko\.[a-z]*$|.ko|" | sort > "$T/mods"
check "the layer holds modules ($(wc -l < "$T/mods"))" test "$(wc -l < "$T/mods")" -gt 10

printf '%s' "$(cat "/lib/modules/$rel/modules.order")" > "$m/modules.order"
compare "modules.order's last line without its newline"
rm "$m/modules.order"
compare "no modules.order"
grep -vxF "$(head -n 1 "$T/mods")" "/lib/modules/$rel/modules.order" > "$m/modules.order"
compare "modules.order without $(head -n 1 "$T/mods")"
rm "$m/modules.builtin" "$m/modules.builtin.modinfo"
compare "no modules.builtin nor modules.builtin.modinfo"
cp "/lib/modules/$rel/modules.builtin" "/lib/modules/$rel/modules.builtin.modinfo" \
	"/lib/modules/$rel/modules.order" "$m/"

# the profile's modules recompressed, .ko.xz and .ko.zst by turns (the
# writer reads them itself), and the tree's modules.dep naming them
# (recompress: tests/boot/lib.sh)
i=0
while read -r mod; do
	f=$(ls "$m/$mod" "$m/$mod".* 2> /dev/null | head -n 1)
	[ -n "$f" ] || continue
	ext=zst
	[ $((i++ % 2)) = 0 ] || ext=xz
	recompress "$f" "$ext"
done < "$T/mods"
"$real_depmod" -a -b "$T/kernel/mods" "$rel"
check "the tree's modules.dep names .ko.zst and .ko.xz modules" \
	eval 'grep -q "\.ko\.zst:" "$m/modules.dep" && grep -q "\.ko\.xz:" "$m/modules.dep"'
# modinfo, logged: the firmware of a compressed module is read from its ELF
printf '#!/bin/bash\necho "$*" >> "%s"\nexec modinfo "$@"\n' "$T/modinfo.log" > "$T/bin/modinfo"
sed -i "s|exec modinfo|exec $(command -v modinfo)|" "$T/bin/modinfo"
chmod +x "$T/bin/modinfo"
: > "$T/depmod.log"
compare "the modules compressed, .ko.zst and .ko.xz"
ld=$(cat "$T/dir")
check "its layer holds them compressed, as the tree has them" \
	eval '[ -n "$(find "$ld" -name "*.ko.zst")" ] && [ -n "$(find "$ld" -name "*.ko.xz")" ]'
check "no modinfo ran for their firmware (read from their ELF)" test ! -e "$T/modinfo.log"

# a .ko.zst that expands past the cap is not read: named, depmod writes
# the indexes (a hostile module must not grow to gigabytes in ./cut)
big=$(grep -m1 '\.ko\.zst:' "$m/modules.dep" | cut -d: -f1)
cp "$m/$big" "$T/big.save"
head -c $((300 << 20)) /dev/zero | zstd -q -c > "$m/$big"
run "$CUT" -v "$prof"
check "a .ko.zst past 256 MiB: named, not read, depmod runs (rc $rc)" \
	eval 'grep -q "$big decompresses to more than 256 MiB: refused" "$T/err" && [ "$(depmod_runs)" -ge 1 ]'
cp "$T/big.save" "$m/$big"

# another kmod's depmod: ./cut says so once and lets it write the indexes
printf '#!/bin/bash\n[ "$1" != --version ] || { echo "kmod version 34.0"; echo "+ZSTD +XZ"; exit 0; }\necho "$*" >> "%s"\nexec "%s" "$@"\n' \
	"$T/depmod.log" "$real_depmod" > "$T/bin/depmod"
: > "$T/depmod.log"
run "$CUT" "$prof"
expect_rc "kmod 34.0's depmod: cut $prof" 0 "$rc"
msg="kmod 34.0's depmod: its indexes are built by depmod, the built-in writer is proven for kmod 30 and 34.2 only"
check "kmod 34.0's depmod: ./cut says so, once" test "$(grep -cxF -- "cut: $msg" "$T/err")" = 1
check "kmod 34.0's depmod: it ran, on the stage (-a -b DIR $rel)" grep -qx -- "-a -b .* $rel" "$T/depmod.log"
key=$(layer modules "$DRACUT_OUT")
rm -rf "$T/x"
modules_unpack "$DRACUT_OUT" "$T/x"
d=$(ls -d "$T/x"/usr/lib/modules/* "$T/x"/lib/modules/* 2> /dev/null | head -n 1)
differ=$(depmod_differs "$d")
check "kmod 34.0's depmod: its layer holds depmod's bytes${differ:+ (differ:$differ)}" \
	test -n "$key" -a -z "$differ"
done_testing
