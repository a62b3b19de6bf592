// SPDX-License-Identifier: GPL-2.0
/* hash.c: SHA-256 (FIPS 180-4) and XXH64, written from their specifications. */
#include <string.h>

#include "hash.h"

static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror32(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha256_block(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h;

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
	e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = h + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) + ((e & f) ^ (~e & g)) +
			      sha_k[i] + w[i];
		uint32_t t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

		h = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
	s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

void sha256_init(struct sha256 *s)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, iv, sizeof(iv));
	s->len = 0;
	s->n = 0;
}

void sha256_update(struct sha256 *s, const void *data, size_t len)
{
	const unsigned char *p = data;

	s->len += len;
	if (s->n) {
		size_t take = 64 - s->n < len ? 64 - s->n : len;

		memcpy(s->buf + s->n, p, take);
		s->n += take;
		p += take;
		len -= take;
		if (s->n < 64)
			return;
		sha256_block(s, s->buf);
		s->n = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		sha256_block(s, p);
	memcpy(s->buf, p, len);
	s->n = len;
}

void sha256_final(struct sha256 *s, unsigned char out[32])
{
	uint64_t bits = s->len * 8;
	unsigned char pad[72] = { 0x80 };
	size_t padlen = (s->n < 56 ? 56 : 120) - s->n;

	for (int i = 0; i < 8; i++)
		pad[padlen + i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_update(s, pad, padlen + 8);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(s->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(s->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(s->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)s->h[i];
	}
}

void sha256_hex(struct sha256 *s, char out[65])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char d[32];

	sha256_final(s, d);
	for (int i = 0; i < 32; i++) {
		out[2 * i] = digits[d[i] >> 4];
		out[2 * i + 1] = digits[d[i] & 15];
	}
	out[64] = '\0';
}

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL
#define P5 0x27D4EB2F165667C5ULL

static uint64_t rol64(uint64_t x, unsigned int n)
{
	return (x << n) | (x >> (64 - n));
}

/* little-endian loads whatever the host: the checksum is a file format */
static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t xround(uint64_t acc, uint64_t in)
{
	acc += in * P2;
	acc = rol64(acc, 31);
	return acc * P1;
}

static uint64_t xmerge(uint64_t acc, uint64_t v)
{
	acc ^= xround(0, v);
	return acc * P1 + P4;
}

void xxh64_init(struct xxh64 *x, uint64_t seed)
{
	x->seed = seed;
	x->v[0] = seed + P1 + P2;
	x->v[1] = seed + P2;
	x->v[2] = seed;
	x->v[3] = seed - P1;
	x->total = 0;
	x->n = 0;
}

static void xxh64_stripe(struct xxh64 *x, const unsigned char *p)
{
	x->v[0] = xround(x->v[0], le64(p));
	x->v[1] = xround(x->v[1], le64(p + 8));
	x->v[2] = xround(x->v[2], le64(p + 16));
	x->v[3] = xround(x->v[3], le64(p + 24));
}

void xxh64_update(struct xxh64 *x, const void *data, size_t len)
{
	const unsigned char *p = data;

	x->total += len;
	if (x->n) {
		size_t take = 32 - x->n < len ? 32 - x->n : len;

		memcpy(x->mem + x->n, p, take);
		x->n += take;
		p += take;
		len -= take;
		if (x->n < 32)
			return;
		xxh64_stripe(x, x->mem);
		x->n = 0;
	}
	for (; len >= 32; p += 32, len -= 32)
		xxh64_stripe(x, p);
	memcpy(x->mem, p, len);
	x->n = len;
}

uint64_t xxh64_digest(const struct xxh64 *x)
{
	const unsigned char *p = x->mem, *end = x->mem + x->n;
	uint64_t h;

	if (x->total >= 32) {
		h = rol64(x->v[0], 1) + rol64(x->v[1], 7) + rol64(x->v[2], 12) + rol64(x->v[3], 18);
		for (int i = 0; i < 4; i++)
			h = xmerge(h, x->v[i]);
	} else {
		h = x->seed + P5;
	}
	h += x->total;
	for (; p + 8 <= end; p += 8) {
		h ^= xround(0, le64(p));
		h = rol64(h, 27) * P1 + P4;
	}
	if (p + 4 <= end) {
		h ^= (uint64_t)le32(p) * P1;
		h = rol64(h, 23) * P2 + P3;
		p += 4;
	}
	for (; p < end; p++) {
		h ^= *p * P5;
		h = rol64(h, 11) * P1;
	}
	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	h *= P3;
	h ^= h >> 32;
	return h;
}
