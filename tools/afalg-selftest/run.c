// SPDX-License-Identifier: GPL-2.0
/* run.c: execute the planned tests over AF_ALG and report them as TAP. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "err.h"
#include "hex.h"
#include "run.h"

enum status { PASS, FAIL, SKIP };

struct result {
	enum status st;
	char why[512];		/* skip reason, or the first failure line */
	char diag[1024];	/* further "#   " lines for a failure */
};

static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

static enum status set(struct result *r, enum status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static enum status set(struct result *r, enum status st, const char *fmt, ...)
{
	va_list ap;

	r->st = st;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return st;
}

static void diag(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void diag(struct result *r, const char *fmt, ...)
{
	size_t used = strlen(r->diag);
	va_list ap;

	if (used + 8 >= sizeof(r->diag))
		return;
	memcpy(r->diag + used, "#   ", 4);
	va_start(ap, fmt);
	vsnprintf(r->diag + used + 4, sizeof(r->diag) - used - 5, fmt, ap);
	va_end(ap);
	strcat(r->diag, "\n");
}

static void diag_hex(struct result *r, const char *label, const uint8_t *b, size_t len)
{
	char hex[2 * 64 + 1];

	hex_encode(b, len > 64 ? 64 : len, hex);
	diag(r, "%-9s %s", label, hex);
}

/* A bind failure: a missing implementation skips, anything else fails. */
static enum status bind_result(struct result *r, int err, const char *type, const char *name)
{
	const char *advice = afalg_advice(err, "bind", type);

	if (err == -ENOENT)
		return set(r, SKIP, "%s %s not available: bind: %s (%s)", type, name,
			   strerror(-err), advice);
	set(r, FAIL, "bind(\"%s\", \"%s\"): %s", type, name, strerror(-err));
	if (advice)
		diag(r, "%s", advice);
	return FAIL;
}

static enum status io_fail(struct result *r, int err, const char *why)
{
	if (err == -EINTR && timed_out)
		return set(r, FAIL, "%s (timed out after %d s)", why, TEST_TIMEOUT);
	set(r, FAIL, "%s", why);
	if (afalg_advice(err, "io", ""))
		diag(r, "%s", afalg_advice(err, "io", ""));
	return FAIL;
}

/* Bound tfm sockets are kept while consecutive tests use the same implementation. */
struct tfm_cache {
	const struct impl *impl;
	int fd;			/* or -errno of the bind */
};

static int tfm_get(struct tfm_cache *c, const struct impl *im, const char *type)
{
	if (c->impl != im) {
		if (c->impl && c->fd >= 0)
			close(c->fd);
		c->impl = im;
		c->fd = afalg_tfm(type, im->bind);
	}
	return c->fd;
}

static enum status check_digest(struct result *r, const struct hash_result *res,
				const uint8_t *want, size_t dl, size_t cmp, enum hash_path path)
{
	if (res->len != (ssize_t)dl) {
		set(r, FAIL, "recvmsg returned %zd bytes, the digest is %zu", res->len, dl);
		return FAIL;
	}
	if (memcmp(res->md, want, cmp)) {
		set(r, FAIL, "wrong digest%s", path == PATH_CLONE ? " from the original socket" : "");
		diag_hex(r, "expected", want, cmp);
		diag_hex(r, "got", res->md, cmp);
		return FAIL;
	}
	if (path != PATH_CLONE)
		return PASS;
	if (res->clone_len != (ssize_t)dl) {
		set(r, FAIL, "clone: recvmsg returned %zd bytes, the digest is %zu", res->clone_len,
		    dl);
		return FAIL;
	}
	if (memcmp(res->clone_md, want, cmp)) {
		set(r, FAIL, "wrong digest from the accept()ed clone");
		diag_hex(r, "expected", want, cmp);
		diag_hex(r, "got", res->clone_md, cmp);
		return FAIL;
	}
	return PASS;
}

static enum status test_hash(struct result *r, const struct test *t, struct tfm_cache *c)
{
	const struct hash_alg *h = t->impl->halg;
	size_t dl = ref_digest_len(h->ref), len = 0, cmp = dl;
	uint8_t want[REF_MAX_DIGEST], *msg = NULL, *key = NULL;
	struct hash_result res;
	char why[256] = "";
	int fd, err;

	fd = tfm_get(c, t->impl, "hash");
	if (fd < 0)
		return bind_result(r, fd, "hash", t->impl->bind);
	if (t->kind == T_HASH) {
		if (spec_expand(t->hv->msg, &msg, &len) || hash_vec_expected(h, t->hv, want))
			return set(r, FAIL, "bad vector %s (run the host unit tests)", t->hv->id);
	} else {
		size_t klen;

		if (spec_expand(t->mv->key, &key, &klen) || spec_expand(t->mv->msg, &msg, &len) ||
		    hex_decode(t->mv->mac, want, sizeof(want), &cmp)) {
			free(key);
			free(msg);
			return set(r, FAIL, "bad vector %s (run the host unit tests)", t->mv->id);
		}
		err = afalg_setkey(fd, key, klen);
		free(key);
		if (err) {
			free(msg);
			return io_fail(r, err, "setsockopt(ALG_SET_KEY)");
		}
	}
	err = afalg_hash(fd, t->path, msg, len, &res, why, sizeof(why));
	free(msg);
	if (err)
		return io_fail(r, err, why);
	return check_digest(r, &res, want, dl, cmp, t->path);
}

static int cipher_prepare(const struct test *t, int fd)
{
	uint8_t key[32];
	size_t klen;
	int err;

	if (hex_decode(t->cv->key, key, sizeof(key), &klen))
		return -EINVAL;
	err = afalg_setkey(fd, key, klen);
	if (!err && t->impl->kind == IMPL_AEAD)
		err = afalg_set_authsize(fd, GCM_TAG_LEN);
	return err;
}

struct cipher_bufs {
	uint8_t iv[32], aad[256], pt[256], ct[256], tag[GCM_TAG_LEN];
	size_t ivlen, aadlen, ptlen, ctlen, taglen;
	uint8_t in[1024], out[1024];
};

static int cipher_decode(const struct cipher_vec *v, struct cipher_bufs *b)
{
	memset(b, 0, sizeof(*b));
	if (hex_decode(v->iv, b->iv, sizeof(b->iv), &b->ivlen) ||
	    hex_decode(v->pt, b->pt, sizeof(b->pt), &b->ptlen) ||
	    hex_decode(v->ct, b->ct, sizeof(b->ct), &b->ctlen) ||
	    (v->aad && hex_decode(v->aad, b->aad, sizeof(b->aad), &b->aadlen)) ||
	    (v->tag && hex_decode(v->tag, b->tag, sizeof(b->tag), &b->taglen)))
		return -EINVAL;
	return 0;
}

static enum status test_cipher(struct result *r, const struct test *t, struct tfm_cache *c)
{
	const char *type = t->impl->kind == IMPL_AEAD ? "aead" : "skcipher";
	bool aead = t->impl->kind == IMPL_AEAD, tamper = t->kind == T_AEAD_TAMPER;
	bool enc = t->encrypt && !tamper;
	struct cipher_bufs b;
	struct cipher_op op;
	const uint8_t *want;
	size_t wantlen;
	char why[256] = "";
	int fd, err;

	fd = tfm_get(c, t->impl, type);
	if (fd < 0)
		return bind_result(r, fd, type, t->impl->bind);
	if (cipher_decode(t->cv, &b))
		return set(r, FAIL, "bad vector %s (run the host unit tests)", t->cv->id);
	err = cipher_prepare(t, fd);
	if (err)
		return io_fail(r, err, "setsockopt(ALG_SET_KEY / ALG_SET_AEAD_AUTHSIZE)");

	/* AEAD input is AAD || text (|| tag when decrypting); output AAD || text (|| tag). */
	memcpy(b.in, b.aad, b.aadlen);
	memcpy(b.in + b.aadlen, enc ? b.pt : b.ct, b.ptlen);
	memset(&op, 0, sizeof(op));
	op.encrypt = enc;
	op.iv = b.iv;
	op.ivlen = b.ivlen;
	op.aead = aead;
	op.assoclen = b.aadlen;
	op.in = b.in;
	op.inlen = b.aadlen + b.ptlen;
	op.out = b.out;
	op.outlen = b.aadlen + b.ptlen;
	op.chunked = t->path == PATH_CHUNKED;
	if (aead && enc) {
		op.outlen += b.taglen;
	} else if (aead) {
		memcpy(b.in + op.inlen, b.tag, b.taglen);
		if (tamper)
			b.in[op.inlen + b.taglen - 1] ^= 1;
		op.inlen += b.taglen;
	}
	err = afalg_cipher(fd, &op, why, sizeof(why));
	if (tamper) {
		if (err == -EBADMSG)
			return PASS;
		if (!err)
			return set(r, FAIL, "a tampered tag was accepted");
		return io_fail(r, err, why);
	}
	if (err)
		return io_fail(r, err, why);
	/* Only the text and tag are compared: whether AAD is copied out varies by version. */
	if (enc) {
		memcpy(b.in, b.ct, b.ctlen);
		memcpy(b.in + b.ctlen, b.tag, b.taglen);
		want = b.in;
		wantlen = b.ctlen + b.taglen;
	} else {
		want = b.pt;
		wantlen = b.ptlen;
	}
	if (memcmp(b.out + b.aadlen, want, wantlen)) {
		set(r, FAIL, "wrong %s", enc ? (aead ? "ciphertext or tag" : "ciphertext") :
		    "plaintext");
		diag_hex(r, "expected", want, wantlen);
		diag_hex(r, "got", b.out + b.aadlen, wantlen);
		return FAIL;
	}
	return PASS;
}

static void report_problem(const char *msg, void *arg)
{
	diag(arg, "%s", msg);
}

static enum status test_selfcheck(struct result *r)
{
	int n = vectors_check(report_problem, r);

	return n ? set(r, FAIL, "%d problems in the vector tables", n) : PASS;
}

static enum status test_hash_type(struct result *r)
{
	int first = 0;

	for (size_t i = 0; i < n_hash_algs; i++) {
		int fd = afalg_tfm("hash", hash_algs[i].name);

		if (fd >= 0) {
			close(fd);
			return PASS;
		}
		if (!first)
			first = fd;
	}
	set(r, FAIL, "no table digest binds: bind(\"hash\", \"%s\"): %s", hash_algs[0].name,
	    strerror(-first));
	diag(r, "%s", afalg_advice(first, "bind", "hash") ?: "see /proc/crypto");
	return FAIL;
}

static enum status test_enoent(struct result *r)
{
	int fd = afalg_tfm("hash", NEG_UNKNOWN);

	if (fd >= 0) {
		close(fd);
		return set(r, FAIL, "bind succeeded");
	}
	if (fd != -ENOENT)
		return set(r, FAIL, "bind failed with %s, not ENOENT", strerror(-fd));
	return PASS;
}

/* hmac(sha256) with RFC 4231 test case 2, used by the key-ordering tests. */
static const struct hmac_vec *neg_vec(const struct hash_alg **h)
{
	*h = hash_alg_by_name(NEG_HASH);
	return *h && (*h)->nhmacs > 1 ? &(*h)->hmacs[1] : NULL;
}

static enum status test_nokey(struct result *r, bool send_first)
{
	uint8_t md[64];
	int tfm, op;
	ssize_t n;

	tfm = afalg_tfm("hash", NEG_HMAC);
	if (tfm < 0)
		return bind_result(r, tfm, "hash", NEG_HMAC);
	/*
	 * Since 4.5 (algif_hash "Require setkey before accept(2)" and the nokey
	 * compatibility path that followed) accept() succeeds on a key-less
	 * hmac and hands out algif_hash_ops_nokey: the first sendmsg/recvmsg
	 * runs hash_check_key() and fails with ENOKEY. That is what 6.1 does.
	 * ENOKEY from accept() itself is tolerated and reported.
	 */
	op = afalg_accept(tfm);
	if (op == -ENOKEY) {
		printf("# ENOKEY came from accept() itself\n");
		close(tfm);
		return PASS;
	}
	if (op < 0) {
		close(tfm);
		return set(r, FAIL, "accept: %s", strerror(-op));
	}
	n = send_first ? afalg_send(op, "abc", 3, false) : afalg_recv(op, md, sizeof(md), NULL);
	close(op);
	close(tfm);
	if (n == -ENOKEY)
		return PASS;
	if (n >= 0)
		return set(r, FAIL, "%s without a key succeeded (%zd bytes)",
			   send_first ? "sendmsg" : "recvmsg", n);
	return set(r, FAIL, "%s failed with %s, not ENOKEY", send_first ? "sendmsg" : "recvmsg",
		   strerror((int)-n));
}

static enum status test_key_order(struct result *r, bool late)
{
	const struct hash_alg *h;
	const struct hmac_vec *v = neg_vec(&h);
	uint8_t *key = NULL, *msg = NULL, want[64], md[64];
	size_t klen, mlen, wlen;
	int tfm, op = -1, err;
	enum status st;
	ssize_t n;

	if (!v || spec_expand(v->key, &key, &klen) || spec_expand(v->msg, &msg, &mlen) ||
	    hex_decode(v->mac, want, sizeof(want), &wlen)) {
		st = set(r, FAIL, "bad vector for %s", NEG_HMAC);
		goto free_bufs;
	}
	tfm = afalg_tfm("hash", NEG_HMAC);
	if (tfm < 0) {
		st = bind_result(r, tfm, "hash", NEG_HMAC);
		goto free_bufs;
	}
	if (late) {
		/* accept first (the nokey path), then the key: refcnt == nokey_refcnt, so allowed. */
		op = afalg_accept(tfm);
		err = op < 0 ? op : afalg_setkey(tfm, key, klen);
		if (err) {
			st = set(r, FAIL, "%s: %s", op < 0 ? "accept" : "setkey after accept",
				 strerror(-err));
			goto close_sockets;
		}
		n = afalg_send(op, msg, mlen, false);
		if (n == (ssize_t)mlen)
			n = afalg_recv(op, md, sizeof(md), NULL);
		if (n != (ssize_t)wlen) {
			st = set(r, FAIL, "hashing after the late key: %s",
				 n < 0 ? strerror((int)-n) : "wrong length");
		} else if (memcmp(md, want, wlen)) {
			st = set(r, FAIL, "wrong MAC after the late key");
			diag_hex(r, "expected", want, wlen);
			diag_hex(r, "got", md, wlen);
		} else {
			st = PASS;
		}
	} else {
		/*
		 * alg_setsockopt() refuses with EBUSY while refcnt != nokey_refcnt,
		 * i.e. while a keyed op socket is open (since 5.8; before it was
		 * any accept()ed socket).
		 */
		err = afalg_setkey(tfm, key, klen);
		op = err ? err : afalg_accept(tfm);
		if (op < 0) {
			st = set(r, FAIL, "%s: %s", err ? "setkey" : "accept", strerror(-op));
			goto close_sockets;
		}
		err = afalg_setkey(tfm, key, klen);
		st = err == -EBUSY ? PASS :
		     set(r, FAIL, "setkey with an open op socket: %s",
			 err ? strerror(-err) : "succeeded");
	}
close_sockets:
	if (op >= 0)
		close(op);
	close(tfm);
free_bufs:
	free(key);
	free(msg);
	return st;
}

static enum status test_trunc(struct result *r)
{
	const struct hash_alg *h = hash_alg_by_name(NEG_HASH);
	uint8_t want[REF_MAX_DIGEST], md[16];
	int tfm, op, flags = 0;
	ssize_t n;

	ref_digest(h->ref, "abc", 3, want);
	tfm = afalg_tfm("hash", NEG_HASH);
	if (tfm < 0)
		return bind_result(r, tfm, "hash", NEG_HASH);
	op = afalg_accept(tfm);
	close(tfm);
	if (op < 0)
		return set(r, FAIL, "accept: %s", strerror(-op));
	n = afalg_send(op, "abc", 3, false);
	if (n == 3)
		n = afalg_recv(op, md, sizeof(md), &flags);
	close(op);
	if (n < 0)
		return set(r, FAIL, "send/recv: %s", strerror((int)-n));
	if (n != (ssize_t)sizeof(md))
		return set(r, FAIL, "recvmsg returned %zd, expected %zu", n, sizeof(md));
	if (!(flags & MSG_TRUNC))
		return set(r, FAIL, "MSG_TRUNC not set in msg_flags (0x%x)", (unsigned int)flags);
	if (memcmp(md, want, sizeof(md))) {
		set(r, FAIL, "the truncated digest is not the digest's prefix");
		diag_hex(r, "expected", want, sizeof(md));
		diag_hex(r, "got", md, sizeof(md));
		return FAIL;
	}
	return PASS;
}

static enum status test_badkey(struct result *r)
{
	static const uint8_t key[17];
	int tfm = afalg_tfm("skcipher", NEG_CIPHER), err;

	if (tfm < 0)
		return bind_result(r, tfm, "skcipher", NEG_CIPHER);
	err = afalg_setkey(tfm, key, sizeof(key));
	close(tfm);
	if (err == -EINVAL)
		return PASS;
	return set(r, FAIL, "setkey(17 bytes): %s", err ? strerror(-err) : "accepted");
}

static enum status run_one(struct result *r, const struct test *t, struct tfm_cache *c)
{
	switch (t->kind) {
	case T_SELFCHECK:
		return test_selfcheck(r);
	case T_HASH_TYPE:
		return test_hash_type(r);
	case T_ENOENT:
		return test_enoent(r);
	case T_NOKEY_SEND:
		return test_nokey(r, true);
	case T_NOKEY_RECV:
		return test_nokey(r, false);
	case T_LATE_KEY:
		return test_key_order(r, true);
	case T_EBUSY:
		return test_key_order(r, false);
	case T_TRUNC:
		return test_trunc(r);
	case T_BADKEY:
		return test_badkey(r);
	case T_HASH:
	case T_HMAC:
		return test_hash(r, t, c);
	case T_CIPHER:
	case T_AEAD_TAMPER:
		return test_cipher(r, t, c);
	}
	return set(r, FAIL, "unknown test kind");
}

void run_info(void)
{
	static const char authencesn[] = "authencesn(hmac(sha256),cbc(aes))";
	int fd = afalg_tfm("aead", "gcm(aes)");

	if (fd >= 0) {
		printf("# info: algif_aead is available (gcm(aes) binds as an aead)\n");
		close(fd);
	} else {
		printf("# info: bind(\"aead\", \"gcm(aes)\"): %s; algif_aead %s\n", strerror(-fd),
		       access("/sys/module/algif_aead", F_OK) ? "not loaded (or built in)" :
		       "is loaded");
		if (fd == -ENOENT)
			printf("# info: %s\n", afalg_advice(fd, "bind", "aead"));
	}
	/* Only bound and closed: nothing is sent through it. */
	fd = afalg_tfm("aead", authencesn);
	if (fd >= 0) {
		printf("# info: %s binds as an aead: the CVE-2026-31431 precondition is present "
		       "(informational only, nothing else is tried)\n", authencesn);
		close(fd);
	} else {
		printf("# info: %s does not bind as an aead (%s): that CVE-2026-31431 "
		       "precondition is absent\n", authencesn, strerror(-fd));
	}
	fflush(stdout);
}

int run_plan(const struct plan *p)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART: EINTR */
	struct tfm_cache cache = { NULL, -1 };
	size_t passed = 0, failed = 0, skipped = 0;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL))
		die_errno("sigaction(SIGALRM)");
	printf("1..%zu\n", p->ntests);
	fflush(stdout);
	for (size_t i = 0; i < p->ntests; i++) {
		const struct test *t = &p->tests[i];
		struct result r = { .st = PASS };

		timed_out = 0;
		alarm(TEST_TIMEOUT);
		run_one(&r, t, &cache);
		alarm(0);
		switch (r.st) {
		case PASS:
			passed++;
			printf("ok %zu - %s\n", i + 1, t->desc);
			break;
		case SKIP:
			skipped++;
			printf("ok %zu - %s # SKIP %s\n", i + 1, t->desc, r.why);
			break;
		case FAIL:
			failed++;
			printf("not ok %zu - %s\n#   %s\n%s", i + 1, t->desc, r.why, r.diag);
			if (t->impl)
				printf("#   implementation: %s\n", t->impl->origin);
			break;
		}
		fflush(stdout);
	}
	if (cache.impl && cache.fd >= 0)
		close(cache.fd);
	printf("# %zu passed, %zu failed, %zu skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
