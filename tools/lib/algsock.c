// SPDX-License-Identifier: GPL-2.0
/* algsock.c: the AF_ALG socket layer (algsock.h). */
#include <errno.h>
#include <linux/if_alg.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "algsock.h"
#include "refhash.h"

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

int afalg_probe(void)
{
	int fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int afalg_tfm(const char *type, const char *name)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int fd, err;

	if (strlen(type) >= sizeof(sa.salg_type) || strlen(name) >= sizeof(sa.salg_name))
		return -ENAMETOOLONG;
	strcpy((char *)sa.salg_type, type);
	strcpy((char *)sa.salg_name, name);
	fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

int afalg_setkey(int tfmfd, const void *key, size_t keylen)
{
	return setsockopt(tfmfd, SOL_ALG, ALG_SET_KEY, key, (socklen_t)keylen) ? -errno : 0;
}

int afalg_set_authsize(int tfmfd, unsigned int authsize)
{
	/* The size travels in optlen; optval is unused (crypto/af_alg.c). */
	return setsockopt(tfmfd, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, authsize) ? -errno : 0;
}

int afalg_accept(int fd)
{
	int op;

	do
		op = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
	while (op < 0 && errno == EINTR);
	return op < 0 ? -errno : op;
}

ssize_t afalg_send(int opfd, const void *buf, size_t len, bool more)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	do
		n = sendmsg(opfd, &msg, more ? MSG_MORE : 0);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

ssize_t afalg_recv(int opfd, void *buf, size_t len, int *msg_flags)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	do
		n = recvmsg(opfd, &msg, 0);
	while (n < 0 && errno == EINTR);
	if (msg_flags)
		*msg_flags = msg.msg_flags;
	return n < 0 ? -errno : n;
}

/* Besides refhash.c's md5, sha1 and sha2, whose sizes it knows itself. */
static const struct {
	const char *name;
	size_t len;
} known[] = {
	{ "md4", 16 },
	{ "rmd160", 20 },
	{ "sha3-224", 28 },
	{ "sha3-256", 32 },
	{ "sha3-384", 48 },
	{ "sha3-512", 64 },
	{ "sm3", 32 },
	{ "streebog256", 32 },
	{ "streebog512", 64 },
	{ "blake2b-160", 20 },
	{ "blake2b-256", 32 },
	{ "blake2b-384", 48 },
	{ "blake2b-512", 64 },
	{ "wp256", 32 },
	{ "wp384", 48 },
	{ "wp512", 64 },
	{ "crc32", 4 },
	{ "crc32c", 4 },
	{ "crct10dif", 2 },
	{ "xxhash64", 8 },
	{ "ghash", 16 },
	{ "polyval", 16 },
};

#define NKNOWN (sizeof(known) / sizeof(known[0]))

/* The size of the hash called name[0, n): not NUL-terminated, for hmac(X)'s X. */
static size_t hash_len(const char *name, size_t n)
{
	for (int a = 0; a < REF_NR_ALGS; a++)
		if (strlen(ref_alg_name(a)) == n && !strncmp(name, ref_alg_name(a), n))
			return ref_digest_len(a);
	for (size_t i = 0; i < NKNOWN; i++)
		if (strlen(known[i].name) == n && !strncmp(name, known[i].name, n))
			return known[i].len;
	return 0;
}

size_t afalg_digest_len(const char *alg)
{
	size_t n = strlen(alg);

	/* hmac(X) has X's digest size */
	if (!strncmp(alg, "hmac(", 5))
		return n > 6 && alg[n - 1] == ')' ? hash_len(alg + 5, n - 6) : 0;
	return hash_len(alg, n);
}

const char *afalg_advice(int err, const char *stage, const char *type)
{
	switch (err) {
	case -EAFNOSUPPORT:
		return "this kernel has no AF_ALG: enable CONFIG_CRYPTO_USER_API_HASH "
		       "(and _SKCIPHER, _AEAD) or modprobe af_alg algif_hash";
	case -ENOENT:
		if (strcmp(stage, "bind"))
			return NULL;
		if (!strcmp(type, "skcipher"))
			return "no such algorithm/driver (see /proc/crypto), or algif_skcipher "
			       "missing (CONFIG_CRYPTO_USER_API_SKCIPHER, modprobe algif_skcipher)";
		if (!strcmp(type, "aead"))
			return "no such algorithm/driver (see /proc/crypto), or algif_aead "
			       "missing (CONFIG_CRYPTO_USER_API_AEAD, modprobe algif_aead)";
		return "no such algorithm/driver (see /proc/crypto), or algif_hash "
		       "missing (CONFIG_CRYPTO_USER_API_HASH, modprobe algif_hash)";
	case -ELIBBAD:
		return "the kernel's own self-test of this implementation failed "
		       "(see dmesg and 'selftest' in /proc/crypto)";
	case -ENOKEY:
		return "keyed algorithm used before ALG_SET_KEY";
	case -EBUSY:
		return "the key cannot change while an accept()ed socket uses it";
	default:
		return NULL;
	}
}
