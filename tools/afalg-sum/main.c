// SPDX-License-Identifier: GPL-2.0
/* main.c: rapido-afalg-sum, a sha256sum whose hashing is done by the kernel (AF_ALG). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "afalg.h"
#include "algsock.h"
#include "err.h"
#include "fmt.h"
#include "mode.h"
#include "opts.h"
#include "proccrypto.h"

#define NO_AFALG_ADVICE "load af_alg/algif_hash or enable CONFIG_CRYPTO_USER_API_HASH"

struct kernel_hasher {
	struct afsum_hasher h;	/* first: the hash callback gets a pointer to it */
	struct afsum_alg alg;
	struct afsum_feed_ctl ctl;
	const char *name;
	bool debug;
};

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", err_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void say_file(const char *file, const char *what, int err)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", err_prog);
	afsum_quote(stderr, file);
	fprintf(stderr, ": %s%s%s\n", what, err ? ": " : "", err ? strerror(err) : "");
}

static int key_needed(const char *alg)
{
	say("%s needs a key: use --key-file or --key-fd", alg);
	return AFSUM_EXIT_KEY;
}

static int kernel_hash(struct afsum_hasher *h, int fd, const char *name,
		       unsigned char *digest, size_t *len)
{
	struct kernel_hasher *k = (struct kernel_hasher *)h;
	struct afsum_feed_stats st = { 0 };
	int op, rc;

	op = afsum_alg_op(&k->alg);
	if (op < 0) {
		if (op == -ENOKEY)
			return key_needed(k->name);
		say_file(name, "AF_ALG accept failed", -op);
		return AFSUM_EXIT_KERNEL;
	}
	rc = afsum_hash_op(op, fd, &k->ctl, h->digest_len, digest, len, &st);
	close(op);
	if (k->debug) {
		fflush(stdout);
		fprintf(stderr, "%s: ", err_prog);
		afsum_quote(stderr, name);
		fprintf(stderr, ": %llu bytes, %llu spliced, %s%s%s\n",
			(unsigned long long)st.bytes, (unsigned long long)st.spliced,
			afsum_feed_how_name(st.how), st.fallback_err ? ": " : "",
			st.fallback_err ? strerror(st.fallback_err) : "");
	}
	if (!rc)
		return 0;
	if (rc == -ENOKEY)
		return key_needed(k->name);
	if (st.input_failed)
		return rc;	/* reported like coreutils by the caller */
	if (rc == -EBADMSG) {
		fflush(stdout);
		fprintf(stderr, "%s: ", err_prog);
		afsum_quote(stderr, name);
		fprintf(stderr, ": kernel's %s returned a %zu-byte digest, expected %zu: not printed\n",
			k->name, *len, h->digest_len);
	} else {
		say_file(name, "AF_ALG hashing failed, no digest printed", -rc);
	}
	return AFSUM_EXIT_KERNEL;
}

static int load_key(const struct afsum_opts *o, unsigned char **key, size_t *len)
{
	char fdname[32];
	const char *from = o->key_file;
	int fd = o->key_fd, rc;

	*key = NULL;
	*len = 0;
	if (!o->key_file && o->key_fd < 0)
		return afsum_alg_needs_key(o->alg) ? key_needed(o->alg) : 0;
	if (o->key_file) {
		fd = open(o->key_file, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			int e = errno;

			fprintf(stderr, "%s: cannot open key file ", err_prog);
			afsum_quote(stderr, o->key_file);
			fprintf(stderr, ": %s\n", strerror(e));
			return AFSUM_EXIT_KEY;
		}
	} else {
		snprintf(fdname, sizeof(fdname), "file descriptor %d", fd);
		from = fdname;
	}
	rc = afsum_read_key(fd, key, len);
	if (o->key_file)
		close(fd);
	if (rc == -EFBIG) {
		say("key from %s is larger than %d bytes", from, AFSUM_MAX_KEY);
		return AFSUM_EXIT_KEY;
	}
	if (rc < 0) {
		say("cannot read key from %s: %s", from, strerror(-rc));
		return AFSUM_EXIT_KEY;
	}
	if (!*len) {
		free(*key);
		*key = NULL;
		say("key from %s is empty", from);
		return AFSUM_EXIT_KEY;
	}
	return 0;
}

/*
 * bind() gives ENOENT both for an unknown hash and when algif_hash is not
 * loaded (the "hash" type is missing; af_alg asks modprobe for algif-hash
 * and it may not be in the image). Tell them apart: if sha256 cannot be
 * bound either although /proc/crypto lists it, the type is missing.
 */
static int bind_enoent(const char *alg)
{
	const char *probe = "sha256";

	if (strcmp(alg, probe) && afsum_alg_try_bind(probe) != -ENOENT) {
		say("unknown hash algorithm '%s': see /proc/crypto", alg);
		return AFSUM_EXIT_UNKNOWN_ALG;
	}
	if (pc_file_has("/proc/crypto", probe)) {
		say("AF_ALG hash sockets not available ('%s' is in /proc/crypto but cannot be bound): "
		    "load algif_hash or enable CONFIG_CRYPTO_USER_API_HASH", probe);
		return AFSUM_EXIT_NO_AFALG;
	}
	say("unknown hash algorithm '%s': see /proc/crypto (if nothing can be bound, "
	    NO_AFALG_ADVICE ")", alg);
	return AFSUM_EXIT_UNKNOWN_ALG;
}

static int open_alg(struct afsum_alg *a, const char *alg, const void *key, size_t keylen)
{
	int rc = afsum_alg_open(a, alg, key, keylen), e = -rc;

	if (!rc)
		return 0;
	switch (a->failed) {
	case AFSUM_STEP_SOCKET:
		if (e == EAFNOSUPPORT)
			say("AF_ALG not available: " NO_AFALG_ADVICE);
		else
			say("AF_ALG not available: socket: %s: " NO_AFALG_ADVICE, strerror(e));
		return AFSUM_EXIT_NO_AFALG;
	case AFSUM_STEP_BIND:
		if (e == ENOENT)
			return bind_enoent(alg);
		if (e == ELIBBAD)
			say("hash algorithm '%s' is unusable (it failed its self-test, or FIPS mode forbids it)",
			    alg);
		else
			say("cannot bind hash algorithm '%s': %s", alg, strerror(e));
		return AFSUM_EXIT_UNKNOWN_ALG;
	case AFSUM_STEP_SETKEY:
		if (e == ENOSYS || e == EOPNOTSUPP)
			say("%s takes no key: drop --key-file/--key-fd", alg);
		else
			say("the kernel refused the key for %s: %s", alg, strerror(e));
		return AFSUM_EXIT_KEY;
	case AFSUM_STEP_ACCEPT:
	case AFSUM_STEP_PROBE:
		if (e == ENOKEY)
			return key_needed(alg);
		say("AF_ALG %s: %s failed: %s", alg,
		    a->failed == AFSUM_STEP_ACCEPT ? "accept" : "reading a digest", strerror(e));
		return AFSUM_EXIT_KERNEL;
	case AFSUM_STEP_LENGTH:
		say("kernel's %s returned a %zu-byte digest, expected %zu: refusing to use it",
		    alg, a->got_len, afalg_digest_len(alg));
		return AFSUM_EXIT_KERNEL;
	case AFSUM_STEP_EMPTY:
		say("kernel's %s gave a wrong digest for the empty message: refusing to use it", alg);
		return AFSUM_EXIT_KERNEL;
	case AFSUM_STEP_NONE:
		break;
	}
	say("AF_ALG %s: %s", alg, strerror(e));
	return AFSUM_EXIT_KERNEL;
}

int main(int argc, char **argv)
{
	struct kernel_hasher k = { .h.hash = kernel_hash };
	char tag[AFSUM_MAX_ALG_NAME + 1];
	struct afsum_opts o;
	unsigned char *key;
	size_t keylen;
	int rc;

	err_prog = AFSUM_PROG;
	err_exit_status = AFSUM_EXIT_FAIL;
	/* whole lines, so parallel runs do not intersperse their output (as coreutils) */
	setvbuf(stdout, NULL, _IOLBF, 0);

	rc = afsum_parse_args(&o, argc, argv, stdout, stderr);
	if (rc >= 0)
		goto out;
	rc = load_key(&o, &key, &keylen);
	if (rc)
		goto out;
	rc = open_alg(&k.alg, o.alg, key, keylen);
	if (key) {
		explicit_bzero(key, keylen);
		free(key);
	}
	if (rc)
		goto out;

	k.name = o.alg;
	k.debug = o.debug;
	k.ctl.no_splice = o.no_splice;
	k.h.digest_len = k.alg.digest_len;
	k.h.tag = afsum_tag_name(o.alg, tag, sizeof(tag));
	rc = afsum_run(&o, &k.h, stdout, stderr);
	afsum_alg_close(&k.alg);
out:
	close_stdout();
	return rc;
}
