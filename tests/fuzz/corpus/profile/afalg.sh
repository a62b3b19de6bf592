#@ description: AF_ALG: KAT self-test (TAP), rapido-afalg-sum vs coreutils *sum (splice, --no-splice), -c, exit codes
#@ kconfig: CONFIG_CRYPTO_MD5 CONFIG_CRYPTO_SHA1 CONFIG_CRYPTO_SHA256 CONFIG_CRYPTO_SHA512 CONFIG_CRYPTO_HMAC CONFIG_CRYPTO_AES CONFIG_CRYPTO_CBC CONFIG_CRYPTO_CTR CONFIG_CRYPTO_GCM CONFIG_CRYPTO_GHASH CONFIG_CRYPTO_AUTHENC
#@ bins: cat cp mkdir rm head tee sed grep od dd stat cmp tr seq uname
#@ bins: md5sum sha1sum sha224sum sha256sum sha384sum sha512sum
#@ bins-optional: openssl dmesg
#@ modules: af_alg algif_hash algif_skcipher algif_aead
#@ modules: md5 sha1_generic sha256_generic sha512_generic hmac
#@ modules: aes_generic cbc ctr gcm ghash_generic authenc authencesn
#@ modules-optional: sha1_ssse3 sha256_ssse3 sha512_ssse3 aesni_intel ghash_clmulni_intel
#@ helpers: afalg-sum afalg-selftest
#@ kconfig: CONFIG_CRYPTO_USER_API_HASH CONFIG_CRYPTO_USER_API_SKCIPHER CONFIG_CRYPTO_USER_API_AEAD
#@ conf-optional: AFALG_SELFTEST_ONLY AFALG_BIG_ALGS AFALG_BENCH AFALG_BENCH_RUNS AFALG_BENCH_BIG_RUNS
#@ conf-optional: AFALG_BENCH_BIG AFALG_BENCH_SIZES AFALG_BENCH_ALGS
#@ cpus: 2
#@ memory: 1G
