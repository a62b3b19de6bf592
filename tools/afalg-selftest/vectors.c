// SPDX-License-Identifier: GPL-2.0
/* vectors.c: known-answer vectors (RFC 1321, FIPS 180-4, RFC 2202/4231, SP 800-38A, GCM). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "err.h"
#include "vectors.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Every stored value below was transcribed from the cited document; the
 * host unit test tests/unit/tool-afalg-selftest.sh recomputes each one
 * with openssl (and the GCM tags with openssl's AES plus a GHASH written
 * in the test), and vectors_check() recomputes every digest and MAC with
 * refhash.c, so a typo fails twice before it reaches a guest.
 */

#define FIPS_ABC	"FIPS 180-4 / NIST CSRC example values: one-block \"abc\""
#define FIPS_448	"FIPS 180-4 / NIST CSRC example values: two-block 448-bit message"
#define FIPS_896	"FIPS 180-4 / NIST CSRC example values: two-block 896-bit message"
#define FIPS_1M		"FIPS 180-2 appendix / NIST example: one million 'a' (generated at run time)"
#define EMPTY_SRC	"empty message (published widely; host test recomputes it with openssl)"
#define REF_SRC		"padding boundary; expected value computed by refhash.c " \
			"(the host test checks refhash against coreutils)"

#define MSG_448	"t:abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
#define MSG_896	"t:abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn" \
		"hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
#define MSG_1M	"r:61*1000000"

/* Boundaries around the padding: 64-byte blocks with a 64-bit length field ... */
#define BOUNDARY64 \
	{ "len-55", REF_SRC, "p:55", NULL }, \
	{ "len-56", REF_SRC, "p:56", NULL }, \
	{ "len-63", REF_SRC, "p:63", NULL }, \
	{ "len-64", REF_SRC, "p:64", NULL }, \
	{ "len-65", REF_SRC, "p:65", NULL }
/* ... and 128-byte blocks with a 128-bit length field (SHA-384/512). */
#define BOUNDARY128 \
	{ "len-111", REF_SRC, "p:111", NULL }, \
	{ "len-112", REF_SRC, "p:112", NULL }, \
	{ "len-127", REF_SRC, "p:127", NULL }, \
	{ "len-128", REF_SRC, "p:128", NULL }, \
	{ "len-129", REF_SRC, "p:129", NULL }

static const struct hash_vec md5_vecs[] = {
	{ "rfc1321-1", "RFC 1321 A.5 test suite", "t:",
	  "d41d8cd98f00b204e9800998ecf8427e" },
	{ "rfc1321-2", "RFC 1321 A.5 test suite", "t:a",
	  "0cc175b9c0f1b6a831c399e269772661" },
	{ "rfc1321-3", "RFC 1321 A.5 test suite", "t:abc",
	  "900150983cd24fb0d6963f7d28e17f72" },
	{ "rfc1321-4", "RFC 1321 A.5 test suite", "t:message digest",
	  "f96b697d7cb7938d525a2f31aaf161d0" },
	{ "rfc1321-5", "RFC 1321 A.5 test suite", "t:abcdefghijklmnopqrstuvwxyz",
	  "c3fcd3d76192e4007dfb496cca67e13b" },
	{ "rfc1321-6", "RFC 1321 A.5 test suite",
	  "t:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
	  "d174ab98d277d9f5a5611c2c9f419d9f" },
	{ "rfc1321-7", "RFC 1321 A.5 test suite",
	  "t:1234567890123456789012345678901234567890"
	  "1234567890123456789012345678901234567890",
	  "57edf4a22be3c955ac49da2e2107b67a" },
	BOUNDARY64,
};

static const struct hash_vec sha1_vecs[] = {
	{ "empty", EMPTY_SRC, "t:", "da39a3ee5e6b4b0d3255bfef95601890afd80709" },
	{ "abc", FIPS_ABC, "t:abc", "a9993e364706816aba3e25717850c26c9cd0d89d" },
	{ "448bit", FIPS_448, MSG_448, "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
	{ "million-a", FIPS_1M, MSG_1M, "34aa973cd4c4daa4f61eeb2bdbad27316534016f" },
	BOUNDARY64,
};

static const struct hash_vec sha224_vecs[] = {
	{ "empty", EMPTY_SRC, "t:",
	  "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f" },
	{ "abc", FIPS_ABC, "t:abc",
	  "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7" },
	{ "448bit", FIPS_448, MSG_448,
	  "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525" },
	{ "million-a", FIPS_1M, MSG_1M,
	  "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67" },
	BOUNDARY64,
};

static const struct hash_vec sha256_vecs[] = {
	{ "empty", EMPTY_SRC, "t:",
	  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", FIPS_ABC, "t:abc",
	  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "448bit", FIPS_448, MSG_448,
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ "million-a", FIPS_1M, MSG_1M,
	  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
	BOUNDARY64,
};

static const struct hash_vec sha384_vecs[] = {
	{ "empty", EMPTY_SRC, "t:",
	  "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da"
	  "274edebfe76f65fbd51ad2f14898b95b" },
	{ "abc", FIPS_ABC, "t:abc",
	  "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
	  "8086072ba1e7cc2358baeca134c825a7" },
	{ "896bit", FIPS_896, MSG_896,
	  "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712"
	  "fcc7c71a557e2db966c3e9fa91746039" },
	{ "million-a", FIPS_1M, MSG_1M,
	  "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b"
	  "07b8b3dc38ecc4ebae97ddd87f3d8985" },
	BOUNDARY128,
};

static const struct hash_vec sha512_vecs[] = {
	{ "empty", EMPTY_SRC, "t:",
	  "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
	  "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e" },
	{ "abc", FIPS_ABC, "t:abc",
	  "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
	  "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
	{ "896bit", FIPS_896, MSG_896,
	  "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
	  "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909" },
	{ "million-a", FIPS_1M, MSG_1M,
	  "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
	  "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b" },
	BOUNDARY128,
};

/* RFC 2202 sections 2 (HMAC-MD5) and 3 (HMAC-SHA-1): keys and data. */
#define R2202_K4	"x:0102030405060708090a0b0c0d0e0f10111213141516171819"
#define R2202_D2	"t:what do ya want for nothing?"
#define R2202_D5	"t:Test With Truncation"
#define R2202_D6	"t:Test Using Larger Than Block-Size Key - Hash Key First"
#define R2202_D7	"t:Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data"

static const struct hmac_vec hmac_md5_vecs[] = {
	{ "rfc2202-1", "RFC 2202 2", "r:0b*16", "t:Hi There",
	  "9294727a3638bb1c13f48ef8158bfc9d", 0 },
	{ "rfc2202-2", "RFC 2202 2", "t:Jefe", R2202_D2,
	  "750c783e6ab0b503eaa86e310a5db738", 0 },
	{ "rfc2202-3", "RFC 2202 2", "r:aa*16", "r:dd*50",
	  "56be34521d144c88dbb8c733f0e8b3f6", 0 },
	{ "rfc2202-4", "RFC 2202 2", R2202_K4, "r:cd*50",
	  "697eaf0aca3a3aea3a75164746ffaa79", 0 },
	{ "rfc2202-5", "RFC 2202 2 (full digest, not digest-96)", "r:0c*16", R2202_D5,
	  "56461ef2342edc00f9bab995690efd4c", 0 },
	{ "rfc2202-6", "RFC 2202 2 (80-byte key)", "r:aa*80", R2202_D6,
	  "6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd", 0 },
	{ "rfc2202-7", "RFC 2202 2 (80-byte key)", "r:aa*80", R2202_D7,
	  "6f630fad67cda0ee1fb1f562db3aa53e", 0 },
};

static const struct hmac_vec hmac_sha1_vecs[] = {
	{ "rfc2202-1", "RFC 2202 3", "r:0b*20", "t:Hi There",
	  "b617318655057264e28bc0b6fb378c8ef146be00", 0 },
	{ "rfc2202-2", "RFC 2202 3", "t:Jefe", R2202_D2,
	  "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79", 0 },
	{ "rfc2202-3", "RFC 2202 3", "r:aa*20", "r:dd*50",
	  "125d7342b9ac11cd91a39af48aa17b4f63f175d3", 0 },
	{ "rfc2202-4", "RFC 2202 3", R2202_K4, "r:cd*50",
	  "4c9007f4026250c6bc8414f9bf50c86c2d7235da", 0 },
	{ "rfc2202-5", "RFC 2202 3 (full digest, not digest-96)", "r:0c*20", R2202_D5,
	  "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04", 0 },
	{ "rfc2202-6", "RFC 2202 3 (80-byte key)", "r:aa*80", R2202_D6,
	  "aa4ae5e15272d00e95705637ce8a3b55ed402112", 0 },
	{ "rfc2202-7", "RFC 2202 3 (80-byte key)", "r:aa*80", R2202_D7,
	  "e8e99d0f45237d786d6bbaa7965c7808bbff1a91", 0 },
};

/* RFC 4231 section 4: the same keys and data for all four algorithms. */
#define R4231_SRC	"RFC 4231 4"
#define R4231_1(mac)	{ "rfc4231-1", R4231_SRC, "r:0b*20", "t:Hi There", mac, 0 }
#define R4231_2(mac)	{ "rfc4231-2", R4231_SRC, "t:Jefe", R2202_D2, mac, 0 }
#define R4231_3(mac)	{ "rfc4231-3", R4231_SRC, "r:aa*20", "r:dd*50", mac, 0 }
#define R4231_4(mac)	{ "rfc4231-4", R4231_SRC, R2202_K4, "r:cd*50", mac, 0 }
/* Test case 5 publishes only the leftmost 128 bits: only those are compared. */
#define R4231_5(mac)	{ "rfc4231-5", R4231_SRC " (truncated to 128 bits by the RFC)", \
			  "r:0c*20", R5_DATA, mac, 16 }
#define R4231_6(mac)	{ "rfc4231-6", R4231_SRC " (131-byte key)", "r:aa*131", R6_DATA, mac, 0 }
#define R4231_7(mac)	{ "rfc4231-7", R4231_SRC " (131-byte key)", "r:aa*131", R7_DATA, mac, 0 }
#define R5_DATA		"t:Test With Truncation"
#define R6_DATA		"t:Test Using Larger Than Block-Size Key - Hash Key First"
#define R7_DATA		"t:This is a test using a larger than block-size key and a larger " \
			"than block-size data. The key needs to be hashed before being " \
			"used by the HMAC algorithm."

static const struct hmac_vec hmac_sha224_vecs[] = {
	R4231_1("896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22"),
	R4231_2("a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44"),
	R4231_3("7fb3cb3588c6c1f6ffa9694d7d6ad2649365b0c1f65d69d1ec8333ea"),
	R4231_4("6c11506874013cac6a2abc1bb382627cec6a90d86efc012de7afec5a"),
	R4231_5("0e2aea68a90c8d37c988bcdb9fca6fa8"),
	R4231_6("95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e"),
	R4231_7("3a854166ac5d9f023f54d517d0b39dbd946770db9c2b95c9f6f565d1"),
};

static const struct hmac_vec hmac_sha256_vecs[] = {
	R4231_1("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
	R4231_2("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
	R4231_3("773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
	R4231_4("82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
	R4231_5("a3b6167473100ee06e0c796c2955552b"),
	R4231_6("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
	R4231_7("9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
};

static const struct hmac_vec hmac_sha384_vecs[] = {
	R4231_1("afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59c"
		"faea9ea9076ede7f4af152e8b2fa9cb6"),
	R4231_2("af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e"
		"8e2240ca5e69e2c78b3239ecfab21649"),
	R4231_3("88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b"
		"2a5ab39dc13814b94e3ab6e101a34f27"),
	R4231_4("3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e"
		"6801dd23c4a7d679ccf8a386c674cffb"),
	R4231_5("3abf34c3503b2a23a46efc619baef897"),
	R4231_6("4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c6"
		"0c2ef6ab4030fe8296248df163f44952"),
	R4231_7("6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5"
		"a678cc31e799176d3860e6110c46523e"),
};

static const struct hmac_vec hmac_sha512_vecs[] = {
	R4231_1("87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
		"daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"),
	R4231_2("164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
		"9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"),
	R4231_3("fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39"
		"bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb"),
	R4231_4("b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3db"
		"a91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd"),
	R4231_5("415fad6271580a531d4179bc891d87a6"),
	R4231_6("80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
		"6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"),
	R4231_7("e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"
		"b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"),
};

#define ALG(n, r, v, h) { n, r, v, ARRAY_SIZE(v), h, ARRAY_SIZE(h) }
const struct hash_alg hash_algs[] = {
	ALG("md5", REF_MD5, md5_vecs, hmac_md5_vecs),
	ALG("sha1", REF_SHA1, sha1_vecs, hmac_sha1_vecs),
	ALG("sha224", REF_SHA224, sha224_vecs, hmac_sha224_vecs),
	ALG("sha256", REF_SHA256, sha256_vecs, hmac_sha256_vecs),
	ALG("sha384", REF_SHA384, sha384_vecs, hmac_sha384_vecs),
	ALG("sha512", REF_SHA512, sha512_vecs, hmac_sha512_vecs),
};
const size_t n_hash_algs = ARRAY_SIZE(hash_algs);

const struct cipher_vec cipher_vecs[] = {
	{ "sp800-38a-f.2.1", "NIST SP 800-38A F.2.1/F.2.2 CBC-AES128", "cbc(aes)",
	  CIPHER_SKCIPHER,
	  .key = "2b7e151628aed2a6abf7158809cf4f3c",
	  .iv = "000102030405060708090a0b0c0d0e0f",
	  .pt = "6bc1bee22e409f96e93d7e117393172a" "ae2d8a571e03ac9c9eb76fac45af8e51"
		"30c81c46a35ce411e5fbc1191a0a52ef" "f69f2445df4f9b17ad2b417be66c3710",
	  .ct = "7649abac8119b246cee98e9b12e9197d" "5086cb9b507219ee95db113a917678b2"
		"73bed6b8e3c1743b7116e69e22229516" "3ff1caa1681fac09120eca307586e1a7" },
	{ "gcm-tc2", "McGrew/Viega GCM spec, test case 2 (no AAD)", "gcm(aes)",
	  CIPHER_AEAD,
	  .key = "00000000000000000000000000000000",
	  .iv = "000000000000000000000000",
	  .aad = "",
	  .pt = "00000000000000000000000000000000",
	  .ct = "0388dace60b6a392f328c2b971b2fe78",
	  .tag = "ab6e47d42cec13bdf53a67b21257bddf" },
	{ "gcm-tc4", "McGrew/Viega GCM spec, test case 4 (20-byte AAD, 60-byte text)", "gcm(aes)",
	  CIPHER_AEAD,
	  .key = "feffe9928665731c6d6a8f9467308308",
	  .iv = "cafebabefacedbaddecaf888",
	  .aad = "feedfacedeadbeeffeedfacedeadbeefabaddad2",
	  .pt = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
		"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
	  .ct = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
		"21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
	  .tag = "5bc94fbc3221a5db94fae95ae7121a47" },
};
const size_t n_cipher_vecs = ARRAY_SIZE(cipher_vecs);

const struct hash_alg *hash_alg_by_name(const char *name)
{
	for (size_t i = 0; i < n_hash_algs; i++)
		if (!strcmp(hash_algs[i].name, name))
			return &hash_algs[i];
	return NULL;
}

uint8_t spec_pattern_byte(size_t i)
{
	return (uint8_t)(i * 31 + 7);
}

/* A decimal count without sign, junk or overflow (at most 64 MiB). */
static int parse_count(const char *s, size_t *out)
{
	size_t v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		v = v * 10 + (size_t)(*s - '0');
		if (v > (64u << 20))
			return -EINVAL;
	}
	*out = v;
	return 0;
}

int spec_expand(const char *spec, uint8_t **out, size_t *len)
{
	const char *body = spec + 2;
	uint8_t *buf = NULL;
	size_t n = 0;
	int rc = -EINVAL;

	if (strlen(spec) < 2 || spec[1] != ':')
		return -EINVAL;
	switch (spec[0]) {
	case 't':
		n = strlen(body);
		buf = xmalloc(n + 1);
		memcpy(buf, body, n);
		rc = 0;
		break;
	case 'x':
		n = strlen(body) / 2;
		buf = xmalloc(n + 1);
		rc = hex_decode(body, buf, n, &n);
		break;
	case 'r': {
		const char *star = strchr(body, '*');
		uint8_t b;
		size_t one;

		if (!star || star - body != 2)
			break;
		char hex[3] = { body[0], body[1], '\0' };

		if (hex_decode(hex, &b, 1, &one) || parse_count(star + 1, &n))
			break;
		buf = xmalloc(n + 1);
		memset(buf, b, n);
		rc = 0;
		break;
	}
	case 'p':
		if (parse_count(body, &n))
			break;
		buf = xmalloc(n + 1);
		for (size_t i = 0; i < n; i++)
			buf[i] = spec_pattern_byte(i);
		rc = 0;
		break;
	default:
		break;
	}
	if (rc) {
		free(buf);
		return rc;
	}
	*out = buf;
	*len = n;
	return 0;
}

int hash_vec_expected(const struct hash_alg *a, const struct hash_vec *v, uint8_t *out)
{
	uint8_t *msg;
	size_t len;

	if (v->md)
		return hex_decode(v->md, out, REF_MAX_DIGEST, &len) ? -EINVAL :
		       len == ref_digest_len(a->ref) ? 0 : -EINVAL;
	if (spec_expand(v->msg, &msg, &len))
		return -EINVAL;
	ref_digest(a->ref, msg, len, out);
	free(msg);
	return 0;
}

struct checker {
	int problems;
	void (*report)(const char *msg, void *arg);
	void *arg;
};

static void problem(struct checker *ck, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void problem(struct checker *ck, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	ck->problems++;
	if (!ck->report)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ck->report(buf, ck->arg);
}

/* Decode hex that must be exactly want bytes long. */
static int hex_exact(const char *hex, uint8_t *out, size_t want)
{
	size_t len;

	return !hex || hex_decode(hex, out, want, &len) || len != want ? -EINVAL : 0;
}

static void check_hash_alg(struct checker *ck, const struct hash_alg *a)
{
	size_t dl = ref_digest_len(a->ref);
	uint8_t want[REF_MAX_DIGEST], got[REF_MAX_DIGEST];

	if (ref_alg_by_name(a->name) != (int)a->ref)
		problem(ck, "%s: reference algorithm mismatch", a->name);
	for (size_t i = 0; i < a->nvecs; i++) {
		const struct hash_vec *v = &a->vecs[i];
		uint8_t *msg;
		size_t len;

		for (size_t j = 0; j < i; j++)
			if (!strcmp(a->vecs[j].id, v->id))
				problem(ck, "%s %s: duplicate id", a->name, v->id);
		if (spec_expand(v->msg, &msg, &len)) {
			problem(ck, "%s %s: bad message spec \"%s\"", a->name, v->id, v->msg);
			continue;
		}
		ref_digest(a->ref, msg, len, got);
		free(msg);
		if (!v->md)
			continue;
		if (hex_exact(v->md, want, dl))
			problem(ck, "%s %s: digest is not %zu hex bytes", a->name, v->id, dl);
		else if (memcmp(want, got, dl))
			problem(ck, "%s %s: reference implementation disagrees with the table",
				a->name, v->id);
	}
	for (size_t i = 0; i < a->nhmacs; i++) {
		const struct hmac_vec *v = &a->hmacs[i];
		size_t cmp = v->trunc ? v->trunc : dl, klen, mlen;
		uint8_t *key, *msg;

		for (size_t j = 0; j < i; j++)
			if (!strcmp(a->hmacs[j].id, v->id))
				problem(ck, "hmac(%s) %s: duplicate id", a->name, v->id);
		if (cmp > dl) {
			problem(ck, "hmac(%s) %s: truncation longer than the digest", a->name, v->id);
			continue;
		}
		if (spec_expand(v->key, &key, &klen)) {
			problem(ck, "hmac(%s) %s: bad key spec", a->name, v->id);
			continue;
		}
		if (spec_expand(v->msg, &msg, &mlen)) {
			problem(ck, "hmac(%s) %s: bad message spec", a->name, v->id);
			free(key);
			continue;
		}
		ref_hmac(a->ref, key, klen, msg, mlen, got);
		free(key);
		free(msg);
		if (hex_exact(v->mac, want, cmp))
			problem(ck, "hmac(%s) %s: MAC is not %zu hex bytes", a->name, v->id, cmp);
		else if (memcmp(want, got, cmp))
			problem(ck, "hmac(%s) %s: reference implementation disagrees with the table",
				a->name, v->id);
	}
}

static void check_cipher(struct checker *ck, const struct cipher_vec *v)
{
	uint8_t buf[4096];
	size_t ptlen, ctlen, len;
	int aead = v->kind == CIPHER_AEAD;

	for (const struct cipher_vec *o = cipher_vecs; o < v; o++)
		if (!strcmp(o->id, v->id))
			problem(ck, "%s: duplicate id", v->id);
	if (hex_exact(v->key, buf, 16))
		problem(ck, "%s: key is not 16 hex bytes (AES-128)", v->id);
	if (hex_exact(v->iv, buf, aead ? GCM_IV_LEN : AES_BLOCK))
		problem(ck, "%s: IV is not %d hex bytes", v->id, aead ? GCM_IV_LEN : AES_BLOCK);
	if (!v->pt || hex_decode(v->pt, buf, sizeof(buf), &ptlen) ||
	    !v->ct || hex_decode(v->ct, buf, sizeof(buf), &ctlen)) {
		problem(ck, "%s: bad plaintext or ciphertext hex", v->id);
		return;
	}
	if (ptlen != ctlen)
		problem(ck, "%s: plaintext is %zu bytes, ciphertext %zu", v->id, ptlen, ctlen);
	if (!aead && (ptlen % AES_BLOCK || !ptlen))
		problem(ck, "%s: CBC text is not whole blocks", v->id);
	if (aead && (!v->aad || hex_decode(v->aad, buf, sizeof(buf), &len)))
		problem(ck, "%s: bad AAD hex", v->id);
	if (aead ? hex_exact(v->tag, buf, GCM_TAG_LEN) != 0 : v->tag != NULL || v->aad != NULL)
		problem(ck, "%s: tag must be %d hex bytes for AEAD, absent otherwise",
			v->id, GCM_TAG_LEN);
}

int vectors_check(void (*report)(const char *msg, void *arg), void *arg)
{
	struct checker ck = { 0, report, arg };

	for (size_t i = 0; i < n_hash_algs; i++)
		check_hash_alg(&ck, &hash_algs[i]);
	for (size_t i = 0; i < n_cipher_vecs; i++)
		check_cipher(&ck, &cipher_vecs[i]);
	return ck.problems;
}
