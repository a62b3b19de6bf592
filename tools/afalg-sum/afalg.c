// SPDX-License-Identifier: GPL-2.0
/* afalg.c: talk to algif_hash: bind, set the key, probe, and read digests back. */
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
#include "err.h"
#include "fmt.h"
#include "io.h"

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

/* Room for any digest and then some: a bigger one would come back MSG_TRUNC. */
#define RECV_ROOM 512

static const struct {
	const char *name;
	size_t len;
	const char *empty;	/* digest of "", checked by the probe */
} known[] = {
	{ "md5", 16, "d41d8cd98f00b204e9800998ecf8427e" },
	{ "sha1", 20, "da39a3ee5e6b4b0d3255bfef95601890afd80709" },
	{ "sha224", 28, "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f" },
	{ "sha256", 32, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "sha384", 48, "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da"
			"274edebfe76f65fbd51ad2f14898b95b" },
	{ "sha512", 64, "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
			"47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e" },
	{ "md4", 16, NULL },
	{ "rmd160", 20, NULL },
	{ "sha3-224", 28, NULL },
	{ "sha3-256", 32, NULL },
	{ "sha3-384", 48, NULL },
	{ "sha3-512", 64, NULL },
	{ "sm3", 32, NULL },
	{ "streebog256", 32, NULL },
	{ "streebog512", 64, NULL },
	{ "blake2b-160", 20, NULL },
	{ "blake2b-256", 32, NULL },
	{ "blake2b-384", 48, NULL },
	{ "blake2b-512", 64, NULL },
	{ "wp256", 32, NULL },
	{ "wp384", 48, NULL },
	{ "wp512", 64, NULL },
	{ "crc32", 4, NULL },
	{ "crc32c", 4, NULL },
	{ "crct10dif", 2, NULL },
	{ "xxhash64", 8, NULL },
	{ "ghash", 16, NULL },
	{ "polyval", 16, NULL },
};

#define NKNOWN (sizeof(known) / sizeof(known[0]))

size_t afsum_alg_known_len(const char *alg)
{
	size_t i, n = strlen(alg);

	/* hmac(X) has X's digest size */
	if (!strncmp(alg, "hmac(", 5) && n > 6 && alg[n - 1] == ')') {
		for (i = 0; i < NKNOWN; i++)
			if (strlen(known[i].name) == n - 6 && !strncmp(alg + 5, known[i].name, n - 6))
				return known[i].len;
		return 0;
	}
	for (i = 0; i < NKNOWN; i++)
		if (!strcmp(alg, known[i].name))
			return known[i].len;
	return 0;
}

const char *afsum_alg_empty_digest(const char *alg)
{
	size_t i;

	for (i = 0; i < NKNOWN; i++)
		if (!strcmp(alg, known[i].name))
			return known[i].empty;
	return NULL;
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

static int alg_bind(int fd, const char *alg)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG, .salg_type = "hash" };
	size_t n = strlen(alg);

	if (n >= sizeof(sa.salg_name))
		return -ENAMETOOLONG;
	memcpy(sa.salg_name, alg, n + 1);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	return 0;
}

int afsum_alg_try_bind(const char *alg)
{
	int fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0), rc;

	if (fd < 0)
		return -errno;
	rc = alg_bind(fd, alg);
	close(fd);
	return rc;
}

bool afsum_proc_crypto_has(const char *path, const char *name)
{
	bool found = false;
	char *buf, *line, *save = NULL;

	if (read_file(path, &buf, NULL) < 0)
		return false;
	for (line = strtok_r(buf, "\n", &save); line && !found; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		char *val;

		/* "name         : sha256" */
		if (strncmp(line, "name", 4) || !colon || strspn(line + 4, " \t") != (size_t)(colon - line - 4))
			continue;
		val = colon + 1 + strspn(colon + 1, " \t");
		found = !strcmp(val, name);
	}
	free(buf);
	return found;
}

ssize_t afsum_read_digest(int op, unsigned char *out, size_t outsz)
{
	unsigned char room[RECV_ROOM];
	struct iovec iov = { .iov_base = room, .iov_len = sizeof(room) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	do
		n = recvmsg(op, &msg, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (msg.msg_flags & MSG_TRUNC)
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
	unsigned char d[AFSUM_MAX_DIGEST];
	const char *empty;
	size_t want;
	ssize_t n;
	int rc, op;

	*a = (struct afsum_alg){ .tfm = -1 };
	a->tfm = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (a->tfm < 0) {
		a->failed = AFSUM_STEP_SOCKET;
		return -errno;
	}
	rc = alg_bind(a->tfm, alg);
	if (rc) {
		a->failed = AFSUM_STEP_BIND;
		goto close_tfm;
	}
	if (key && setsockopt(a->tfm, SOL_ALG, ALG_SET_KEY, key, (socklen_t)keylen) < 0) {
		rc = -errno;
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
	want = afsum_alg_known_len(alg);
	if (want && (size_t)n != want) {
		rc = -EBADMSG;
		a->got_len = (size_t)n;
		a->failed = AFSUM_STEP_LENGTH;
		goto close_tfm;
	}
	empty = key ? NULL : afsum_alg_empty_digest(alg);
	if (empty && !afsum_hex_equal(empty, strlen(empty), d, (size_t)n)) {
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
	int op;

	do
		op = accept4(a->tfm, NULL, NULL, SOCK_CLOEXEC);
	while (op < 0 && errno == EINTR);
	return op < 0 ? -errno : op;
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
