/* SPDX-License-Identifier: GPL-2.0 */
/* hash.h: SHA-256 for cache keys, XXH64 for fast checksums of cached layers. */
#ifndef RAPIDO_HASH_H
#define RAPIDO_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "refhash.h"

/* refhash.c's SHA-256, under the names the cache keys use */
struct sha256 {
	struct ref_ctx c;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
void sha256_final(struct sha256 *s, unsigned char out[32]);
/* The digest as 64 lowercase hex digits and a NUL. */
void sha256_hex(struct sha256 *s, char out[65]);

/*
 * XXH64 (the xxHash 64-bit algorithm, as xxhsum -H1 prints it): not a
 * cryptographic hash, but it runs at memory speed, so ./vm can check
 * every byte of a 150 MB image while it copies it.
 */
struct xxh64 {
	uint64_t v[4];
	uint64_t seed;
	uint64_t total;
	unsigned char mem[32];
	size_t n;
};

void xxh64_init(struct xxh64 *x, uint64_t seed);
void xxh64_update(struct xxh64 *x, const void *data, size_t len);
uint64_t xxh64_digest(const struct xxh64 *x);

/* FNV-1a (64-bit) of n bytes: the in-memory hash tables' function (not for keys on disk) */
uint64_t fnv1a64(const void *data, size_t n);

#endif
