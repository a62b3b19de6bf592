/* SPDX-License-Identifier: GPL-2.0 */
/* afalg.h: the self-test's hash input paths and cipher ops over AF_ALG. */
#ifndef AFALG_AFALG_H
#define AFALG_AFALG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "algsock.h"

/* As in algsock.h: 0 (or a count) on success, -errno on failure; why/whylen say which step failed. */

enum hash_path {
	PATH_ONESHOT,	/* one sendmsg of the whole message */
	PATH_CHUNKED,	/* many sendmsg(MSG_MORE) of 1, 3, 7, ... bytes */
	PATH_SPLICE,	/* vmsplice into a pipe, splice into the op socket */
	PATH_CLONE,	/* accept() on the op socket halfway, finish both */
	PATH_NR
};

const char *hash_path_name(enum hash_path p);

/*
 * Length of chunk number idx when a total-byte message is sent in small
 * pieces: 1, 3, 7, 1, 3, 7, ... and, past 4 KiB total, also 4093- and
 * 8191-byte pieces so a million bytes take hundreds of calls, not 270000.
 * Never 0; the caller clamps it to what is left.
 */
size_t chunk_size(size_t idx, size_t total);

/* Where a clone is taken: half way (0 for the empty message). */
size_t clone_split(size_t len);

struct hash_result {
	uint8_t md[64];
	ssize_t len;		/* bytes recv returned */
	uint8_t clone_md[64];	/* PATH_CLONE: what the clone produced */
	ssize_t clone_len;
};

/*
 * Hash msg on a fresh op socket of tfmfd through path. recv is asked for
 * 64 bytes (any digest fits) so res->len is the digest size the kernel
 * reports. Returns 0 or -errno.
 */
int afalg_hash(int tfmfd, enum hash_path path, const uint8_t *msg, size_t len,
	       struct hash_result *res, char *why, size_t whylen);

/* Send len bytes through a pipe with vmsplice + splice; more: keep MSG_MORE at the end. */
int afalg_splice_in(int opfd, const uint8_t *buf, size_t len, bool more,
		    char *why, size_t whylen);

struct cipher_op {
	bool encrypt;
	const uint8_t *iv;
	size_t ivlen;
	bool aead;
	size_t assoclen;	/* AEAD: leading bytes of in that are AAD */
	const uint8_t *in;
	size_t inlen;
	uint8_t *out;
	size_t outlen;		/* bytes expected back */
	bool chunked;		/* send in MSG_MORE pieces after the first cmsg send */
};

/* One skcipher/AEAD operation on a fresh op socket. 0 or -errno (EBADMSG: tag). */
int afalg_cipher(int tfmfd, const struct cipher_op *op, char *why, size_t whylen);

#endif
