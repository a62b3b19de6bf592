#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tool-afalg-selftest.sh: rapido-afalg-selftest on the host: every stored vector
# recomputed with openssl, refhash.c against coreutils, the --list plan from a
# /proc/crypto fixture, and the exit-77 SKIP when the kernel has no AF_ALG.
. "$(dirname "$0")/../tap.sh"
cd "$TOP" || exit 1
bin=${AFALG_SELFTEST:-build/guest/rapido-afalg-selftest}
fixture=tests/fixtures/afalg-selftest/proc-crypto-x86_64

if [ ! -x "$bin" ]; then
	echo "1..0 # $bin is not built (run make)"
	exit 1
fi
if ! command -v openssl >/dev/null; then
	echo "1..0 # SKIP openssl is not installed (apt-get install openssl)"
	exit 77
fi

# bytes of a dumped spec: x:HEX or r:HH*COUNT, written to file $2
spec_to_file() {
	local s=$1 out=$2
	case $s in
	x:*) printf '%b' "$(sed 's/../\\x&/g' <<<"${s#x:}")" >"$out" ;;
	r:*) local b=${s:2:2} cnt=${s#*\*}
	     head -c "$cnt" /dev/zero | tr '\0' "\\$(printf '%03o' "0x$b")" >"$out" ;;
	*) return 1 ;;
	esac
}
# hex of a dumped key spec (openssl -macopt hexkey:)
spec_to_hex() {
	spec_to_file "$1" "$T/k" && od -An -v -tx1 "$T/k" | tr -d ' \n'
}
hexof() { od -An -v -tx1 | tr -d ' \n'; }
aes_ecb() { printf '%b' "$(sed 's/../\\x&/g' <<<"$2")" |
	openssl enc -aes-128-ecb -K "$1" -nopad | hexof; }

# GF(2^128) multiply as in the GCM spec (algorithm 1), on two 64-bit halves.
gf_mul() {
	local xh=$1 xl=$2 vh=$3 vl=$4 zh=0 zl=0 i bit lsb
	for ((i = 0; i < 128; i++)); do
		if ((i < 64)); then bit=$(((xh >> (63 - i)) & 1)); else bit=$(((xl >> (127 - i)) & 1)); fi
		if ((bit)); then zh=$((zh ^ vh)); zl=$((zl ^ vl)); fi
		lsb=$((vl & 1))
		vl=$((((vl >> 1) & 0x7fffffffffffffff) | ((vh & 1) << 63)))
		vh=$(((vh >> 1) & 0x7fffffffffffffff))
		if ((lsb)); then vh=$((vh ^ (0xe1 << 56))); fi
	done
	GH=$zh GL=$zl
}
half() { echo $(((16#${1:0:8} << 32) | 16#${1:8:8})); }
# GHASH_H(A, C) with the length block; prints 32 hex digits
ghash() {
	local h=$1 a=$2 c=$3 blocks="" x hh hl yh=0 yl=0 b
	hh=$(half "${h:0:16}") hl=$(half "${h:16:16}")
	for x in "$a" "$c"; do
		while [ $(( ${#x} % 32 )) -ne 0 ]; do x+=0; done
		for ((b = 0; b < ${#x}; b += 32)); do blocks+=" ${x:b:32}"; done
	done
	blocks+=" $(printf '%016x%016x' $((${#2} / 2 * 8)) $((${#3} / 2 * 8)))"
	for b in $blocks; do
		gf_mul $((yh ^ $(half "${b:0:16}"))) $((yl ^ $(half "${b:16:16}"))) "$hh" "$hl"
		yh=$GH yl=$GL
	done
	printf '%016x%016x' "$yh" "$yl"
}
xor_hex() { local a=$1 b=$2 i out=""
	for ((i = 0; i < ${#a}; i += 2)); do out+=$(printf '%02x' $((16#${a:i:2} ^ 16#${b:i:2}))); done
	echo "$out"; }

# 1. command line
check "--help exits 0 with a usage" bash -c "'$bin' --help | grep -q '^Usage:'"
"$bin" --no-such-option >/dev/null 2>"$T/err"; rc=$?
check "a bad option exits 1 with a hint" test $rc -eq 1 -a -n "$(grep "Try '" "$T/err")"

# 2. no AF_ALG here: the SKIP plan and 77 (a host with AF_ALG runs it for real)
"$bin" --proc-crypto "$fixture" --only 'rapido-no-such-alg' >"$T/out" 2>&1; rc=$?
if [ $rc -eq 77 ]; then
	check "no AF_ALG: exit 77 with '1..0 # SKIP AF_ALG not available'" \
		grep -qx '1..0 # SKIP AF_ALG not available' "$T/out"
	check "no AF_ALG: the hint names CONFIG_CRYPTO_USER_API_HASH" \
		grep -q 'CONFIG_CRYPTO_USER_API_HASH' "$T/out"
else
	check "AF_ALG is available here: the ENOENT test ran and passed (rc $rc)" test $rc -eq 0
	skip "no AF_ALG: the SKIP plan" "AF_ALG available, no SKIP plan to check"
fi

# 3. the plan from a /proc/crypto fixture
"$bin" --list --proc-crypto "$fixture" >"$T/list"; rc=$?
check "--list --proc-crypto exits 0" test $rc -eq 0
for d in sha256-ni sha256-avx2 sha256-avx sha256-ssse3 sha256-generic; do
	check "--list binds hash driver $d" grep -q "^# impl hash $d: listed" "$T/list"
	check "--list binds hmac($d)" grep -q "^# impl hmac hmac($d): hmac template" "$T/list"
done
check "--list: every vector of sha256-avx2 through the 4 paths" \
	test "$(grep -c '^[0-9]* - sha256-avx2 ' "$T/list")" -eq $((4 * 9))
internal='__[^:]*\|ghash[^:]*\|crc32c[^:]*\|sha3-[^:]*\|aes-aesni'
check "--list: internal drivers and algorithms without vectors are not bound" \
	test "$(grep -c -- "^# impl [a-z]* \\($internal\\):" "$T/list")" -eq 0
announced=$(sed -n 's/^# \([0-9]*\) tests:$/\1/p' "$T/list")
check "--list: the numbering matches the announced count ($announced)" \
	test "$(grep -c '^[0-9]* - ' "$T/list")" -eq "$announced"
"$bin" --list --proc-crypto /nonexistent >/dev/null 2>&1; rc=$?
check "--proc-crypto with a missing file exits 1" test $rc -eq 1

# 4. every stored vector against openssl
"$bin" --dump-vectors >"$T/vec" || not_ok "--dump-vectors"
nh=0 nm=0 nc=0
while read -r kind alg id f1 f2 f3 f4 f5 f6; do
	case $kind in
	hash)
		spec_to_file "$f1" "$T/m" || { not_ok "$alg $id: bad spec"; continue; }
		got=$(openssl dgst "-$alg" -r "$T/m" | cut -d' ' -f1)
		check "openssl $alg $id ($f3) = $f2" test "$got" = "$f2"
		nh=$((nh + 1)) ;;
	hmac)
		spec_to_file "$f2" "$T/m" || { not_ok "hmac $alg $id: bad spec"; continue; }
		got=$(openssl dgst "-$alg" -mac HMAC -macopt "hexkey:$(spec_to_hex "$f1")" -r "$T/m" |
		      cut -d' ' -f1)
		check "openssl hmac($alg) $id (first $f4 bytes)" test "${got:0:$((2 * f4))}" = "$f3"
		nm=$((nm + 1)) ;;
	cipher)
		key=${f1#x:} iv=${f2#x:} aad=${f3#x:} pt=${f4#x:} ct=${f5#x:} tag=${f6#x:}
		spec_to_file "$f4" "$T/p"
		if [ "$alg" = "cbc(aes)" ]; then
			got=$(openssl enc -aes-128-cbc -K "$key" -iv "$iv" -nopad <"$T/p" | hexof)
			check "openssl aes-128-cbc $id encrypt" test "$got" = "$ct"
			spec_to_file "$f5" "$T/c"
			got=$(openssl enc -d -aes-128-cbc -K "$key" -iv "$iv" -nopad <"$T/c" | hexof)
			check "openssl aes-128-cbc $id decrypt" test "$got" = "$pt"
		else
			# openssl enc has no GCM: CTR from inc32(J0) gives the text,
			# E(K, J0) xor GHASH_H(A, C) with H = E(K, 0) the tag.
			got=$(openssl enc -aes-128-ctr -K "$key" -iv "${iv}00000002" <"$T/p" | hexof)
			check "openssl aes-128-ctr + GHASH: $id ciphertext" test "$got" = "$ct"
			h=$(aes_ecb "$key" 00000000000000000000000000000000)
			ej0=$(aes_ecb "$key" "${iv}00000001")
			got=$(xor_hex "$(ghash "$h" "$aad" "$ct")" "$ej0")
			check "openssl aes-128-ecb + GHASH: $id tag" test "$got" = "$tag"
		fi
		nc=$((nc + 1)) ;;
	esac
done < <(grep -v '^#' "$T/vec")
check "dumped 57 hash, 42 HMAC and 3 cipher vectors ($nh/$nm/$nc)" \
	test "$nh/$nm/$nc" = "57/42/3"
# the GHASH above must itself be right: GCM spec test case 1 (empty P and A)
check "bash GHASH reproduces GCM test case 1's tag" test "$(xor_hex \
	"$(ghash "$(aes_ecb 00000000000000000000000000000000 00000000000000000000000000000000)" '' '')" \
	"$(aes_ecb 00000000000000000000000000000000 00000000000000000000000000000001)")" = \
	58e2fccefa7e3061367f1d57a4e7455a

# 5. refhash.c against coreutils on every length 0..300, across blocks, and 1 MiB
mkdir "$T/r"
openssl enc -aes-128-ctr -K 000102030405060708090a0b0c0d0e0f -iv 0 -nopad \
	</dev/zero 2>/dev/null | head -c 1048576 >"$T/r/big"
for ((l = 0; l <= 300; l++)); do head -c $l "$T/r/big" >"$T/r/len$l"; done
head -c 1000000 /dev/zero | tr '\0' a >"$T/r/million-a"
for a in md5 sha1 sha224 sha256 sha384 sha512; do
	"$bin" --ref-sum $a "$T"/r/* >"$T/ref.$a"
	"${a}sum" "$T"/r/* >"$T/cu.$a"
	check "refhash $a = ${a}sum on 303 files (lengths 0-300, 1 MiB, a million 'a')" \
		cmp -s "$T/ref.$a" "$T/cu.$a"
done

done_testing
