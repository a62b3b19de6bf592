// SPDX-License-Identifier: GPL-2.0
/* refhash.c: reference MD5 (RFC 1321), SHA-1/SHA-2 (FIPS 180-4), HMAC (RFC 2104). */
#include <string.h>

#include "refhash.h"

static const struct {
	const char *name;
	size_t digest_len;
	size_t block_len;
} ref_algs[REF_NR_ALGS] = {
	[REF_MD5] = { "md5", 16, 64 },
	[REF_SHA1] = { "sha1", 20, 64 },
	[REF_SHA224] = { "sha224", 28, 64 },
	[REF_SHA256] = { "sha256", 32, 64 },
	[REF_SHA384] = { "sha384", 48, 128 },
	[REF_SHA512] = { "sha512", 64, 128 },
};

int ref_alg_by_name(const char *name)
{
	for (int i = 0; i < REF_NR_ALGS; i++)
		if (!strcmp(ref_algs[i].name, name))
			return i;
	return -1;
}

const char *ref_alg_name(enum ref_alg alg)
{
	return ref_algs[alg].name;
}

size_t ref_digest_len(enum ref_alg alg)
{
	return ref_algs[alg].digest_len;
}

size_t ref_block_len(enum ref_alg alg)
{
	return ref_algs[alg].block_len;
}

static inline uint32_t rol32(uint32_t x, unsigned int n)
{
	return (x << n) | (x >> (32 - n));
}

static inline uint32_t ror32(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

static inline uint64_t ror64(uint64_t x, unsigned int n)
{
	return (x >> n) | (x << (64 - n));
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, v >> 32);
	put_be32(p + 4, (uint32_t)v);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* RFC 1321 3.4: T[i] = floor(2^32 * abs(sin(i))), i = 1..64. */
static const uint32_t md5_t[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
	0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
	0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
	0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
	0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

static const uint8_t md5_s[4][4] = {
	{ 7, 12, 17, 22 }, { 5, 9, 14, 20 }, { 4, 11, 16, 23 }, { 6, 10, 15, 21 },
};

static void md5_block(uint32_t *h, const uint8_t *p)
{
	uint32_t x[16], a = h[0], b = h[1], c = h[2], d = h[3];

	for (int i = 0; i < 16; i++)
		x[i] = get_le32(p + 4 * i);
	for (int i = 0; i < 64; i++) {
		int round = i / 16;
		uint32_t f, t;
		int k;

		switch (round) {
		case 0:
			f = (b & c) | (~b & d);
			k = i;
			break;
		case 1:
			f = (b & d) | (c & ~d);
			k = (5 * i + 1) % 16;
			break;
		case 2:
			f = b ^ c ^ d;
			k = (3 * i + 5) % 16;
			break;
		default:
			f = c ^ (b | ~d);
			k = (7 * i) % 16;
			break;
		}
		t = d;
		d = c;
		c = b;
		b = b + rol32(a + f + x[k] + md5_t[i], md5_s[round][i % 4]);
		a = t;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
}

static void sha1_block(uint32_t *h, const uint8_t *p)
{
	uint32_t w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];

	for (int t = 0; t < 16; t++)
		w[t] = get_be32(p + 4 * t);
	for (int t = 16; t < 80; t++)
		w[t] = rol32(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
	for (int t = 0; t < 80; t++) {
		uint32_t f, k, tmp;

		if (t < 20) {
			f = (b & c) ^ (~b & d);
			k = 0x5a827999;
		} else if (t < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1;
		} else if (t < 60) {
			f = (b & c) ^ (b & d) ^ (c & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		tmp = rol32(a, 5) + f + e + k + w[t];
		e = d;
		d = c;
		c = rol32(b, 30);
		b = a;
		a = tmp;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

/* FIPS 180-4 4.2.2 (sha256ni.c's rounds take them too) */
const uint32_t ref_sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static void sha256_block(uint32_t *h, const uint8_t *p)
{
	uint32_t w[64], v[8];

	for (int t = 0; t < 16; t++)
		w[t] = get_be32(p + 4 * t);
	for (int t = 16; t < 64; t++) {
		uint32_t s0 = ror32(w[t - 15], 7) ^ ror32(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = ror32(w[t - 2], 17) ^ ror32(w[t - 2], 19) ^ (w[t - 2] >> 10);

		w[t] = s1 + w[t - 7] + s0 + w[t - 16];
	}
	memcpy(v, h, sizeof(v));
	for (int t = 0; t < 64; t++) {
		uint32_t S1 = ror32(v[4], 6) ^ ror32(v[4], 11) ^ ror32(v[4], 25);
		uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
		uint32_t t1 = v[7] + S1 + ch + ref_sha256_k[t] + w[t];
		uint32_t S0 = ror32(v[0], 2) ^ ror32(v[0], 13) ^ ror32(v[0], 22);
		uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);

		memmove(v + 1, v, 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + S0 + maj;
	}
	for (int i = 0; i < 8; i++)
		h[i] += v[i];
}

/* FIPS 180-4 4.2.3 */
static const uint64_t sha512_k[80] = {
	0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
	0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
	0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
	0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
	0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
	0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
	0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
	0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
	0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
	0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
	0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
	0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
	0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
	0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
	0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
	0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
	0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
	0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
	0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
	0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

static void sha512_block(uint64_t *h, const uint8_t *p)
{
	uint64_t w[80], v[8];

	for (int t = 0; t < 16; t++)
		w[t] = get_be64(p + 8 * t);
	for (int t = 16; t < 80; t++) {
		uint64_t s0 = ror64(w[t - 15], 1) ^ ror64(w[t - 15], 8) ^ (w[t - 15] >> 7);
		uint64_t s1 = ror64(w[t - 2], 19) ^ ror64(w[t - 2], 61) ^ (w[t - 2] >> 6);

		w[t] = s1 + w[t - 7] + s0 + w[t - 16];
	}
	memcpy(v, h, sizeof(v));
	for (int t = 0; t < 80; t++) {
		uint64_t S1 = ror64(v[4], 14) ^ ror64(v[4], 18) ^ ror64(v[4], 41);
		uint64_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
		uint64_t t1 = v[7] + S1 + ch + sha512_k[t] + w[t];
		uint64_t S0 = ror64(v[0], 28) ^ ror64(v[0], 34) ^ ror64(v[0], 39);
		uint64_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);

		memmove(v + 1, v, 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + S0 + maj;
	}
	for (int i = 0; i < 8; i++)
		h[i] += v[i];
}

static void ref_block(struct ref_ctx *c, const uint8_t *p)
{
	switch (c->alg) {
	case REF_MD5:
		md5_block(c->h.w32, p);
		break;
	case REF_SHA1:
		sha1_block(c->h.w32, p);
		break;
	case REF_SHA224:
	case REF_SHA256:
		if (c->sha256_blocks)
			c->sha256_blocks(c->h.w32, p, 1);
		else
			sha256_block(c->h.w32, p);
		break;
	default:
		sha512_block(c->h.w64, p);
		break;
	}
}

void ref_init(struct ref_ctx *c, enum ref_alg alg)
{
	/* Initial hash values: RFC 1321 3.3, FIPS 180-4 5.3. */
	static const uint32_t md5_iv[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
	static const uint32_t sha1_iv[5] = {
		0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0,
	};
	static const uint32_t sha224_iv[8] = {
		0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
		0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4,
	};
	static const uint32_t sha256_iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	static const uint64_t sha384_iv[8] = {
		0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL, 0x9159015a3070dd17ULL,
		0x152fecd8f70e5939ULL, 0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL,
		0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL,
	};
	static const uint64_t sha512_iv[8] = {
		0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
		0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
		0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
	};

	memset(c, 0, sizeof(*c));
	c->alg = alg;
	switch (alg) {
	case REF_MD5:
		memcpy(c->h.w32, md5_iv, sizeof(md5_iv));
		break;
	case REF_SHA1:
		memcpy(c->h.w32, sha1_iv, sizeof(sha1_iv));
		break;
	case REF_SHA224:
		memcpy(c->h.w32, sha224_iv, sizeof(sha224_iv));
		break;
	case REF_SHA256:
		memcpy(c->h.w32, sha256_iv, sizeof(sha256_iv));
		break;
	case REF_SHA384:
		memcpy(c->h.w64, sha384_iv, sizeof(sha384_iv));
		break;
	default:
		memcpy(c->h.w64, sha512_iv, sizeof(sha512_iv));
		break;
	}
}

void ref_update(struct ref_ctx *c, const void *data, size_t len)
{
	const uint8_t *p = data;
	size_t bl = ref_block_len(c->alg);

	c->total += len;
	if (c->buflen) {
		size_t n = bl - c->buflen < len ? bl - c->buflen : len;

		memcpy(c->buf + c->buflen, p, n);
		c->buflen += n;
		p += n;
		len -= n;
		if (c->buflen < bl)
			return;
		ref_block(c, c->buf);
		c->buflen = 0;
	}
	if (c->sha256_blocks && len >= bl) {	/* all whole blocks in one call */
		c->sha256_blocks(c->h.w32, p, len / bl);
		p += len / bl * bl;
		len %= bl;
	}
	for (; len >= bl; p += bl, len -= bl)
		ref_block(c, p);
	memcpy(c->buf, p, len);
	c->buflen = len;
}

void ref_final(struct ref_ctx *c, uint8_t *out)
{
	size_t bl = ref_block_len(c->alg);
	/* The bit length field is 64 bits, 128 bits for SHA-384/512. */
	size_t lenfield = bl == 128 ? 16 : 8;
	uint64_t bits = c->total << 3;
	uint8_t pad[REF_MAX_BLOCK * 2] = { 0x80 };
	size_t padlen = (c->buflen < bl - lenfield ? bl : 2 * bl) - c->buflen;

	if (c->alg == REF_MD5) {
		put_le32(pad + padlen - 8, (uint32_t)bits);
		put_le32(pad + padlen - 4, (uint32_t)(bits >> 32));
	} else {
		/* The top 64 bits of SHA-512's 128-bit length are always 0 here. */
		put_be64(pad + padlen - 8, bits);
	}
	ref_update(c, pad, padlen);

	switch (c->alg) {
	case REF_MD5:
		for (int i = 0; i < 4; i++)
			put_le32(out + 4 * i, c->h.w32[i]);
		break;
	case REF_SHA1:
	case REF_SHA224:
	case REF_SHA256:
		for (size_t i = 0; i < ref_digest_len(c->alg) / 4; i++)
			put_be32(out + 4 * i, c->h.w32[i]);
		break;
	default:
		for (size_t i = 0; i < ref_digest_len(c->alg) / 8; i++)
			put_be64(out + 8 * i, c->h.w64[i]);
		break;
	}
}

void ref_digest(enum ref_alg alg, const void *data, size_t len, uint8_t *out)
{
	struct ref_ctx c;

	ref_init(&c, alg);
	ref_update(&c, data, len);
	ref_final(&c, out);
}

void ref_hmac(enum ref_alg alg, const void *key, size_t keylen,
	      const void *data, size_t len, uint8_t *out)
{
	size_t bl = ref_block_len(alg), dl = ref_digest_len(alg);
	uint8_t k[REF_MAX_BLOCK] = { 0 }, pad[REF_MAX_BLOCK], inner[REF_MAX_DIGEST];
	struct ref_ctx c;

	/* RFC 2104 2: keys longer than the block are hashed first. */
	if (keylen > bl)
		ref_digest(alg, key, keylen, k);
	else if (keylen)
		memcpy(k, key, keylen);

	for (size_t i = 0; i < bl; i++)
		pad[i] = k[i] ^ 0x36;
	ref_init(&c, alg);
	ref_update(&c, pad, bl);
	ref_update(&c, data, len);
	ref_final(&c, inner);

	for (size_t i = 0; i < bl; i++)
		pad[i] = k[i] ^ 0x5c;
	ref_init(&c, alg);
	ref_update(&c, pad, bl);
	ref_update(&c, inner, dl);
	ref_final(&c, out);
}
