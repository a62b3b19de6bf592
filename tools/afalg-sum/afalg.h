/* SPDX-License-Identifier: GPL-2.0 */
/* afalg.h: the AF_ALG hash engine: bind, key, probe, one op socket per message. */
#ifndef AFSUM_AFALG_H
#define AFSUM_AFALG_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "feed.h"
#include "sum.h"

/* Keys are read to their end, up to this many bytes. */
#define AFSUM_MAX_KEY 65536

/* Where afsum_alg_open() failed. */
enum afsum_alg_step {
	AFSUM_STEP_NONE,
	AFSUM_STEP_SOCKET,	/* socket(AF_ALG): no AF_ALG */
	AFSUM_STEP_BIND,	/* bind(): no such hash (or no algif_hash) */
	AFSUM_STEP_SETKEY,	/* setsockopt(ALG_SET_KEY) */
	AFSUM_STEP_ACCEPT,	/* accept(): ENOKEY for a keyed hash without key */
	AFSUM_STEP_PROBE,	/* reading the digest of the empty message */
	AFSUM_STEP_LENGTH,	/* it had the wrong length (got_len) */
	AFSUM_STEP_EMPTY,	/* it had the wrong value */
};

struct afsum_alg {
	int tfm;		/* bound transform socket */
	size_t digest_len;	/* bytes, from the kernel, checked against afalg_digest_len() */
	enum afsum_alg_step failed;
	size_t got_len;
};

/*
 * The digest of the empty message for md5, sha1 and sha2 (refhash.c) into
 * out (REF_MAX_DIGEST bytes); returns its length, 0 for other hashes.
 */
size_t afsum_alg_empty_digest(const char *alg, unsigned char *out);

/* True for hashes that cannot work without a key: hmac(...), cmac(...), ghash, ... */
bool afsum_alg_needs_key(const char *alg);

/*
 * Bind alg, set the key if one is given, then probe: one op socket that
 * is read with nothing written gives the digest of the empty message,
 * which tells the digest size (for hashes not in the table), checks it
 * (for those that are) and brings out ENOKEY before any file is read.
 * Returns 0 or -errno, with a->failed saying where.
 */
int afsum_alg_open(struct afsum_alg *a, const char *alg, const void *key, size_t keylen);
void afsum_alg_close(struct afsum_alg *a);

/* A fresh op socket for one message; fd or -errno. */
int afsum_alg_op(struct afsum_alg *a);

/* Bind a throw-away AF_ALG hash socket to alg; 0 or -errno. */
int afsum_alg_try_bind(const char *alg);

/*
 * Read the digest: one recvmsg() with room for more than any digest, so
 * the kernel hands over all of it (algif_hash returns min(len, digest
 * size) and sets MSG_TRUNC if the buffer was smaller). Returns its length,
 * or -errno: -EMSGSIZE if it did not fit, -ENODATA if nothing came.
 */
ssize_t afsum_read_digest(int op, unsigned char *out, size_t outsz);

/*
 * Feed in to the op socket and read the digest, which must be want bytes
 * long (-EBADMSG, with *len set to what came, if not). Returns 0 or
 * -errno; st->input_failed tells an input error from a socket error.
 */
int afsum_hash_op(int op, int in, const struct afsum_feed_ctl *ctl, size_t want,
		  unsigned char *digest, size_t *len, struct afsum_feed_stats *st);

/* Read a key from fd to its end: 0 (key is malloc'd), -EFBIG past AFSUM_MAX_KEY, -errno. */
int afsum_read_key(int fd, unsigned char **key, size_t *len);

#endif
