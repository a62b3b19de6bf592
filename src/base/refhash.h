/* SPDX-License-Identifier: GPL-2.0 */
/* refhash.h: small software MD5/SHA-1/SHA-2 and HMAC, the independent reference. */
#ifndef RAPIDO_REFHASH_H
#define RAPIDO_REFHASH_H

#include <stddef.h>
#include <stdint.h>

/*
 * Written from RFC 1321 (MD5), FIPS 180-4 (SHA-1, SHA-2) and RFC 2104
 * (HMAC). rapido-afalg-selftest compares the kernel with it, so that the
 * boundary-length digests the kernel is checked against do not come from
 * the kernel; ./cut's cache keys are its SHA-256 (hash.h). The host unit
 * tests check it against coreutils and openssl. Messages are whole bytes,
 * under 2^61 bytes.
 */
enum ref_alg {
	REF_MD5,
	REF_SHA1,
	REF_SHA224,
	REF_SHA256,
	REF_SHA384,
	REF_SHA512,
	REF_NR_ALGS
};

#define REF_MAX_DIGEST	64
#define REF_MAX_BLOCK	128

struct ref_ctx {
	enum ref_alg alg;
	union {
		uint32_t w32[8];
		uint64_t w64[8];
	} h;
	uint8_t buf[REF_MAX_BLOCK];
	size_t buflen;
	uint64_t total;		/* bytes hashed so far */
	/* SHA-256 only: the compression function to use instead of ours (hash.c's keys); NULL: ours */
	void (*sha256_blocks)(uint32_t h[8], const uint8_t *p, size_t n);
};

/* Kernel-style name ("sha256") to ref_alg; -1 if unknown. */
int ref_alg_by_name(const char *name);
const char *ref_alg_name(enum ref_alg alg);
size_t ref_digest_len(enum ref_alg alg);
size_t ref_block_len(enum ref_alg alg);

void ref_init(struct ref_ctx *c, enum ref_alg alg);
void ref_update(struct ref_ctx *c, const void *data, size_t len);
/* Writes ref_digest_len() bytes. */
void ref_final(struct ref_ctx *c, uint8_t *out);

/* SHA-256's round constants (FIPS 180-4 4.2.2) */
extern const uint32_t ref_sha256_k[64];

void ref_digest(enum ref_alg alg, const void *data, size_t len, uint8_t *out);
void ref_hmac(enum ref_alg alg, const void *key, size_t keylen,
	      const void *data, size_t len, uint8_t *out);

#endif
