// SPDX-License-Identifier: GPL-2.0
/* tool-afalg-selftest.c: unit tests of rapido-afalg-selftest's tables, parser, plan, refhash. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "../../tools/afalg-selftest/afalg.h"
#include "../../tools/afalg-selftest/plan.h"
#include "proccrypto.h"
#include "refhash.h"
#include "../../tools/afalg-selftest/run.h"
#include "../../tools/afalg-selftest/vectors.h"

#include <libgen.h>

#include "tap.h"

#define FIXTURE "tests/fixtures/afalg-selftest/proc-crypto-x86_64"

static void spec_is(const char *spec, const uint8_t *want, size_t wantlen)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc = spec_expand(spec, &buf, &len);

	tap_ok(!rc && len == wantlen && !memcmp(buf, want, wantlen),
	       "spec \"%.20s\" expands to %zu bytes (rc %d, got %zu)", spec, wantlen, rc, len);
	free(buf);
}

static void test_specs(void)
{
	static const char *const bad[] = {
		"", "t", "abc", "q:1", "x:0", "x:zz", "r:6*5", "r:61", "r:61*", "r:61*x",
		"r:gg*2", "p:", "p:1x", "p:-1", "r:61*99999999999",
	};
	uint8_t pat[5] = { 7, 38, 69, 100, 131 };

	spec_is("t:abc", (const uint8_t *)"abc", 3);
	spec_is("t:", (const uint8_t *)"", 0);
	spec_is("x:00ff", (const uint8_t *)"\x00\xff", 2);
	spec_is("r:aa*3", (const uint8_t *)"\xaa\xaa\xaa", 3);
	spec_is("r:61*0", (const uint8_t *)"", 0);
	spec_is("p:5", pat, 5);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint8_t *buf = NULL;
		size_t len;

		TAP_EQ_INT(spec_expand(bad[i], &buf, &len), -EINVAL, "bad spec \"%s\" rejected",
			   bad[i]);
	}

	char *n = spec_normalize("t:abc");

	TAP_EQ_STR(n, "x:616263", "text spec dumps as hex");
	free(n);
	n = spec_normalize("r:61*1000000");
	TAP_EQ_STR(n, "r:61*1000000", "repetition spec dumps as itself");
	free(n);
	n = spec_normalize("p:3");
	TAP_EQ_STR(n, "x:072645", "pattern spec dumps as hex");
	free(n);
	tap_ok(spec_normalize("x:1") == NULL, "bad spec does not dump");
}

static void report(const char *msg, void *arg)
{
	(void)arg;
	printf("#   %s\n", msg);
}

static void test_tables(void)
{
	size_t boundary = 0, ref_only = 0, trunc = 0;

	TAP_EQ_INT(vectors_check(report, NULL), 0, "vector tables pass vectors_check()");
	for (size_t a = 0; a < n_hash_algs; a++) {
		const struct hash_alg *h = &hash_algs[a];
		size_t bl = ref_block_len(h->ref), lf = bl == 128 ? 16 : 8;
		const size_t want[5] = { bl - lf - 1, bl - lf, bl - 1, bl, bl + 1 };
		int found = 0;

		for (size_t i = 0; i < h->nvecs; i++) {
			char id[16];

			ref_only += !h->vecs[i].md;
			for (int k = 0; k < 5; k++) {
				snprintf(id, sizeof(id), "len-%zu", want[k]);
				found += !strcmp(h->vecs[i].id, id);
			}
		}
		boundary += (size_t)found;
		TAP_EQ_INT(found, 5, "%s has the 5 padding-boundary lengths", h->name);
		TAP_EQ_INT(h->nhmacs, 7, "hmac(%s) has RFC test cases 1-7", h->name);
		for (size_t i = 0; i < h->nhmacs; i++)
			trunc += h->hmacs[i].trunc != 0;
	}
	TAP_EQ_INT(ref_only, boundary, "only the boundary vectors take the reference's digest");
	TAP_EQ_INT(trunc, 4, "only RFC 4231 case 5 is truncated (4 algorithms)");
	TAP_EQ_INT(hash_alg_by_name("md5")->nvecs, 7 + 5, "md5: the RFC 1321 suite (7) + 5");
	TAP_EQ_INT(n_cipher_vecs, 3, "one CBC and two GCM vectors");
}

/* Feeding refhash in pieces must give the one-shot digest (block carry logic). */
static void test_refhash_stream(void)
{
	uint8_t msg[300], one[64], inc[64];
	int bad = 0;

	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = spec_pattern_byte(i);
	for (int a = 0; a < REF_NR_ALGS; a++) {
		for (size_t len = 0; len <= sizeof(msg); len += 7) {
			struct ref_ctx c;

			ref_digest(a, msg, len, one);
			ref_init(&c, a);
			for (size_t off = 0, k = 0; off < len; k++) {
				size_t step = chunk_size(k, 1) > len - off ? len - off : chunk_size(k, 1);

				ref_update(&c, msg + off, step);
				off += step;
			}
			ref_final(&c, inc);
			bad += memcmp(one, inc, ref_digest_len(a)) != 0;
		}
	}
	TAP_EQ_INT(bad, 0, "refhash: piecewise updates equal one-shot, all algorithms");
	TAP_EQ_INT(ref_alg_by_name("sha384"), REF_SHA384, "ref_alg_by_name(sha384)");
	TAP_EQ_INT(ref_alg_by_name("sha3-256"), -1, "ref_alg_by_name rejects unknown names");
}

static void test_chunks(void)
{
	static const size_t totals[] = { 1, 3, 64, 4096, 4097, 1000000 };

	for (size_t t = 0; t < sizeof(totals) / sizeof(totals[0]); t++) {
		size_t off = 0, calls = 0, maxc = 0;

		while (off < totals[t]) {
			size_t c = chunk_size(calls++, totals[t]);

			if (!c)
				break;
			if (c > maxc)
				maxc = c;
			off += c > totals[t] - off ? totals[t] - off : c;
		}
		/* Small messages: only 1/3/7-byte pieces; large ones: a bounded call count. */
		tap_ok(off == totals[t] && (totals[t] <= 4096 ? maxc <= 7 : calls < 1000),
		       "chunks cover %zu bytes in %zu calls (largest %zu)", totals[t], calls, maxc);
	}
	TAP_EQ_INT(clone_split(0), 0, "empty message clones before any data");
	TAP_EQ_INT(clone_split(3), 1, "clone splits half way");
}

static const struct pc_entry *find(const struct pc_list *l, const char *driver)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].driver, driver))
			return &l->v[i];
	return NULL;
}

static void test_parse_inline(void)
{
	static const char text[] =
		"\n\n"
		"name         : sha256\r\n"
		"driver       : sha256-generic\n"
		"module       : kernel\n"
		"priority     : 100\n"
		"refcnt       : 1\n"
		"selftest     : unknown\n"
		"internal     : no\n"
		"type         : shash\n"
		"future key   : with: colons\n"
		"\n\n\n"
		"name         : orphan\n"
		"type         : shash\n"
		"\n"
		"name:sha1\n"
		"driver:sha1-ni\n"
		"internal : yes\n"
		"type : shash";	/* no trailing newline */
	struct pc_list l;
	const struct pc_entry *e;

	pc_parse(text, &l);
	TAP_EQ_INT(l.n, 2, "inline: two complete blocks");
	TAP_EQ_INT(l.dropped, 1, "inline: the block without a driver is dropped");
	e = find(&l, "sha256-generic");
	tap_ok(e && !strcmp(e->name, "sha256") && !strcmp(e->module, "kernel") &&
	       e->priority == 100 && !strcmp(e->selftest, "unknown") && !e->internal &&
	       !strcmp(e->type, "shash"), "inline: CRLF, padding and unknown keys handled");
	e = find(&l, "sha1-ni");
	tap_ok(e && e->internal && !strcmp(e->module, "") && !strcmp(e->selftest, "") &&
	       !strcmp(e->type, "shash"), "inline: unpadded last block without newline");
	pc_free(&l);
	pc_parse("", &l);
	TAP_EQ_INT(l.n, 0, "empty text: no entries");
	pc_free(&l);
}

static int fixture_load(const char *argv0, struct pc_list *l)
{
	char *copy, *path;
	int rc = pc_load(FIXTURE, l);

	if (!rc)
		return 0;
	/* Not run from the top directory: look beside BUILD/tests/NAME. */
	copy = xstrdup(argv0);
	path = xasprintf("%s/../../" FIXTURE, dirname(copy));
	rc = pc_load(path, l);
	free(path);
	free(copy);
	return rc;
}

static size_t count_impls(const struct plan *p, enum impl_kind k, const char *bind)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nimpls; i++)
		n += p->impls[i].kind == k && (!bind || !strcmp(p->impls[i].bind, bind));
	return n;
}

static size_t expected_tests(const struct plan *p)
{
	size_t n = 9;	/* self-check and negative cases */

	for (size_t i = 0; i < p->nimpls; i++) {
		const struct impl *im = &p->impls[i];

		if (im->kind == IMPL_HASH)
			n += im->halg->nvecs * PATH_NR;
		else if (im->kind == IMPL_HMAC)
			n += im->halg->nhmacs * PATH_NR;
		else
			for (size_t c = 0; c < n_cipher_vecs; c++)
				if (!strcmp(cipher_vecs[c].alg, im->cipher))
					n += 4 + (im->kind == IMPL_AEAD);
	}
	return n;
}

static void test_fixture(const char *argv0)
{
	static const char *const sha256_drivers[] = {
		"sha256", "sha256-ni", "sha256-avx2", "sha256-avx", "sha256-ssse3", "sha256-generic",
	};
	static const char *const absent[] = {
		"__cbc-aes-aesni", "__generic-gcm-aesni", "__ghash-pclmulqdqni", "ghash-clmulni",
		"crc32c-intel", "sha3-256-generic", "aes-aesni", "drbg_nopr_hmac_sha256",
	};
	struct pc_list l;
	struct plan p;
	const struct pc_entry *e;
	int rc = fixture_load(argv0, &l);

	if (rc) {
		tap_ok(0, "load %s: %s", FIXTURE, strerror(-rc));
		return;
	}
	TAP_EQ_INT(l.n, 29, "fixture: 29 implementations listed");
	TAP_EQ_INT(l.dropped, 0, "fixture: nothing dropped");
	e = find(&l, "sha256-ni");
	tap_ok(e && !strcmp(e->name, "sha256") && !strcmp(e->module, "sha256_ssse3") &&
	       e->priority == 250 && !strcmp(e->selftest, "passed") && !strcmp(e->type, "shash") &&
	       !e->internal, "fixture: sha256-ni fields");
	e = find(&l, "__cbc-aes-aesni");
	tap_ok(e && e->internal && !strcmp(e->type, "skcipher"), "fixture: internal flag read");
	e = find(&l, "hmac(sha256-ni)");
	tap_ok(e && !strcmp(e->name, "hmac(sha256)"), "fixture: a listed hmac instance");

	plan_build(&p, &l, NULL);
	for (size_t i = 0; i < sizeof(sha256_drivers) / sizeof(sha256_drivers[0]); i++) {
		char *h = xasprintf("hmac(%s)", sha256_drivers[i]);

		TAP_EQ_INT(count_impls(&p, IMPL_HASH, sha256_drivers[i]), 1,
			   "plan: hash %s bound once", sha256_drivers[i]);
		TAP_EQ_INT(count_impls(&p, IMPL_HMAC, h), 1, "plan: %s bound once", h);
		free(h);
	}
	TAP_EQ_INT(count_impls(&p, IMPL_HASH, NULL), 6 + 16, "plan: 6 generic + 16 hash drivers");
	TAP_EQ_INT(count_impls(&p, IMPL_HMAC, NULL), 6 + 16,
		   "plan: hmac of each, listed hmac instances deduplicated");
	TAP_EQ_INT(count_impls(&p, IMPL_HMAC, "hmac(sha512-generic)"), 1,
		   "plan: listed hmac(sha512-generic) once");
	TAP_EQ_INT(count_impls(&p, IMPL_SKCIPHER, "cbc-aes-aesni"), 1, "plan: cbc-aes-aesni");
	TAP_EQ_INT(count_impls(&p, IMPL_AEAD, "generic-gcm-aesni"), 1, "plan: generic-gcm-aesni");
	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++) {
		size_t n = 0;

		for (size_t j = 0; j < p.nimpls; j++)
			n += !strcmp(p.impls[j].bind, absent[i]);
		TAP_EQ_INT(n, 0, "plan: %s (internal or not in the tables) not tested", absent[i]);
	}
	TAP_EQ_INT(p.ntests, expected_tests(&p), "plan: every vector x path x implementation");
	TAP_EQ_INT(p.tests[0].kind, T_SELFCHECK, "plan: the table self-check runs first");
	plan_free(&p);

	plan_build(&p, &l, "sha256-ni ");
	TAP_EQ_INT(p.ntests, hash_alg_by_name("sha256")->nvecs * PATH_NR,
		   "--only 'sha256-ni ': that driver's vectors x paths");
	plan_free(&p);
	plan_build(&p, &l, "*rfc4231-5 via splice*");
	TAP_EQ_INT(p.ntests, 0, "--only glob must match the whole description");
	plan_free(&p);
	plan_build(&p, &l, "*rfc4231-5 via vmsplice*");
	TAP_EQ_INT(p.ntests, 4 + 6 + 3 + 3, "--only glob: case 5 on the 16 hmac(sha224..512) impls");
	plan_free(&p);
	pc_free(&l);

	memset(&l, 0, sizeof(l));
	plan_build(&p, &l, NULL);
	TAP_EQ_INT(p.nimpls, 6 + 6 + 2, "no /proc/crypto: generic names only");
	plan_free(&p);
}

int main(int argc, char **argv)
{
	(void)argc;
	tap_plan(94);
	test_specs();
	test_tables();
	test_refhash_stream();
	test_chunks();
	test_parse_inline();
	test_fixture(argv[0]);
	return tap_done();
}
