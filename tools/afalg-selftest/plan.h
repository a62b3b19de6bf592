/* SPDX-License-Identifier: GPL-2.0 */
/* plan.h: which implementations and tests a run covers, fixed before the first test. */
#ifndef AFALG_PLAN_H
#define AFALG_PLAN_H

#include <stdio.h>

#include "afalg.h"
#include "proccrypto.h"
#include "vectors.h"

enum impl_kind {
	IMPL_HASH,
	IMPL_HMAC,
	IMPL_SKCIPHER,
	IMPL_AEAD,
};

struct impl {
	enum impl_kind kind;
	const struct hash_alg *halg;	/* IMPL_HASH, IMPL_HMAC */
	const char *cipher;		/* IMPL_SKCIPHER, IMPL_AEAD: "cbc(aes)" */
	char *bind;			/* what goes into salg_name */
	char *origin;			/* why it is tested, for --list and comments */
};

enum test_kind {
	T_SELFCHECK,	/* tables and refhash agree */
	T_HASH_TYPE,	/* some table digest binds: algif_hash is there */
	T_ENOENT,	/* unknown algorithm: bind gives ENOENT */
	T_NOKEY_SEND,	/* hmac without key: accept works, send gives ENOKEY */
	T_NOKEY_RECV,	/* hmac without key: recv gives ENOKEY */
	T_LATE_KEY,	/* setkey after a key-less accept makes it usable */
	T_EBUSY,	/* setkey while a keyed op socket is open: EBUSY */
	T_TRUNC,	/* short recv: MSG_TRUNC and the digest's prefix */
	T_BADKEY,	/* cbc(aes) with a 17-byte key: EINVAL */
	T_HASH,
	T_HMAC,
	T_CIPHER,
	T_AEAD_TAMPER,	/* flipped tag bit: EBADMSG */
};

struct test {
	enum test_kind kind;
	const struct impl *impl;
	const struct hash_vec *hv;
	const struct hmac_vec *mv;
	const struct cipher_vec *cv;
	enum hash_path path;	/* T_HASH, T_HMAC; T_CIPHER uses ONESHOT/CHUNKED */
	int encrypt;		/* T_CIPHER */
	char *desc;
};

struct plan {
	struct impl *impls;
	size_t nimpls;
	struct test *tests;
	size_t ntests;
};

/* The hash and HMAC algorithm the negative tests use. */
#define NEG_HASH	"sha256"
#define NEG_HMAC	"hmac(sha256)"
#define NEG_CIPHER	"cbc(aes)"
#define NEG_UNKNOWN	"rapido-no-such-alg"

/*
 * Implementations: for each table algorithm its generic name, then every
 * non-internal driver /proc/crypto lists under that name; for HMAC also
 * hmac(DRIVER) of each listed hash driver and every listed hmac(...)
 * driver. Tests: every vector of the algorithm on every implementation
 * through every path, plus the negative cases. only (may be NULL) keeps
 * tests whose description contains it, or matches it as a glob when it
 * has * ? or [.
 */
void plan_build(struct plan *p, const struct pc_list *pc, const char *only);
void plan_free(struct plan *p);
/* --list: the implementations and numbered test descriptions. */
void plan_print(FILE *f, const struct plan *p);
/* --dump-vectors: one line per vector, for the host cross-check. */
void vectors_dump(FILE *f);
/* A spec in the dumped form: "x:HEX" or "r:HH*N" (malloc'd). NULL if bad. */
char *spec_normalize(const char *spec);

#endif
