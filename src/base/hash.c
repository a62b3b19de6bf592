// SPDX-License-Identifier: GPL-2.0
/* hash.c: SHA-256 (refhash.c, sha256ni.c) for cache keys, and XXH64 written from its specification. */
#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "hex.h"
#include "sha256ni.h"

/*
 * refhash.c's SHA-256, with the CPU's SHA instructions for its compression
 * function where there are some: a big tree's key hashes its every entry
 * on each cut. RAPIDO_SHA256_PORTABLE=1 keeps refhash.c's own (lib-hash.c
 * compares the two).
 */
void sha256_init(struct sha256 *s)
{
	static int ni = -1;	/* the same answer for every thread that asks */

	if (ni < 0) {
		const char *portable = getenv("RAPIDO_SHA256_PORTABLE");

		ni = !(portable && *portable && strcmp(portable, "0")) && sha256ni_available();
	}
	ref_init(&s->c, REF_SHA256);
	if (ni)
		s->c.sha256_blocks = sha256ni_blocks;
}

void sha256_update(struct sha256 *s, const void *data, size_t len)
{
	ref_update(&s->c, data, len);
}

void sha256_final(struct sha256 *s, unsigned char out[32])
{
	ref_final(&s->c, out);
}

void sha256_hex(struct sha256 *s, char out[65])
{
	unsigned char d[32];

	sha256_final(s, d);
	hex_encode(d, sizeof(d), out);
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
	uint64_t v;

	/* one unaligned load (the byte loop was not merged into one by gcc -O2) */
	memcpy(&v, p, sizeof(v));
	return le64toh(v);
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

/*
 * The stripes of p into the four lanes, kept in locals: stores through
 * x->v could alias the bytes read, so gcc would reload them every stripe
 * (the modules layer of a kernel rebuild hashes ~15 MB).
 */
static void xxh64_stripes(uint64_t v[4], const unsigned char *p, size_t n)
{
	uint64_t a = v[0], b = v[1], c = v[2], d = v[3];

	for (; n; n--, p += 32) {
		a = xround(a, le64(p));
		b = xround(b, le64(p + 8));
		c = xround(c, le64(p + 16));
		d = xround(d, le64(p + 24));
	}
	v[0] = a;
	v[1] = b;
	v[2] = c;
	v[3] = d;
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
		xxh64_stripes(x->v, x->mem, 1);
		x->n = 0;
	}
	xxh64_stripes(x->v, p, len / 32);
	p += len / 32 * 32;
	len %= 32;
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

uint64_t fnv1a64(const void *data, size_t n)
{
	const unsigned char *p = data;
	uint64_t h = 14695981039346656037ULL;

	while (n--)
		h = (h ^ *p++) * 1099511628211ULL;
	return h;
}
