#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tool-afalg-sum.sh: rapido-afalg-sum as a program: usage, messages and exit codes;
# without AF_ALG the documented status 3, with AF_ALG digests equal to coreutils'.
# AFSUM_BIN=path runs another build of it, AFSUM_AFALG=yes|no says whether the
# kernel has AF_ALG (e.g. inside a guest without perl or python).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${AFSUM_BIN:-$top/build/guest/rapido-afalg-sum}
prog=rapido-afalg-sum
if [ ! -x "$bin" ]; then
	echo "not built: $bin (run make)"
	exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

n=0 failed=0
pass() { n=$((n + 1)); echo "ok $n - $*"; }
fail() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }

# run CMD...: stdout to ./out, stderr to ./err, status to $rc
run() { "$@" > out 2> err; rc=$?; }

# expect DESC STATUS [EXACT-STDERR]: check the last run
expect() {
	local desc=$1 want=$2
	if [ "$rc" != "$want" ]; then
		fail "$desc: exit $rc, want $want"
		sed 's/^/#   stderr: /' err
		return
	fi
	if [ $# -ge 3 ] && [ "$(cat err)" != "$3" ]; then
		fail "$desc: stderr"
		echo "#   want: $3"
		sed 's/^/#   saw:  /' err
		return
	fi
	pass "$desc (exit $want)"
}

# same DESC FILE1 FILE2: byte-identical
same() {
	if cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1"
		od -c "$2" | head -5 | sed 's/^/#   want: /'
		od -c "$3" | head -5 | sed 's/^/#   saw:  /'
	fi
}

try="Try '$prog --help' for more information."
noalg="$prog: AF_ALG not available: load af_alg/algif_hash or enable CONFIG_CRYPTO_USER_API_HASH"
printf w > plain
: > empty
printf k > key

# ---- usage -------------------------------------------------------------
run "$bin" --help
expect "--help" 0 ""
for want in "Usage: $prog [OPTION]... [FILE]..." "Exit status:" "  0  " "  1  " "  2  bad usage" \
	"  3  AF_ALG not available" "  4  unknown hash algorithm" "  5  key problem" \
	"  6  an AF_ALG operation failed" "--key-file=FILE" "--key-fd=N" "--no-splice"; do
	if grep -qF -- "$want" out; then
		pass "--help mentions '$want'"
	else
		fail "--help lacks '$want'"
	fi
done
run "$bin" --version
expect "--version" 0 ""
run "$bin" --bogus
expect "unknown option" 2
if [ "$(tail -n1 err)" = "$try" ]; then
	pass "unknown option: Try line"
else
	fail "unknown option: Try line"
fi
run "$bin" -a
expect "-a without argument" 2
run "$bin" --tag -t plain
expect "--tag -t" 2 "$prog: --tag does not support --text mode
$try"
run "$bin" -c -z plain
expect "-c -z" 2 "$prog: the --zero option is not supported when verifying checksums
$try"
run "$bin" --status plain
expect "--status without -c" 2 "$prog: the --status option is meaningful only when verifying checksums
$try"
run "$bin" --key-fd 3x plain
expect "--key-fd 3x" 2 "$prog: invalid file descriptor '3x' for --key-fd
$try"

# ---- key problems come before the kernel is asked ----------------------
run "$bin" -a 'hmac(sha256)' plain
expect "keyed hash without key" 5 "$prog: hmac(sha256) needs a key: use --key-file or --key-fd"
run "$bin" -a 'hmac(sha256)' --key-file nosuch plain
expect "unreadable key file" 5 "$prog: cannot open key file nosuch: No such file or directory"
run "$bin" -a 'hmac(sha256)' --key-file empty plain
expect "empty key" 5 "$prog: key from empty is empty"
run "$bin" -a 'hmac(sha256)' --key-fd 9 plain 9< empty
expect "empty key on a descriptor" 5 "$prog: key from file descriptor 9 is empty"
long=$(printf 'x%.0s' $(seq 64))
run "$bin" -a "$long" plain
expect "64-byte algorithm name" 4 \
	"$prog: unknown hash algorithm '$long': names are at most 63 bytes; see /proc/crypto"

# ---- the kernel ----------------------------------------------------------
# Does this kernel have AF_ALG? Ask it without the binary (38 = AF_ALG, 5 = SOCK_SEQPACKET),
# or believe AFSUM_AFALG=yes|no (a guest without perl or python).
if [ -n "${AFSUM_AFALG:-}" ]; then
	afalg=$AFSUM_AFALG
elif command -v perl > /dev/null; then
	perl -e 'socket(my $s, 38, 5, 0) or exit 1' && afalg=yes || afalg=no
elif command -v python3 > /dev/null; then
	python3 -c 'import socket; socket.socket(38, 5, 0)' 2> /dev/null && afalg=yes || afalg=no
else
	afalg=unknown
fi
echo "# AF_ALG on this kernel: $afalg"

if [ "$afalg" = no ]; then
	run "$bin" plain
	expect "no AF_ALG: a file" 3 "$noalg"
	[ -s out ] && fail "no AF_ALG: nothing on stdout" || pass "no AF_ALG: nothing on stdout"
	sha256sum plain > sums 2> /dev/null || printf '%s  plain\n' 0 > sums
	run "$bin" -c sums
	expect "no AF_ALG: --check" 3 "$noalg"
	rc=0; echo data | "$bin" > out 2> err || rc=$?
	expect "no AF_ALG: a pipe" 3 "$noalg"
	run "$bin" -a md5 --tag plain
	expect "no AF_ALG: md5 --tag" 3 "$noalg"
	run "$bin" -a 'hmac(sha256)' --key-file key plain
	expect "no AF_ALG: hmac with a key" 3 "$noalg"
elif [ "$afalg" = yes ]; then
	head -c 1048577 /dev/urandom > big
	printf x > 'a\b'
	printf y > "$(printf 'n\nl')"
	for alg in md5 sha1 sha224 sha256 sha384 sha512; do
		if ! command -v ${alg}sum > /dev/null; then
			fail "${alg}sum missing: cannot compare"
			continue
		fi
		for opt in "" --tag --no-splice -z; do
			copt=$opt
			[ "$opt" = --no-splice ] && copt=
			${alg}sum $copt empty plain big 'a\b' "n
l" > want 2>&1
			run "$bin" -a $alg $opt empty plain big 'a\b' "n
l"
			expect "$alg $opt" 0 ""
			same "$alg $opt: same lines as ${alg}sum" want out
		done
	done
	sha256sum < big > want
	rc=0; cat big | "$bin" --debug > out 2> err || rc=$?
	expect "a pipe" 0 \
		"$prog: -: 1048577 bytes, 0 spliced, read+send (not a regular file or block device)"
	same "a pipe: same as sha256sum" want out
	run "$bin" --debug - < big
	expect "stdin from a file is spliced" 0 "$prog: -: 1048577 bytes, 1048577 spliced, splice"
	same "stdin from a file: same as sha256sum" want out
	run "$bin" --debug big
	expect "--debug for a file" 0 "$prog: big: 1048577 bytes, 1048577 spliced, splice"
	sha256sum /proc/version > want
	run "$bin" /proc/version
	expect "/proc/version (st_size 0)" 0 ""
	same "/proc/version: same as sha256sum" want out
	sha256sum plain big 'a\b' > sums
	printf '%s  big\n' 0000000000000000000000000000000000000000000000000000000000000000 > bad.sums
	for f in sums bad.sums; do
		sha256sum -c $f > want 2> want.err
		wrc=$?
		run "$bin" -c $f
		expect "-c $f" $wrc
		same "-c $f: same lines as sha256sum" want out
	done
	run "$bin" -a no-such-hash plain
	expect "unknown algorithm" 4 "$prog: unknown hash algorithm 'no-such-hash': see /proc/crypto"
	run "$bin" --key-file key plain
	expect "a key for sha256" 5	# ENOSYS from setkey: "sha256 takes no key: ..."
	grep -q sha256 err && pass "a key for sha256: message names it" || fail "a key for sha256: message"
	# RFC 4231 test case 2
	printf Jefe > jefe
	printf 'what do ya want for nothing?' > msg
	run "$bin" -a 'hmac(sha256)' --key-file jefe msg
	expect "hmac(sha256), RFC 4231 case 2" 0 ""
	echo "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843  msg" > want
	same "hmac(sha256): RFC 4231 digest" want out
	run "$bin" -a 'hmac(sha256)' --key-fd 7 msg 7< jefe
	same "hmac(sha256) key from a descriptor" want out
	run "$bin" --tag -a 'hmac(sha256)' --key-file jefe msg
	echo "HMAC(SHA256) (msg) = 5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" > want
	same "hmac(sha256) --tag" want out
else
	echo "# neither perl nor python3: kernel part not run"
fi

echo "1..$n"
[ $failed -eq 0 ]
