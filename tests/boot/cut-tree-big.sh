#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cut-tree-big.sh: a "#@ files:" tree big enough that ./cut stats it on
# every core (src/cut/treeread.c, from 1024 entries), real dracut, no
# boot. Its layer holds exactly the tree's files, directories and
# symlinks (targets kept), in the walk's order, and leaves its fifo out
# with a warning; the same tree cuts to the same key; a change in the last
# directory (the last thread's range), in the first, or a symlink's target
# gives a new key.
. "$(dirname "$0")/lib.sh"

installed_kernel_or_skip
TAP_ON_FAIL=show_run

tree=$T/tree
mkdir -p "$tree/a" "$tree/m/n/o" "$tree/z" "$tree/empty"
for i in $(seq 1 600); do echo "a$i" > "$tree/a/f$i"; echo "z$i" > "$tree/z/f$i"; done
for i in $(seq 1 50); do echo "o$i" > "$tree/m/n/o/g$i"; done
echo top > "$tree/README"
ln -s ../README "$tree/m/readme-link"
ln -s /nonexistent/target "$tree/z/dangling"
mkfifo "$tree/m/fifo"
cat > "$RD/autorun/bigtree.sh" <<'EOP'
#!/bin/bash
#@ description: a big tree
#@ bins: cat
#@ conf-optional: TREE
#@ files: ${TREE}:/big
cat /big/README
EOP
printf 'TREE=%s\n' "$tree" > "$RAPIDO_CONF"

# tree_layer IMAGE: the cache's cpio of the image's tree layer
tree_layer() { echo "$CUT_CACHE_DIR/layers/$(layer tree "$1").cpio"; }

run "$CUT" -v bigtree -o "$T/one.img"
check "a tree of $(find "$tree" | wc -l) entries: cut" test $rc -eq 0
check "  the fifo left out, with a warning" grep -q "1 special file.*left out" "$T/err"
cpio -t --quiet < "$(tree_layer "$T/one.img")" | grep '^big/' | sed 's|^big/||' > "$T/listed"
(cd "$tree" && find . -mindepth 1 ! -type p | sed 's|^\./||') > "$T/want"
check "  the layer holds every file, directory and symlink, and nothing else ($(wc -l < "$T/listed"))" \
	cmp -s <(sort "$T/listed") <(sort "$T/want")
# the walk's order: a directory's names in byte order, each directory before what it holds
awk -F/ '{ p = $0; sub("/?[^/]*$", "", p); print p "\t" $NF }' "$T/listed" > "$T/pairs"
check "  in the walk's order (each directory's names sorted, a directory before its entries)" \
	env LC_ALL=C bash -c 'awk -F"\t" "{ if (\$1 in last && last[\$1] >= \$2) bad = 1; last[\$1] = \$2 } END { exit bad }" "$1" &&
		 awk -F"\t" "{ seen[\$1 (\$1 == \"\" ? \"\" : \"/\") \$2] = 1; if (\$1 != \"\" && !(\$1 in seen)) bad = 1 } END { exit bad }" "$1"' \
	_ "$T/pairs"
mkdir -p "$T/x" && (cd "$T/x" && cpio -id --quiet < "$(tree_layer "$T/one.img")")
check "  symlinks keep their targets" \
	test "$(readlink "$T/x/big/m/readme-link") $(readlink "$T/x/big/z/dangling")" = "../README /nonexistent/target"
check "  files keep their bytes" diff -r -q --no-dereference "$T/x/big/a" "$tree/a"
key=$(layer tree "$T/one.img")

run "$CUT" -v bigtree -o "$T/two.img"
check "the same tree again: the same key, from the cache" \
	test "$(layer tree "$T/two.img") $(state tree "$T/out")" = "$key cached"

# changes_key DESCRIPTION COMMAND...: after COMMAND, the tree's key is new
changes_key() {
	local d=$1 new
	shift
	"$@"
	run "$CUT" -q bigtree -o "$T/changed.img"
	new=$(layer tree "$T/changed.img")
	check "$d: a new key" test $rc -eq 0 -a -n "$new" -a "$new" != "$key"
	key=$new
}
changes_key "a file in the last directory rewritten (same size)" \
	bash -c 'echo z599 > "$1/z/f600" && touch -d "2001-01-01" "$1/z/f600"' _ "$tree"
changes_key "a file in the first directory touched" touch -d "2002-02-02" "$tree/a/f1"
changes_key "a symlink's target changed" ln -sfn /other/target "$tree/z/dangling"
changes_key "an empty directory added deep down" mkdir "$tree/m/n/o/new"

done_testing
