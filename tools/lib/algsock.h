/* SPDX-License-Identifier: GPL-2.0 */
/*
 * algsock.h: the AF_ALG socket layer of rapido-afalg-selftest and
 * rapido-afalg-sum: bind a transform, set its key, accept op sockets, one
 * send or recv; the digest sizes of the hashes it knows; advice for the
 * errors AF_ALG gives.
 *
 * All functions return 0 (or an fd / byte count) on success and -errno on
 * failure, retrying EINTR. An op socket is accept()ed from a bound "tfm"
 * socket; algif_hash finalises when a send comes without MSG_MORE, or at
 * the first recv.
 */
#ifndef RAPIDO_ALGSOCK_H
#define RAPIDO_ALGSOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* socket(AF_ALG): 0 if the family exists, else -errno (EAFNOSUPPORT). */
int afalg_probe(void);
/* socket + bind to type ("hash", "skcipher", "aead") and name; fd or -errno. */
int afalg_tfm(const char *type, const char *name);
int afalg_setkey(int tfmfd, const void *key, size_t keylen);
int afalg_set_authsize(int tfmfd, unsigned int authsize);
/* accept4(fd, CLOEXEC): an op socket from a tfm socket, or a clone of an op socket. */
int afalg_accept(int fd);
/* One sendmsg; returns bytes taken or -errno. */
ssize_t afalg_send(int opfd, const void *buf, size_t len, bool more);
/* One recvmsg into buf; returns bytes or -errno; *msg_flags (may be NULL) gets msghdr.msg_flags. */
ssize_t afalg_recv(int opfd, void *buf, size_t len, int *msg_flags);

/* Digest size in bytes of a well-known hash (also hmac(X)); 0 if not known. */
size_t afalg_digest_len(const char *alg);

/* Advice for an errno from AF_ALG, or NULL. stage: "socket", "bind", "setkey", ... */
const char *afalg_advice(int err, const char *stage, const char *type);

#endif
