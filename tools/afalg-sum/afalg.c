// SPDX-License-Identifier: GPL-2.0
/* afalg.c: the hash engine on algsock.h: bind, set the key, probe, and read digests back. */
#include <errno.h>
#include <fcntl.h>
#include <linux/if_alg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "afalg.h"
#include "algsock.h"
#include "err.h"
#include "io.h"
#include "refhash.h"

/* Room for any digest and then some: a bigger one would come back MSG_TRUNC. */
#define RECV_ROOM 512

/*
 * The digest of "" for the hashes refhash.c knows (md5, sha1, sha2), which
 * the probe checks: into out, returning its length; 0 for the others.
 */
size_t afsum_alg_empty_digest(const char *alg, unsigned char *out)
{
	int a = ref_alg_by_name(alg);

	if (a < 0)
		return 0;
	ref_digest(a, "", 0, out);
	return ref_digest_len(a);
}

bool afsum_alg_needs_key(const char *alg)
{
	static const char *const prefixes[] = { "hmac(", "cmac(", "xcbc(", "vmac(", "vmac64(" };
	static const char *const names[] = { "ghash", "polyval", "michael_mic", "nhpoly1305" };
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(alg, prefixes[i], strlen(prefixes[i])))
			return true;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(alg, names[i]))
			return true;
	return false;
}

int afsum_alg_try_bind(const char *alg)
{
	int fd = afalg_tfm("hash", alg);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

ssize_t afsum_read_digest(int op, unsigned char *out, size_t outsz)
{
	unsigned char room[RECV_ROOM];
	int flags;
	ssize_t n = afalg_recv(op, room, sizeof(room), &flags);

	if (n < 0)
		return n;
	if (flags & MSG_TRUNC)
		return -EMSGSIZE;
	if (n == 0)
		return -ENODATA;
	if ((size_t)n > outsz)
		return -EMSGSIZE;
	memcpy(out, room, (size_t)n);
	return n;
}

int afsum_alg_open(struct afsum_alg *a, const char *alg, const void *key, size_t keylen)
{
	unsigned char d[AFSUM_MAX_DIGEST], empty[REF_MAX_DIGEST];
	size_t want, empty_len;
	ssize_t n;
	int rc, op;

	*a = (struct afsum_alg){ .tfm = -1 };
	rc = afalg_probe();
	if (rc) {
		a->failed = AFSUM_STEP_SOCKET;
		return rc;
	}
	a->tfm = afalg_tfm("hash", alg);
	if (a->tfm < 0) {
		rc = a->tfm;
		a->tfm = -1;
		a->failed = AFSUM_STEP_BIND;
		return rc;
	}
	if (key && (rc = afalg_setkey(a->tfm, key, keylen))) {
		a->failed = AFSUM_STEP_SETKEY;
		goto close_tfm;
	}

	op = afsum_alg_op(a);
	if (op < 0) {
		rc = op;
		a->failed = AFSUM_STEP_ACCEPT;
		goto close_tfm;
	}
	n = afsum_read_digest(op, d, sizeof(d));
	close(op);
	if (n < 0) {
		rc = (int)n;
		a->failed = AFSUM_STEP_PROBE;
		goto close_tfm;
	}
	want = afalg_digest_len(alg);
	if (want && (size_t)n != want) {
		rc = -EBADMSG;
		a->got_len = (size_t)n;
		a->failed = AFSUM_STEP_LENGTH;
		goto close_tfm;
	}
	empty_len = key ? 0 : afsum_alg_empty_digest(alg, empty);
	if (empty_len && (empty_len != (size_t)n || memcmp(empty, d, empty_len))) {
		rc = -EBADMSG;
		a->failed = AFSUM_STEP_EMPTY;
		goto close_tfm;
	}
	a->digest_len = (size_t)n;
	return 0;

close_tfm:
	close(a->tfm);
	a->tfm = -1;
	return rc;
}

void afsum_alg_close(struct afsum_alg *a)
{
	if (a->tfm >= 0)
		close(a->tfm);
	a->tfm = -1;
}

int afsum_alg_op(struct afsum_alg *a)
{
	return afalg_accept(a->tfm);
}

int afsum_hash_op(int op, int in, const struct afsum_feed_ctl *ctl, size_t want,
		  unsigned char *digest, size_t *len, struct afsum_feed_stats *st)
{
	ssize_t n;
	int rc;

	rc = afsum_feed(op, in, ctl, st);
	if (rc)
		return rc;
	st->input_failed = false;
	n = afsum_read_digest(op, digest, AFSUM_MAX_DIGEST);
	if (n < 0)
		return (int)n;
	*len = (size_t)n;
	if ((size_t)n != want)
		return -EBADMSG;
	return 0;
}

int afsum_read_key(int fd, unsigned char **key, size_t *len)
{
	unsigned char *buf = xmalloc(AFSUM_MAX_KEY + 1);
	ssize_t n = read_full(fd, buf, AFSUM_MAX_KEY + 1);

	if (n < 0 || n > AFSUM_MAX_KEY) {
		explicit_bzero(buf, AFSUM_MAX_KEY + 1);
		free(buf);
		return n < 0 ? (int)n : -EFBIG;
	}
	*key = buf;
	*len = (size_t)n;
	return 0;
}
