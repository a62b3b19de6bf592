#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tool-afalg-sum.sh: rapido-afalg-sum as a program: usage, messages and exit codes;
# without AF_ALG the documented status 3, with AF_ALG digests equal to coreutils'.
# AFSUM_BIN=path runs another build of it, AFSUM_AFALG=yes|no says whether the
# kernel has AF_ALG (e.g. inside a guest without perl or python).
. "$(dirname "$0")/../tap.sh"
bin=${AFSUM_BIN:-$TOP/build/guest/rapido-afalg-sum}
prog=rapido-afalg-sum
if [ ! -x "$bin" ]; then
	echo "not built: $bin (run make)"
	exit 1
fi
cd "$T" || exit 1
TAP_ON_FAIL=show_run

try="Try '$prog --help' for more information."
noalg="$prog: AF_ALG not available: load af_alg/algif_hash or enable CONFIG_CRYPTO_USER_API_HASH"
printf w > plain
: > empty
printf k > key

# ---- usage -------------------------------------------------------------
run "$bin" --help
check "--help (exit 0)" exits 0 ""
for want in "Usage: $prog [OPTION]... [FILE]..." "Exit status:" "  0  " "  1  " "  2  bad usage" \
	"  3  AF_ALG not available" "  4  unknown hash algorithm" "  5  key problem" \
	"  6  an AF_ALG operation failed" "--key-file=FILE" "--key-fd=N" "--no-splice"; do
	check "--help mentions '$want'" contains out "$want"
done
run "$bin" --version
check "--version (exit 0)" exits 0 ""
run "$bin" --bogus
check "unknown option (exit 2)" exits 2
check "unknown option: Try line" test "$(tail -n1 err)" = "$try"
run "$bin" -a
check "-a without argument (exit 2)" exits 2
run "$bin" --tag -t plain
check "--tag -t (exit 2)" exits 2 "$prog: --tag does not support --text mode
$try"
run "$bin" -c -z plain
check "-c -z (exit 2)" exits 2 "$prog: the --zero option is not supported when verifying checksums
$try"
run "$bin" --status plain
check "--status without -c (exit 2)" exits 2 "$prog: the --status option is meaningful only when verifying checksums
$try"
run "$bin" --key-fd 3x plain
check "--key-fd 3x (exit 2)" exits 2 "$prog: invalid file descriptor '3x' for --key-fd
$try"

# ---- key problems come before the kernel is asked ----------------------
run "$bin" -a 'hmac(sha256)' plain
check "keyed hash without key (exit 5)" exits 5 "$prog: hmac(sha256) needs a key: use --key-file or --key-fd"
run "$bin" -a 'hmac(sha256)' --key-file nosuch plain
check "unreadable key file (exit 5)" exits 5 "$prog: cannot open key file nosuch: No such file or directory"
run "$bin" -a 'hmac(sha256)' --key-file empty plain
check "empty key (exit 5)" exits 5 "$prog: key from empty is empty"
run "$bin" -a 'hmac(sha256)' --key-fd 9 plain 9< empty
check "empty key on a descriptor (exit 5)" exits 5 "$prog: key from file descriptor 9 is empty"
long=$(printf 'x%.0s' $(seq 64))
run "$bin" -a "$long" plain
check "64-byte algorithm name (exit 4)" exits 4 \
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
	check "no AF_ALG: a file (exit 3)" exits 3 "$noalg"
	check "no AF_ALG: nothing on stdout" test ! -s out
	sha256sum plain > sums 2> /dev/null || printf '%s  plain\n' 0 > sums
	run "$bin" -c sums
	check "no AF_ALG: --check (exit 3)" exits 3 "$noalg"
	rc=0; echo data | "$bin" > out 2> err || rc=$?
	check "no AF_ALG: a pipe (exit 3)" exits 3 "$noalg"
	run "$bin" -a md5 --tag plain
	check "no AF_ALG: md5 --tag (exit 3)" exits 3 "$noalg"
	run "$bin" -a 'hmac(sha256)' --key-file key plain
	check "no AF_ALG: hmac with a key (exit 3)" exits 3 "$noalg"
elif [ "$afalg" = yes ]; then
	head -c 1048577 /dev/urandom > big
	printf x > 'a\b'
	printf y > "$(printf 'n\nl')"
	for alg in md5 sha1 sha224 sha256 sha384 sha512; do
		if ! command -v ${alg}sum > /dev/null; then
			not_ok "${alg}sum missing: cannot compare"
			continue
		fi
		for opt in "" --tag --no-splice -z; do
			copt=$opt
			[ "$opt" = --no-splice ] && copt=
			${alg}sum $copt empty plain big 'a\b' "n
l" > want 2>&1
			run "$bin" -a $alg $opt empty plain big 'a\b' "n
l"
			check "$alg $opt (exit 0)" exits 0 ""
			check "$alg $opt: same lines as ${alg}sum" same_file want out
		done
	done
	sha256sum < big > want
	rc=0; cat big | "$bin" --debug > out 2> err || rc=$?
	check "a pipe (exit 0)" exits 0 \
		"$prog: -: 1048577 bytes, 0 spliced, read+send (not a regular file or block device)"
	check "a pipe: same as sha256sum" same_file want out
	run "$bin" --debug - < big
	check "stdin from a file is spliced (exit 0)" exits 0 "$prog: -: 1048577 bytes, 1048577 spliced, splice"
	check "stdin from a file: same as sha256sum" same_file want out
	run "$bin" --debug big
	check "--debug for a file (exit 0)" exits 0 "$prog: big: 1048577 bytes, 1048577 spliced, splice"
	sha256sum /proc/version > want
	run "$bin" /proc/version
	check "/proc/version (st_size 0) (exit 0)" exits 0 ""
	check "/proc/version: same as sha256sum" same_file want out
	sha256sum plain big 'a\b' > sums
	printf '%s  big\n' 0000000000000000000000000000000000000000000000000000000000000000 > bad.sums
	for f in sums bad.sums; do
		sha256sum -c $f > want 2> want.err
		wrc=$?
		run "$bin" -c $f
		check "-c $f (exit $wrc)" exits $wrc
		check "-c $f: same lines as sha256sum" same_file want out
	done
	run "$bin" -a no-such-hash plain
	check "unknown algorithm (exit 4)" exits 4 "$prog: unknown hash algorithm 'no-such-hash': see /proc/crypto"
	run "$bin" --key-file key plain
	check "a key for sha256 (exit 5)" exits 5	# ENOSYS from setkey: "sha256 takes no key: ..."
	check "a key for sha256: message names it" grep -q sha256 err
	# RFC 4231 test case 2
	printf Jefe > jefe
	printf 'what do ya want for nothing?' > msg
	run "$bin" -a 'hmac(sha256)' --key-file jefe msg
	check "hmac(sha256), RFC 4231 case 2 (exit 0)" exits 0 ""
	echo "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843  msg" > want
	check "hmac(sha256): RFC 4231 digest" same_file want out
	run "$bin" -a 'hmac(sha256)' --key-fd 7 msg 7< jefe
	check "hmac(sha256) key from a descriptor" same_file want out
	run "$bin" --tag -a 'hmac(sha256)' --key-file jefe msg
	echo "HMAC(SHA256) (msg) = 5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" > want
	check "hmac(sha256) --tag" same_file want out
else
	echo "# neither perl nor python3: kernel part not run"
fi

done_testing
