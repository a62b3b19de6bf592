#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# afalg.sh: the afalg profile on Debian's kernel, results checked on the host
# from the shared directory: rapido-afalg-selftest's TAP has a plan and no
# "not ok" (and saw a module-only driver, so the modules were loaded first);
# rapido-afalg-sum prints what sha256sum (and md5sum .. sha512sum) print
# for 0 B, 1 B, 4 KiB, 1 MiB and 32 MiB files, spliced and --no-splice; -c
# catches a corrupted file; a missing key, an unknown algorithm and a
# nonexistent file give the exit statuses its --help documents; ./vm exits 0.
#
# Time under TCG: the full self-test (~1800 tests on every driver) and the
# 32 MiB file hashed with sha256 only (AFALG_BIG_ALGS; the profile's default
# hashes it with all six algorithms, which adds about a minute under TCG).
. "$(dirname "$0")/lib.sh"
# arm64-afalg.sh runs these checks with ARCH=arm64
[ "${ARCH:-}" = arm64 ] && need_arm64

check "guest library parses" bash -n "$TOP/autorun/lib/afalg.sh"
check "profile parses" bash -n "$TOP/autorun/afalg.sh"
check "./cut --list shows afalg" eval '"$CUT" --list | grep -q "^ *afalg"'

export AFALG_BIG_ALGS=sha256
"$CUT" afalg > "$T/cut.out" 2>&1
expect_rc "cut afalg" 0 $? || sed 's/^/# /' "$T/cut.out"
S=$T/share
mkdir -p "$S"
start=$(date +%s)
"$VM" --batch --timeout 600 --share "$S" > "$T/console" 2>&1
rc=$?
echo "# vm --batch afalg took $(( $(date +%s) - start ))s"
expect_rc "vm --batch afalg" 0 $rc
tr -d '\r' < "$T/console" > "$T/con"
grep '^afalg: ' "$T/con" | sed 's/^/# /'

# ---- the self-test ------------------------------------------------------
tap=$S/afalg-selftest.tap
check "self-test TAP written to the share" test -s "$tap"
plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$tap" | head -n1)
oks=$(grep -c '^ok ' "$tap")
check "self-test TAP has a plan (1..${plan:-?}) and $oks ok lines, as many" \
	test -n "$plan" -a "$plan" -gt 0 -a "$oks" = "${plan:-x}"
check "self-test TAP has no 'not ok' and no 'Bail out!'" \
	eval '! grep -qE "^(not ok|Bail out!)" "$tap"'
grep -E '^(not ok|Bail out!)' "$tap" | head -n 20 | sed 's/^/# /'
check "self-test ran after the modules were loaded (tests sha512-generic, a module)" \
	grep -q '^ok .* sha512-generic ' "$tap"
check "self-test TAP also on the console" grep -q "^1\.\.${plan:-x}\$" "$T/con"
grep -m1 'info: authencesn' "$tap" | sed 's/^/# /'

# ---- the hasher against coreutils ------------------------------------------
# sums_file FILE: "NAME HEX" lines, sorted
sums_file() {
	awk '{print $2, $1}' "$1" | sort
}
for alg in md5 sha1 sha224 sha256 sha384 sha512; do
	want=$S/afalg-sums/coreutils-$alg.txt
	names=$(awk '{print $2}' "$want" 2> /dev/null | sort | tr '\n' ' ')
	for path in splice no-splice; do
		got=$S/afalg-sums/$path-$alg.txt
		check "$alg $path: same lines as ${alg}sum for: $names" \
			eval 'test -s "$want" && cmp -s <(sums_file "$want") <(sums_file "$got")'
	done
done
check "sha256sum lines for every file: f0 f1 f1m f32m f4k" \
	test "$(awk '{print $2}' "$S/afalg-sums/coreutils-sha256.txt" 2> /dev/null | sort | tr '\n' ' ')" \
	= "f0 f1 f1m f32m f4k "
for path in splice no-splice; do
	for f in f0 f1 f4k f1m f32m; do
		check "sha256 $path $f: the hasher's digest is sha256sum's" \
			eval 'test "$(grep "  $f\$" "$S/afalg-sums/$path-sha256.txt")" = \
				"$(grep "  $f\$" "$S/afalg-sums/coreutils-sha256.txt")" -a \
				-n "$(grep "  $f\$" "$S/afalg-sums/$path-sha256.txt")"'
	done
	# known answers the host can state: the empty file and "a"
	check "sha256 $path: f0 is the empty message's digest" grep -qx \
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  f0" \
		"$S/afalg-sums/$path-sha256.txt"
	check "sha256 $path: f1 ('a') digest" grep -qx \
		"ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb  f1" \
		"$S/afalg-sums/$path-sha256.txt"
done

# ---- -c and the exit statuses ---------------------------------------------
codes=$S/afalg-exit-codes.txt
code() {
	awk -v k="$1" '$1 == k {print $2}' "$codes" 2> /dev/null
}
for path in splice no-splice; do
	out=$S/afalg-check-$path.txt
	check "-c $path: the corrupted f1m FAILED, the 4 others OK" \
		eval 'grep -qx "f1m: FAILED" "$out" && test "$(grep -c ": OK\$" "$out")" = 4'
	check "-c $path: the name with a backslash among them" grep -q 'b\\\{1,2\}s: OK$' "$out"
	expect_rc "-c $path with a corrupted file" 1 "$(code check-corrupted-$path)"
	check "-c $path: the same lines as sha256sum -c" cmp -s "$S/afalg-check-sha256sum.txt" "$out"
done
expect_rc "sha256sum -c with the corrupted file" 1 "$(code check-corrupted-sha256sum)"

# the statuses rapido-afalg-sum --help documents
help=$("$TOP/build/guest/rapido-afalg-sum" --help)
documented() {
	grep -q -- "^  $1  $2" <<< "$help"
}
check "--help documents 5 for key problems" documented 5 "key problem"
check "--help documents 4 for an unknown algorithm" documented 4 "unknown hash algorithm"
check "--help documents 1 for an unreadable file" documented 1 ".*a file could not be read"
expect_rc "missing key (hmac(sha256) without --key-file)" 5 "$(code missing-key)"
expect_rc "unknown algorithm (no-such-hash)" 4 "$(code unknown-alg)"
expect_rc "nonexistent file" 1 "$(code no-such-file)"
expect_rc "nonexistent file, sha256sum (the reference)" 1 "$(code no-such-file-sha256sum)"

# ---- the profile's own verdict, the kernel --------------------------------
check "profile's checks all ok" eval '! grep -q "^not ok" "$S/afalg-results.txt"'
grep '^not ok' "$S/afalg-results.txt" 2> /dev/null | sed 's/^/# /'
check "profile says PASS" grep -q '^afalg: PASS: ' "$T/con"
# the kernel's lines only: the profile's own output quotes tools' warnings
grep -vE '^(afalg: |ok |not ok |# |1\.\.)' "$T/con" > "$T/kcon"
check "kernel console clean" console_clean "$T/kcon"
check "clean power-off" grep -q "reboot: Power down" "$T/con"
[ $rc = 0 ] || grep -v '^\[' "$T/con" | grep -v '^ok ' | tail -n 40 | sed 's/^/# /'
done_testing
