#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cut-files.sh: a profile's "#@ files:" trees reach the image, real dracut,
# no boot. A plain path (mpath_local's /lib/multipath, lio_local's
# checkout-relative lio.spec) is always copied; a ${KEY} tree only when KEY
# is set. Each tree is looked for in the image's tree layer (the cache's
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
done_testing
