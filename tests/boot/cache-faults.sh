#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cache-faults.sh: the cut cache under stress, real dracut. Parallel cuts of
# different profiles and of the same one (each runs its dracut, one entry
# per layer); a corrupted layer is rebuilt by ./cut and refused (then
# removed) by ./vm, never booted; a deleted or evicted layer gives ./vm a
# clear error and ./cut a rebuild; a full cache disk (a small tmpfs) still
# gives a good standalone image. Boots under TCG after the rebuilds.
. "$(dirname "$0")/lib.sh"

cp -r "$TOP/tests/fixtures/xfstests" "$T/tree"
cat > "$RD/autorun/cachetest.sh" <<'EOP'
#!/bin/bash
#@ description: cache fault test profile
#@ bins: cat
#@ modules: zram
#@ files: /TREE:/tree
read -r line < /tree/README
echo "cachetest: $line"
EOP
sed -i "s|/TREE:|$T/tree:|" "$RD/autorun/cachetest.sh"

# entries: the number of complete entries (layer and record) in a cache dir
entries() {
	local n=0 f
	for f in "$1"/layers/*.meta; do
		[ -e "$f" ] && [ -e "${f%.meta}.cpio" ] && n=$((n + 1))
	done
	echo $n
}
# layer_path KIND IMAGE: the cache file of the image's KIND layer
layer_path() {
	echo "$CUT_CACHE_DIR/layers/$(layer "$1" "$2").cpio"
}
# boot IMAGE WANT DESCRIPTION
boot() {
	"$VM" --batch --timeout 400 "$1" > "$T/console" 2>&1
	expect_rc "$3" "$2" $?
}

# 1. two profiles at once, on a cold cache
"$CUT" -v simple -o "$T/simple.img" > "$T/p1" 2>&1 & p1=$!
"$CUT" -v cachetest -o "$T/ct.img" > "$T/p2" 2>&1 & p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
check "parallel cuts of two profiles both succeed ($r1, $r2)" test "$r1$r2" = 00
sed 's/^/# /' "$T/p1" "$T/p2" | grep -v '^# dracut' | head -n 20
check "  ten layers in the cache (modules, bins, libs of each; one ondemand, the same modules; one tree; one busybox, one helpers, the same programs)" test "$(entries "$CUT_CACHE_DIR")" = 10
check "  no temporaries left in the cache" test -z "$(ls -A "$CUT_CACHE_DIR/tmp")"
"$CUT" -v cachetest -o "$T/ct2.img" > "$T/out" 2>&1
check "  a re-cut finds every layer of the parallel cut" \
	test "$(state modules "$T/out") $(state bins "$T/out") $(state helpers "$T/out") $(state tree "$T/out")" = "cached cached cached cached"
check "  and writes the same image" cmp -s "$T/ct.img" "$T/ct2.img"

# 2. the same profile twice at once, on a cold cache: neither waits for
# the other's dracut; the second to store a layer uses the first's entry
export CUT_CACHE_DIR=$T/cache2
"$CUT" -v cachetest -o "$T/s1.img" > "$T/s1" 2>&1 & p1=$!
"$CUT" -v cachetest -o "$T/s2.img" > "$T/s2" 2>&1 & p2=$!
check "parallel cuts of one profile run dracut at once" dracut_overlap $p1 $p2
wait $p1; r1=$?
wait $p2; r2=$?
check "  both succeed ($r1, $r2)" test "$r1$r2" = 00
check "  seven layers in the cache (modules, ondemand, bins, libs, busybox, helpers, tree), no layer without its record" \
	test "$(entries "$CUT_CACHE_DIR") $(ls "$CUT_CACHE_DIR"/layers/*.cpio | wc -l)" = "7 7"
check "  no temporaries left in the cache" test -z "$(ls -A "$CUT_CACHE_DIR/tmp")"
check "  the two images are the same bytes" cmp -s "$T/s1.img" "$T/s2.img"
"$CUT" --no-cache cachetest -o "$T/nc.img" > /dev/null 2>&1
"$CUT" --standalone cachetest -o "$T/sa.img" > /dev/null 2>&1
check "  and name layers that are the --no-cache image's" cmp -s "$T/sa.img" "$T/nc.img"
export CUT_CACHE_DIR=$T/cache

# 3. a corrupted layer: ./vm refuses it and removes it, ./cut rebuilds it
"$CUT" --no-cache cachetest -o "$T/ref.img" > /dev/null 2>&1
check "reference image (--no-cache)" test -s "$T/ref.img"
bins=$(layer_path bins "$T/ct.img")
chmod u+w "$bins"
printf 'X' | dd of="$bins" bs=1 seek=4000 conv=notrunc status=none
chmod a-w "$bins"
boot "$T/ct.img" 125 "./vm refuses an image whose cached layer is corrupted"
check "  and says so" grep -q "is corrupted" "$T/console"
check "  the layer left the cache" test ! -e "$bins"
"$CUT" -v cachetest -o "$T/ct.img" > "$T/out" 2>&1
check "  ./cut rebuilds the bins layer, nothing else" \
	test "$(state modules "$T/out") $(state bins "$T/out") $(state tree "$T/out")" = "cached built cached"
"$CUT" --standalone cachetest -o "$T/sa.img" > /dev/null 2>&1
check "  rebuilt image = the --no-cache one" cmp -s "$T/sa.img" "$T/ref.img"

# corrupted behind ./vm's back and found by ./cut (the layer's stat changed)
mods=$(layer_path modules "$T/ct.img")
chmod u+w "$mods"
printf 'Y' | dd of="$mods" bs=1 seek=3000 conv=notrunc status=none
chmod a-w "$mods"
"$CUT" -v cachetest -o "$T/ct.img" > "$T/out" 2>&1
check "./cut notices a written-to layer and rebuilds it" \
	test "$(state modules "$T/out")" = built -a -n "$(grep 'changed since it was stored' "$T/out")"
"$CUT" --standalone cachetest -o "$T/sa.img" > /dev/null 2>&1
check "  rebuilt image = the --no-cache one" cmp -s "$T/sa.img" "$T/ref.img"
boot "$T/ct.img" 0 "the rebuilt cached image boots"
check "  the tree is there" guest_says "$T/console" "cachetest: TEST FIXTURE"
diag

# 4. a deleted layer
tree=$(layer_path tree "$T/ct.img")
rm -f "$tree"
boot "$T/ct.img" 125 "./vm refuses an image whose layer was deleted"
check "  naming it and the way out" bash -c "grep -q 'is gone' '$T/console' && grep -q -- '--standalone' '$T/console'"
"$CUT" -v cachetest -o "$T/ct.img" > "$T/out" 2>&1
check "  ./cut rebuilds just that layer" \
	test "$(state modules "$T/out") $(state bins "$T/out") $(state tree "$T/out")" = "cached cached built"

# 5. eviction: a 1M cap keeps only what the last cut uses
CUT_CACHE_SIZE=1M "$CUT" simple -o "$T/simple.img" > "$T/out" 2>&1
check "a cut over a small cap succeeds and says the cap is too small" \
	grep -q "exceed CUT_CACHE_SIZE" "$T/out"
check "  only simple's six layers stay (modules, ondemand, bins, libs, busybox, helpers)" test "$(entries "$CUT_CACHE_DIR")" = 6
boot "$T/ct.img" 125 "./vm refuses the image whose layers were evicted"
check "  naming a missing layer" grep -q "is gone (evicted or removed" "$T/console"
"$CUT" cachetest -o "$T/ct.img" > /dev/null 2>&1
boot "$T/ct.img" 0 "after a re-cut it boots"
check "  the tree is there" guest_says "$T/console" "cachetest: TEST FIXTURE"
diag

# 6. a full cache disk
small=$T/small
mkdir -p "$small"
if ! may_mount; then
	for d in "succeeds" "says why it is standalone" "is the --no-cache image" \
		"leaves no temporaries" "no layer without its record"; do
		skip "a cut with a full cache disk: $d" "$why_no_mount"
	done
elif ! mount -t tmpfs -o size=3M tmpfs "$small" 2> "$T/mount.err"; then
	not_ok "mount a 3 MB tmpfs for the full cache disk: $(cat "$T/mount.err")"
else
	CUT_CACHE_DIR=$small "$CUT" cachetest -o "$T/full.img" > "$T/out" 2>&1
	expect_rc "a cut with a full cache disk succeeds" 0 $?
	check "  saying why the image is standalone" \
		bash -c "grep -q 'No space left on device' '$T/out' && grep -q '(standalone)' '$T/out'"
	check "  and it is the --no-cache image" cmp -s "$T/full.img" "$T/ref.img"
	check "  no temporaries left on the cache disk" test -z "$(ls -A "$small/tmp")"
	check "  no layer without its record" \
		test "$(ls "$small"/layers/*.cpio 2>/dev/null | wc -l)" = "$(entries "$small")"
	umount "$small"
fi
done_testing
