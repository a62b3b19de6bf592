#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# afalg: the kernel's AF_ALG interfaces and rapido's two AF_ALG helpers.
# The modules below are loaded by the init before this runs (the self-test
# reads /proc/crypto once, at its start, to find the implementations).
#  1. rapido-afalg-selftest: known-answer tests (hash, HMAC, skcipher, AEAD)
#     on every implementation /proc/crypto lists; TAP on the console.
#  2. rapido-afalg-sum against coreutils md5sum ... sha512sum on files of
#     0 B, 1 B, 4 KiB, 1 MiB and 32 MiB in tmpfs, spliced and --no-splice.
#  3. -c passes on intact files and catches one with a byte changed.
#  4. The documented exit statuses: keyed hash without a key 5, unknown
#     algorithm 4, nonexistent file 1.
# Any "not ok" (or a self-test failure) makes the profile exit 1.
#
# With ./vm --share DIR, the host's DIR (/host here) receives:
#   afalg-selftest.tap       the self-test's TAP
#   afalg-results.txt        one "ok N - ..." / "not ok N - ..." line per check
#   afalg-status.txt         "PASS N" or "FAIL FAILED N"
#   afalg-sums/              coreutils-ALG.txt, splice-ALG.txt, no-splice-ALG.txt
#                            ("HEX  NAME" lines), check-sums.txt
#   afalg-check-*.txt        stdout of -c on the corrupted file, per tool/path
#   afalg-exit-codes.txt     "NAME STATUS" lines
#
# rapido.conf (or environment) keys:
#   AFALG_SELFTEST_ONLY  pass --only PATTERN to the self-test (default: all)
#   AFALG_BIG_ALGS       the algorithms that also hash the 32 MiB file
#                        (default: all six, "none": none; under TCG each
#                        one costs 5-20 s)
#   AFALG_BENCH=1        instead of the checks, run the benchmark of bench/afalg
#                        (AFALG_BENCH_* keys: see autorun/lib/afalg.sh)
#
# Arch drivers (x86: SSSE3/AVX/AVX2 SHA, AES-NI, CLMUL GHASH; arm64: the
# Crypto Extensions' SHA, AES and GHASH, NEON AES) are optional: they load
# only where the CPU has the instructions (QEMU TCG's "max" CPU does).
# Two CPUs: coreutils and the two hasher runs of an algorithm go side by
# side (under TCG each vCPU is a host thread). 1G: the files live in tmpfs.
# Under TCG the whole run takes 2-3 minutes, most of it the self-test
# (~1800 tests, every driver) and the 32 MiB file (see AFALG_BIG_ALGS).
#@ description: AF_ALG: KAT self-test (TAP), rapido-afalg-sum vs coreutils *sum (splice, --no-splice), -c, exit codes
# The socket interfaces are modules, as in Debian's kernel; make
# kernel-config builds the algorithms in (Debian has some as modules, which
# the profile loads by name): nothing then depends on modprobe finding a
# crypto-NAME alias at bind time. SHA3, BLAKE2b and CRC32C are optional
# algorithms of rapido-afalg-sum, cheap to build.
#@ kconfig: CONFIG_CRYPTO_MD5 CONFIG_CRYPTO_SHA1 CONFIG_CRYPTO_SHA256 CONFIG_CRYPTO_SHA512 CONFIG_CRYPTO_HMAC CONFIG_CRYPTO_AES CONFIG_CRYPTO_CBC CONFIG_CRYPTO_CTR CONFIG_CRYPTO_GCM CONFIG_CRYPTO_GHASH CONFIG_CRYPTO_AUTHENC
#@ kconfig-optional: CONFIG_CRYPTO=y CONFIG_CRYPTO_SHA3=y CONFIG_CRYPTO_BLAKE2B=y CONFIG_CRYPTO_CRC32C=y
#@ bins: cat cp mkdir rm head tee sed grep od dd stat cmp tr seq uname
#@ bins: md5sum sha1sum sha224sum sha256sum sha384sum sha512sum
#@ bins-optional: openssl dmesg
#@ modules: af_alg algif_hash algif_skcipher algif_aead
#@ modules: md5 sha1_generic sha256_generic sha512_generic hmac
#@ modules: aes_generic cbc ctr gcm ghash_generic authenc authencesn
#@ modules-optional: sha1_ssse3 sha256_ssse3 sha512_ssse3 aesni_intel ghash_clmulni_intel
#@ modules-optional: sha1_ce sha2_ce sha256_arm64 sha512_ce sha512_arm64 aes_ce_blk aes_neon_blk ghash_ce
#@ helpers: afalg-sum afalg-selftest
#@ kconfig: CONFIG_CRYPTO_USER_API_HASH=m CONFIG_CRYPTO_USER_API_SKCIPHER=m CONFIG_CRYPTO_USER_API_AEAD=m
#@ conf-optional: AFALG_SELFTEST_ONLY AFALG_BIG_ALGS AFALG_BENCH AFALG_BENCH_RUNS AFALG_BENCH_BIG_RUNS
#@ conf-optional: AFALG_BENCH_BIG AFALG_BENCH_SIZES AFALG_BENCH_ALGS
#@ cpus: 2
#@ memory: 1G

afalg_modules af_alg algif_hash algif_skcipher algif_aead sha512_generic ctr gcm \
	ghash_generic authenc authencesn sha1_ssse3 sha256_ssse3 sha512_ssse3 aesni_intel \
	ghash_clmulni_intel sha1_ce sha2_ce sha256_arm64 sha512_ce sha512_arm64 aes_ce_blk \
	aes_neon_blk ghash_ce
afalg_say "drivers: $(afalg_drivers md5 sha1 sha224 sha256 sha384 sha512)"

if [ "${AFALG_BENCH:-}" = 1 ]; then
	afalg_bench /tmp/afalg-bench
else
	afalg_begin /tmp/afalg
	afalg_say "starting the self-test"
	if [ -n "${AFALG_SELFTEST_ONLY:-}" ]; then
		afalg_selftest --only "$AFALG_SELFTEST_ONLY"
	else
		afalg_selftest
	fi

	afalg_files=(f0 f1 f4k f1m f32m)
	afalg_t=$EPOCHREALTIME
	: > "$AFALG_WORK/f0"
	printf a > "$AFALG_WORK/f1"
	afalg_make_file "$AFALG_WORK/f4k" 4K
	afalg_make_file "$AFALG_WORK/f1m" 1M
	afalg_make_file "$AFALG_WORK/f32m" 32M
	afalg_say "files ${afalg_files[*]} written in $(afalg_secs "$afalg_t" "$EPOCHREALTIME")s"
	afalg_check_sums "$AFALG_WORK" f32m f0 f1 f4k f1m

	# -c on copies (the originals stay intact), one of them then corrupted;
	# 'b\s' is a name whose status line coreutils 9.4 and later escape
	# ("\b\\s: OK") and 9.3 and earlier do not: the image's is followed
	mkdir -p "$AFALG_WORK/c"
	cp "$AFALG_WORK"/{f0,f1,f4k,f1m} "$AFALG_WORK/c/"
	cp "$AFALG_WORK/f1" "$AFALG_WORK/c/b\\s"
	afalg_check_check "$AFALG_WORK/c" f1m f0 f1 f4k f1m 'b\s'

	afalg_check_exit_codes "$AFALG_WORK" f1
	afalg_end || rapido_fail "afalg: $AFALG_FAILS of $AFALG_N checks failed (see above)"
fi
