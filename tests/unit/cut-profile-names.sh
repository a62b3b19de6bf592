#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cut-profile-names.sh: upstream Rapido's profile names (src/conf/profalias.c)
# are taken by ./cut, which says what it cuts and applies their settings;
# a mistyped profile gets the nearest name; ./cut --list shows the aliases,
# ./cut --locate the file a name means;
# ./cut --help documents the exit status.
. "$(dirname "$0")/../tap.sh"
bin=$TOP/cut
if [ ! -x "$bin" ]; then
	echo "SKIP: $bin is not built (run make)"
	exit 77
fi
unset FSTESTS_FS FSTESTS_ZONED RAPIDO_PROFILE_PATH
export RAPIDO_CONF=$T/rapido.conf XDG_CONFIG_HOME=$T/xdg
TAP_ON_FAIL=show_run
: > "$RAPIDO_CONF"

# ./cut alone, a first user's try: where the names are and which to start with
run "$bin"
check "./cut alone: exit 1" exits 1
check "  points at ./cut --list and simple" contains "$T/err" \
	"cut: no profile given (./cut --list shows the profiles; ./cut simple is the smallest)"

run "$bin" --dry-run fstests_xfs
check "fstests_xfs --dry-run: exit 0" exits 0
check "  says what it maps to" contains "$T/err" \
	"fstests_xfs is upstream Rapido's name: cutting fstests_local with FSTESTS_FS=xfs"

# issue 43 #5: Rapido's fstests_exfat, fstests_udf and fstests_ntfs3 (it has
# no fstests_f2fs); FSTESTS_FS's module and its mkfs and fsck are in the
# image only with that value
run "$bin" --dry-run fstests_exfat
check "fstests_exfat --dry-run: exit 0" exits 0
check "  says what it maps to" contains "$T/err" \
	"fstests_exfat is upstream Rapido's name: cutting fstests_local with FSTESTS_FS=exfat"
check "  exfat's module and mkfs.exfat, fsck.exfat in the image" \
	sh -c "grep -q \" exfat \" '$T/out' && grep -q '/mkfs.exfat ' '$T/out' && grep -q '/fsck.exfat ' '$T/out'"
run "$bin" --dry-run fstests_udf
check "fstests_udf --dry-run: exit 0, mkudffs in the image" \
	sh -c "[ $rc = 0 ] && grep -q ' udf ' '$T/out' && grep -q '/mkudffs ' '$T/out'"
run "$bin" --dry-run fstests_local
check "fstests_local (btrfs): no exfat, f2fs or udf module or program" \
	sh -c "[ $rc = 0 ] && ! grep -qE ' (exfat|f2fs|udf) |mkfs\.(exfat|f2fs)|mkudffs' '$T/out'"
# Debian 12's kernel has no ntfs3 (CONFIG_NTFS3_FS unset): refused before
# boot, naming the module; a kernel with it gets it in the image
run "$bin" --dry-run fstests_ntfs3
if [ $rc = 0 ]; then
	check "fstests_ntfs3: ntfs3's module and mkfs.ntfs in the image" \
		sh -c "grep -q ' ntfs3 ' '$T/out' && grep -q '/mkfs.ntfs ' '$T/out'"
else
	check "fstests_ntfs3 on a kernel without ntfs3: refused before boot, naming the module" \
		sh -c "[ $rc = 1 ] && grep -q \"kernel module 'ntfs3' not found for kernel .*FSTESTS_FS names it for profile fstests_local\" '$T/err'"
fi

run "$bin" --dry-run -q fstests_xfs
check "fstests_xfs -q: exit 0, nothing on stderr" test $rc = 0 -a ! -s "$T/err"

# the first hour: a suite profile cut without its suite (#@ suite) says so on
# one line, naming the key, where to set it and what the image still does
run "$bin" --dry-run fstests_xfs
check "fstests_xfs without FSTESTS_SRC: cut (exit 0), saying xfstests is not in it" contains "$T/err" \
	"cut: fstests_local: xfstests is not in the image: FSTESTS_SRC is unset (set it in rapido.conf or the environment; docs/profiles.md, fstests_local); without it: a shell with FSTESTS_FS on /mnt/test and the scratch disks made, and no test run"
check "  on one line" test "$(grep -c 'is not in the image' "$T/err")" = 1
mkdir -p "$T/xfstests"
FSTESTS_SRC=$T/xfstests run "$bin" --dry-run fstests_xfs
check "  with FSTESTS_SRC: no such line" sh -c "[ $rc = 0 ] && ! grep -q 'is not in the image' '$T/err'"
run "$bin" --dry-run ltp
check "ltp without LTP_SRC or LTP_DIR: both keys named" sh -c "[ $rc = 0 ] && grep -q \
	'cut: ltp: LTP is not in the image: LTP_SRC and LTP_DIR are unset (set one in' '$T/err'"
LTP_DIR=$T/xfstests run "$bin" --dry-run ltp
check "  LTP_DIR alone is the suite" sh -c "[ $rc = 0 ] && ! grep -q 'is not in the image' '$T/err'"

# the setting is applied: a rapido.conf value fstests_local refuses is overridden
echo FSTESTS_FS=zfs > "$RAPIDO_CONF"
run "$bin" --dry-run fstests_local
check "fstests_local with FSTESTS_FS=zfs: refused (exit 1)" exits 1
check "  naming the key" contains "$T/err" "FSTESTS_FS: expected btrfs, xfs, ext4, f2fs, exfat, udf or ntfs3, got 'zfs'"
run "$bin" --dry-run fstests_xfs
check "fstests_xfs with rapido.conf's FSTESTS_FS=zfs: FSTESTS_FS=xfs wins (exit 0)" exits 0
: > "$RAPIDO_CONF"

FSTESTS_FS=btrfs run "$bin" --dry-run fstests_xfs
check "fstests_xfs with FSTESTS_FS=btrfs in the environment: refused (exit 1)" exits 1
check "  saying why" contains "$T/err" \
	"fstests_xfs is fstests_local with FSTESTS_FS=xfs, but the environment sets FSTESTS_FS=btrfs"
FSTESTS_FS=xfs run "$bin" --dry-run fstests_xfs
check "fstests_xfs with FSTESTS_FS=xfs in the environment: exit 0" exits 0

run "$bin" --dry-run simple-example
check "simple-example ('-' for '_'): simple" contains "$T/err" \
	"simple-example is upstream Rapido's name: cutting simple"

run "$bin" --dry-run lio-local
check "lio-local (Rapido's spelling): lio_local, said" contains "$T/err" \
	"lio-local is upstream Rapido's spelling: cutting lio_local"

run "$bin" fstest_local
check "a typo: exit 1" exits 1
check "  did you mean fstests_local" contains "$T/err" "unknown profile 'fstest_local' (did you mean fstests_local?)"
run "$bin" --kconfig fstests_btrf
check "a typo of an alias: did you mean it" contains "$T/err" "(did you mean fstests_btrfs?)"
run "$bin" nosuchthing
check "nothing near: exit 1" exits 1
check "  unknown profile" contains "$T/err" "unknown profile 'nosuchthing'"
check "  and no suggestion" bash -c "! grep -q 'did you mean' '$T/err'"

# a profile of the user's own under an alias's name is the user's
mkdir -p "$T/mine"
printf '#@ description: mine\n' > "$T/mine/fstests_xfs.sh"
RAPIDO_PROFILE_PATH=$T/mine run "$bin" --list
check "--list: a user's fstests_xfs hides the alias" \
	bash -c "[ \$(grep -c '^fstests_xfs ' '$T/out') = 1 ] && grep -q '^fstests_xfs  *mine' '$T/out'"
RAPIDO_PROFILE_PATH=$T/mine run "$bin" --dry-run fstests_xfs
check "  and is what ./cut cuts: exit 0" exits 0
check "  with no alias said" bash -c "! grep -q 'upstream Rapido' '$T/err'"

# --locate: the file a name means, for host/install-deps (no "cutting" said)
run "$bin" --locate fstests_xfs
check "--locate fstests_xfs: fstests_local's file, nothing on stderr" \
	eval '[ $rc = 0 ] && out_is "$TOP/autorun/fstests_local.sh" && [ ! -s "$T/err" ]'
run "$bin" --locate lio-local
check "--locate lio-local: lio_local's" eval '[ $rc = 0 ] && out_is "$TOP/autorun/lio_local.sh"'
RAPIDO_PROFILE_PATH=$T/mine run "$bin" --locate fstests_xfs
check "--locate: the user's fstests_xfs first" eval '[ $rc = 0 ] && out_is "$T/mine/fstests_xfs.sh"'
run "$bin" --locate fstest_local
check "--locate fstest_local: exit 1, nothing printed, the nearest named" \
	eval '[ $rc = 1 ] && [ ! -s "$T/out" ] && grep -qF "(did you mean fstests_local?)" "$T/err"'

run "$bin" --list
check "--list: exit 0" exits 0
check "  shows fstests_xfs and what it maps to" contains "$T/out" \
	"upstream Rapido's name for fstests_local with FSTESTS_FS=xfs"
check "  shows simple_example" contains "$T/out" "upstream Rapido's name for simple"

# every row of the table names a shipped profile, and a setting ./cut takes
bad=
for a in $(awk '/ upstream Rapido.s name for / { print $1 }' "$T/out"); do
	"$bin" -q --kconfig "$a" > /dev/null 2>&1 || bad="$bad $a"
done
check "every alias's profile loads (cut --kconfig NAME):${bad:- all}" test -z "$bad"

run "$bin" --help
check "--help: the exit status section" contains "$T/out" "Exit status:"
check "  128+N for a signal" contains "$T/out" " 128+N  stopped by signal N"
done_testing
