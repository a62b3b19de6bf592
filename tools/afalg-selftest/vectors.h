/* SPDX-License-Identifier: GPL-2.0 */
/* vectors.h: the known-answer tables of the AF_ALG self-test and byte-spec helpers. */
#ifndef AFALG_VECTORS_H
#define AFALG_VECTORS_H

#include <stddef.h>
#include <stdint.h>

#include "refhash.h"

/*
 * Byte strings are written as specs, expanded at run time:
 *   "t:TEXT"   the text itself (no NUL)
 *   "x:HEX"    hex digits, two per byte
 *   "r:HH*N"   byte 0xHH repeated N times (the million 'a's: "r:61*1000000")
 *   "p:N"      N bytes of the boundary pattern, byte i = (i * 31 + 7) & 0xff
 */

struct hash_vec {
	const char *id;		/* short, unique per algorithm: "abc", "len-55" */
	const char *src;	/* where the expected digest comes from */
	const char *msg;	/* spec */
	const char *md;		/* hex; NULL: computed by the reference (refhash.c) */
};

struct hmac_vec {
	const char *id;
	const char *src;
	const char *key;	/* spec */
	const char *msg;	/* spec */
	const char *mac;	/* hex */
	size_t trunc;		/* the source gives only this many leading bytes; 0: all */
};

enum cipher_kind {
	CIPHER_SKCIPHER,
	CIPHER_AEAD,
};

struct cipher_vec {
	const char *id;
	const char *src;
	const char *alg;	/* kernel name: "cbc(aes)", "gcm(aes)" */
	enum cipher_kind kind;
	const char *key, *iv, *aad, *pt, *ct, *tag;	/* hex; aad and tag: AEAD only */
};

struct hash_alg {
	const char *name;	/* kernel name of the digest: "sha256" */
	enum ref_alg ref;
	const struct hash_vec *vecs;
	size_t nvecs;
	const struct hmac_vec *hmacs;
	size_t nhmacs;
};

extern const struct hash_alg hash_algs[];
extern const size_t n_hash_algs;
extern const struct cipher_vec cipher_vecs[];
extern const size_t n_cipher_vecs;

#define AES_BLOCK	16
#define GCM_IV_LEN	12
#define GCM_TAG_LEN	16

/* Expand a spec (see above) into a malloc'd buffer (never NULL). 0 or -EINVAL. */
int spec_expand(const char *spec, uint8_t **out, size_t *len);
/* The boundary pattern byte at offset i. */
uint8_t spec_pattern_byte(size_t i);

/*
 * Expected digest of a hash vector: the stored one, or the reference's.
 * out holds REF_MAX_DIGEST bytes. 0 or -EINVAL (bad spec or hex).
 */
int hash_vec_expected(const struct hash_alg *a, const struct hash_vec *v, uint8_t *out);

/*
 * Check every table: specs and hex parse, lengths fit the algorithm, ids
 * are unique, and the reference implementation reproduces every stored
 * digest and MAC. Returns the number of problems; each is described
 * through report (may be NULL).
 */
int vectors_check(void (*report)(const char *msg, void *arg), void *arg);

const struct hash_alg *hash_alg_by_name(const char *name);

#endif
