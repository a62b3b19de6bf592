#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cut-files.sh: a profile's "#@ files:" trees reach the image, real dracut,
# no boot. A plain path (mpath_local's /lib/multipath, lio_local's
# checkout-relative lio.spec) is always copied; a ${KEY} tree only when KEY
# is set; a glob pattern (python3.inc's /usr/lib/python3.[0-9]*) names
# one path, copied to that path, and none or two are refused. Each tree is looked for in the image's tree layer (the cache's
# KEY.cpio named by rapido/layers). A regression test: the one-parse
# rewrite of #@ files: left every plain-path tree out, so multipathd found
# no path checker ("Checker 'tur' not found") and mpath-failover failed.
. "$(dirname "$0")/lib.sh"

installed_kernel_or_skip
export CUT_CACHE_DIR=$T/cache
TAP_ON_FAIL=show_run

# tree_has PROFILE IMAGE PATH: the image's tree layers hold PATH
tree_has() {
	local k

	for k in $(cpio -i --quiet --to-stdout rapido/layers < "$2" |
		   awk '$1 == "layer" && $2 == "tree" {print $5}'); do
		cpio -t --quiet < "$CUT_CACHE_DIR/layers/$k.cpio" | grep -qxF -- "$3" && return 0
	done
	return 1
}

run "$CUT" -q mpath_local -o "$T/mpath.img"
check "mpath_local: cut" test $rc -eq 0
check "  /lib/multipath (a plain path) is in its tree layer" \
	tree_has mpath_local "$T/mpath.img" usr/lib/multipath/libchecktur.so

run "$CUT" -q lio_local -o "$T/lio.img"
check "lio_local: cut" test $rc -eq 0
check "  autorun/configfs/lio.spec (relative to the checkout) is in its tree layer" \
	tree_has lio_local "$T/lio.img" usr/share/rapido/configfs/lio.spec

# a ${KEY} tree: in the image when KEY is set, left out when it is not
mkdir -p "$T/src/sub" && echo here > "$T/src/sub/file"
printf 'FSTESTS_EXCLUDE_FILE=%s\n' "$T/src/sub/file" > "$T/with.conf"
: > "$T/without.conf"
RAPIDO_CONF=$T/with.conf run "$CUT" -q fstests_local -o "$T/with.img"
check "fstests_local with FSTESTS_EXCLUDE_FILE set: cut" test $rc -eq 0
check "  its \${FSTESTS_EXCLUDE_FILE} tree is in the image" \
	tree_has fstests_local "$T/with.img" etc/rapido/fstests.exclude
RAPIDO_CONF=$T/without.conf run "$CUT" -q fstests_local -o "$T/without.img"
check "fstests_local without it: cut" test $rc -eq 0
check "  the tree is left out" \
	bash -c '! cpio -i --quiet --to-stdout rapido/layers < "$1" | grep -q "layer tree"' _ "$T/without.img"

# a pattern (python3.inc: /usr/lib/python3.[0-9]*, the interpreter's
# versioned standard library) names one path, copied to the same path
py=$(ls -d /usr/lib/python3.[0-9]* 2> /dev/null)
if [ "$(wc -l <<< "$py")" != 1 ] || [ ! -x /usr/bin/python3 ]; then
	skip "unionmount: python3's standard library" "no single /usr/lib/python3.N here: '$py'"
else
	RAPIDO_CONF=$T/without.conf run "$CUT" -q unionmount -o "$T/um.img"
	check "unionmount (#@ include: python3): cut" test $rc -eq 0
	check "  ${py#/}/os.py (/usr/lib/python3.[0-9]*) is in its tree layer" \
		tree_has unionmount "$T/um.img" "${py#/}/os.py"
fi
mkdir -p "$T/pat/a1" "$T/pat/a2" "$T/pat/b1"
for w in 'a[0-9]*' 'b[0-9]*' 'c[0-9]*'; do
	printf '#!/bin/bash\n#@ description: a pattern\n#@ files: %s:%s\n' \
		"$T/pat/$w" "$T/pat/$w" > "$RD/autorun/pat-${w%%\[*}.sh"
done
RAPIDO_CONF=$T/without.conf run "$CUT" -q pat-b -o "$T/pat.img"
check "a pattern that names one directory: cut" test $rc -eq 0
check "  copied to its own path" tree_has pat-b "$T/pat.img" "${T#/}/pat/b1"
run_err "a pattern that names two paths is refused" \
	"$T/pat/a\[0-9\]\*: more than one path matches (files entry of profile pat-a: the pattern must name one path)" \
	"$CUT" -q pat-a -o "$T/pat.img"
run_err "a pattern that names none is refused" \
	"$T/pat/c\[0-9\]\*: no such file or directory (files entry of profile pat-c" \
	"$CUT" -q pat-c -o "$T/pat.img"
done_testing
