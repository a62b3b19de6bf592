// SPDX-License-Identifier: GPL-2.0
/* plan.c: build the implementation and test lists; --list and --dump-vectors output. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hex.h"
#include "plan.h"

static struct impl *impl_add(struct plan *p, enum impl_kind kind, const struct hash_alg *halg,
			     const char *cipher, const char *bind, char *origin)
{
	struct impl *im;

	for (size_t i = 0; i < p->nimpls; i++) {
		if (p->impls[i].kind == kind && !strcmp(p->impls[i].bind, bind)) {
			free(origin);
			return NULL;
		}
	}
	p->impls = xrealloc(p->impls, (p->nimpls + 1) * sizeof(*p->impls));
	im = &p->impls[p->nimpls++];
	im->kind = kind;
	im->halg = halg;
	im->cipher = cipher;
	im->bind = xstrdup(bind);
	im->origin = origin;
	return im;
}

static char *listed_origin(const struct pc_entry *e, const char *prefix)
{
	return xasprintf("%slisted in /proc/crypto: name %s, module %s, type %s, priority %d, "
			 "selftest %s", prefix, e->name, *e->module ? e->module : "?",
			 *e->type ? e->type : "?", e->priority, *e->selftest ? e->selftest : "?");
}

static bool is_skcipher_type(const char *t)
{
	/* "skcipher" since 4.x; "ablkcipher"/"blkcipher"/"givcipher" before. */
	return !strcmp(t, "skcipher") || !strcmp(t, "ablkcipher") || !strcmp(t, "blkcipher") ||
	       !strcmp(t, "givcipher");
}

static void impls_build(struct plan *p, const struct pc_list *pc)
{
	for (size_t a = 0; a < n_hash_algs; a++) {
		const struct hash_alg *h = &hash_algs[a];

		impl_add(p, IMPL_HASH, h, NULL, h->name,
			 xstrdup("generic name (the highest-priority implementation)"));
		for (size_t i = 0; i < pc->n; i++) {
			const struct pc_entry *e = &pc->v[i];

			if (!strcmp(e->name, h->name) && pc_type_is_hash(e->type) && !e->internal)
				impl_add(p, IMPL_HASH, h, NULL, e->driver, listed_origin(e, ""));
		}
	}
	for (size_t a = 0; a < n_hash_algs; a++) {
		const struct hash_alg *h = &hash_algs[a];
		char *name = xasprintf("hmac(%s)", h->name);

		impl_add(p, IMPL_HMAC, h, NULL, name,
			 xstrdup("generic name (the highest-priority implementation)"));
		for (size_t i = 0; i < pc->n; i++) {
			const struct pc_entry *e = &pc->v[i];
			char *bind;

			if (strcmp(e->name, h->name) || !pc_type_is_hash(e->type) || e->internal)
				continue;
			bind = xasprintf("hmac(%s)", e->driver);
			impl_add(p, IMPL_HMAC, h, NULL, bind,
				 listed_origin(e, "hmac template over a hash driver "));
			free(bind);
		}
		for (size_t i = 0; i < pc->n; i++) {
			const struct pc_entry *e = &pc->v[i];

			if (!strcmp(e->name, name) && pc_type_is_hash(e->type) && !e->internal)
				impl_add(p, IMPL_HMAC, h, NULL, e->driver, listed_origin(e, ""));
		}
		free(name);
	}
	for (size_t c = 0; c < n_cipher_vecs; c++) {
		const struct cipher_vec *v = &cipher_vecs[c];
		enum impl_kind k = v->kind == CIPHER_AEAD ? IMPL_AEAD : IMPL_SKCIPHER;

		impl_add(p, k, NULL, v->alg, v->alg,
			 xstrdup("generic name (the highest-priority implementation)"));
		for (size_t i = 0; i < pc->n; i++) {
			const struct pc_entry *e = &pc->v[i];
			bool type_ok = k == IMPL_AEAD ? !strcmp(e->type, "aead") :
				       is_skcipher_type(e->type);

			if (!strcmp(e->name, v->alg) && type_ok && !e->internal)
				impl_add(p, k, NULL, v->alg, e->driver, listed_origin(e, ""));
		}
	}
}

static bool wanted(const char *desc, const char *only)
{
	if (!only)
		return true;
	if (strpbrk(only, "*?["))
		return !fnmatch(only, desc, 0);
	return strstr(desc, only) != NULL;
}

static struct test *test_add(struct plan *p, const char *only, enum test_kind kind,
			     char *desc)
{
	struct test *t;

	if (!wanted(desc, only)) {
		free(desc);
		return NULL;
	}
	p->tests = xrealloc(p->tests, (p->ntests + 1) * sizeof(*p->tests));
	t = &p->tests[p->ntests++];
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->desc = desc;
	return t;
}

static void tests_build(struct plan *p, const char *only)
{
	struct test *t;

	test_add(p, only, T_SELFCHECK,
		 xstrdup("vector tables parse and refhash.c reproduces every stored digest/MAC"));
	test_add(p, only, T_HASH_TYPE,
		 xstrdup("bind(\"hash\", ...) works for a table digest (algif_hash usable)"));
	test_add(p, only, T_ENOENT,
		 xstrdup("bind(\"hash\", \"" NEG_UNKNOWN "\") fails with ENOENT"));
	test_add(p, only, T_NOKEY_SEND,
		 xstrdup(NEG_HMAC " without a key: accept() works, sendmsg fails with ENOKEY"));
	test_add(p, only, T_NOKEY_RECV,
		 xstrdup(NEG_HMAC " without a key: recvmsg fails with ENOKEY"));
	test_add(p, only, T_LATE_KEY,
		 xstrdup(NEG_HMAC ": setkey after a key-less accept() makes that socket work"));
	test_add(p, only, T_EBUSY,
		 xstrdup(NEG_HMAC ": setkey while a keyed op socket is open fails with EBUSY"));
	test_add(p, only, T_TRUNC,
		 xstrdup(NEG_HASH ": recvmsg into 16 bytes sets MSG_TRUNC, returns the prefix"));
	test_add(p, only, T_BADKEY,
		 xstrdup(NEG_CIPHER ": a 17-byte key is rejected with EINVAL"));

	for (size_t i = 0; i < p->nimpls; i++) {
		const struct impl *im = &p->impls[i];

		if (im->kind == IMPL_HASH) {
			for (size_t v = 0; v < im->halg->nvecs; v++) {
				for (int path = 0; path < PATH_NR; path++) {
					const struct hash_vec *hv = &im->halg->vecs[v];

					t = test_add(p, only, T_HASH,
						     xasprintf("%s %s via %s", im->bind, hv->id,
							       hash_path_name(path)));
					if (t) {
						t->impl = im;
						t->hv = hv;
						t->path = path;
					}
				}
			}
		} else if (im->kind == IMPL_HMAC) {
			for (size_t v = 0; v < im->halg->nhmacs; v++) {
				for (int path = 0; path < PATH_NR; path++) {
					const struct hmac_vec *mv = &im->halg->hmacs[v];

					t = test_add(p, only, T_HMAC,
						     xasprintf("%s %s via %s", im->bind, mv->id,
							       hash_path_name(path)));
					if (t) {
						t->impl = im;
						t->mv = mv;
						t->path = path;
					}
				}
			}
		} else {
			for (size_t c = 0; c < n_cipher_vecs; c++) {
				const struct cipher_vec *cv = &cipher_vecs[c];

				if (strcmp(cv->alg, im->cipher))
					continue;
				for (int enc = 1; enc >= 0; enc--) {
					for (int path = PATH_ONESHOT; path <= PATH_CHUNKED; path++) {
						t = test_add(p, only, T_CIPHER,
							     xasprintf("%s %s %s via %s", im->bind,
								       cv->id,
								       enc ? "encrypt" : "decrypt",
								       hash_path_name(path)));
						if (t) {
							t->impl = im;
							t->cv = cv;
							t->path = path;
							t->encrypt = enc;
						}
					}
				}
				if (im->kind != IMPL_AEAD)
					continue;
				t = test_add(p, only, T_AEAD_TAMPER,
					     xasprintf("%s %s decrypt with a flipped tag bit fails "
						       "with EBADMSG", im->bind, cv->id));
				if (t) {
					t->impl = im;
					t->cv = cv;
				}
			}
		}
	}
}

void plan_build(struct plan *p, const struct pc_list *pc, const char *only)
{
	memset(p, 0, sizeof(*p));
	impls_build(p, pc);
	tests_build(p, only);
}

void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->nimpls; i++) {
		free(p->impls[i].bind);
		free(p->impls[i].origin);
	}
	for (size_t i = 0; i < p->ntests; i++)
		free(p->tests[i].desc);
	free(p->impls);
	free(p->tests);
	memset(p, 0, sizeof(*p));
}

static const char *kind_name(enum impl_kind k)
{
	switch (k) {
	case IMPL_HASH:
		return "hash";
	case IMPL_HMAC:
		return "hmac";
	case IMPL_SKCIPHER:
		return "skcipher";
	default:
		return "aead";
	}
}

void plan_print(FILE *f, const struct plan *p)
{
	fprintf(f, "# %zu implementations:\n", p->nimpls);
	for (size_t i = 0; i < p->nimpls; i++)
		fprintf(f, "# impl %s %s: %s\n", kind_name(p->impls[i].kind), p->impls[i].bind,
			p->impls[i].origin);
	fprintf(f, "# %zu tests:\n", p->ntests);
	for (size_t i = 0; i < p->ntests; i++)
		fprintf(f, "%zu - %s\n", i + 1, p->tests[i].desc);
}

char *spec_normalize(const char *spec)
{
	uint8_t *buf;
	size_t len;
	char *hex;

	if (spec_expand(spec, &buf, &len))
		return NULL;
	if (!strncmp(spec, "r:", 2)) {
		/* Keep repetitions short: the million 'a's stay "r:61*1000000". */
		free(buf);
		return xstrdup(spec);
	}
	hex = xmalloc(2 * len + 3);
	memcpy(hex, "x:", 2);
	hex_encode(buf, len, hex + 2);
	free(buf);
	return hex;
}

void vectors_dump(FILE *f)
{
	fprintf(f, "# hash ALG ID MSG DIGEST stored|ref\n"
		"# hmac ALG ID KEY MSG MAC COMPARED-BYTES\n"
		"# cipher ALG ID KEY IV AAD|- PT CT TAG|-\n"
		"# MSG and KEY are x:HEX or r:HH*COUNT (byte HH repeated); cipher\n"
		"# fields are x:HEX, '-' where the mode has none\n");
	for (size_t a = 0; a < n_hash_algs; a++) {
		const struct hash_alg *h = &hash_algs[a];
		size_t dl = ref_digest_len(h->ref);

		for (size_t i = 0; i < h->nvecs; i++) {
			const struct hash_vec *v = &h->vecs[i];
			char *msg = spec_normalize(v->msg), hex[2 * REF_MAX_DIGEST + 1];
			uint8_t md[REF_MAX_DIGEST];

			if (!msg || hash_vec_expected(h, v, md))
				die("%s %s: bad vector", h->name, v->id);
			hex_encode(md, dl, hex);
			fprintf(f, "hash %s %s %s %s %s\n", h->name, v->id, msg, hex,
				v->md ? "stored" : "ref");
			free(msg);
		}
		for (size_t i = 0; i < h->nhmacs; i++) {
			const struct hmac_vec *v = &h->hmacs[i];
			char *key = spec_normalize(v->key), *msg = spec_normalize(v->msg);

			if (!key || !msg)
				die("hmac(%s) %s: bad vector", h->name, v->id);
			fprintf(f, "hmac %s %s %s %s %s %zu\n", h->name, v->id, key, msg, v->mac,
				v->trunc ? v->trunc : dl);
			free(key);
			free(msg);
		}
	}
	for (size_t i = 0; i < n_cipher_vecs; i++) {
		const struct cipher_vec *v = &cipher_vecs[i];

		fprintf(f, "cipher %s %s x:%s x:%s %s%s x:%s x:%s %s%s\n", v->alg, v->id,
			v->key, v->iv, v->aad ? "x:" : "-", v->aad ? v->aad : "", v->pt, v->ct,
			v->tag ? "x:" : "-", v->tag ? v->tag : "");
	}
}
