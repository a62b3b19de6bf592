// SPDX-License-Identifier: GPL-2.0
/*
 * conftype.c: "#@ conf-type: FSTESTS_FS enum btrfs,xfs,ext4". A profile's
 * key checked in guest shell costs a boot to find a typo; typed here, ./cut
 * and ./cut --check-conf refuse it with the file and line of both the value
 * and the type, through the same resolver as the programs' keys.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "confget.h"
#include "conftype.h"
#include "err.h"
#include "num.h"
#include "size.h"
#include "strv.h"

/* "1M-2G", "1M-", "1M": *lo, *hi (0: none); MAX below MIN is an error. */
static int size_range(const char *arg, unsigned long long *lo, unsigned long long *hi)
{
	const char *dash = strchr(arg, '-');
	char *a = xstrndup(arg, dash ? (size_t)(dash - arg) : strlen(arg));
	uint64_t n = 0, m = 0;
	int rc = parse_size(a, &n);

	free(a);
	if (!rc && dash && dash[1])
		rc = parse_size(dash + 1, &m);
	if (rc || (m && m < n))
		return -EINVAL;
	*lo = n;
	*hi = m;
	return 0;
}

static int uint_range(const char *arg, unsigned long long *lo, unsigned long long *hi)
{
	const char *dash = strchr(arg, '-');
	char *a;
	uint64_t n, m;
	int rc;

	if (!dash)
		return -EINVAL;
	a = xstrndup(arg, (size_t)(dash - arg));
	rc = num_parse(a, 0, UINT32_MAX, &n, NULL) || num_parse(dash + 1, n, UINT32_MAX, &m, NULL);
	free(a);
	if (rc)
		return -EINVAL;
	*lo = n;
	*hi = m;
	return 0;
}

/* "btrfs,xfs,ext4": a NULL-terminated array, each word non-empty */
static const char *const *enum_words(const char *arg)
{
	size_t n = 1;
	char **w;

	for (const char *s = arg; *s; s++)
		n += *s == ',';
	w = xcalloc(n + 1, sizeof(*w));
	for (size_t i = 0; i < n; i++) {
		size_t len = strcspn(arg, ",");

		w[i] = xstrndup(arg, len);
		arg += len + (arg[len] == ',');
		if (!len) {
			for (size_t j = 0; j <= i; j++)
				free(w[j]);
			free(w);
			return NULL;
		}
	}
	return (const char *const *)w;
}

int confkey_type_parse(const char *spec, struct confkey *out, char **why)
{
	struct strv w = STRV_INIT;
	const char *kind, *arg;
	int rc = -EINVAL;

	*why = NULL;
	memset(out, 0, sizeof(*out));
	for (const char *s = spec; *s; ) {
		size_t len;

		s += strspn(s, " \t");
		len = strcspn(s, " \t");
		if (len) {
			char *word = xstrndup(s, len);

			strv_push(&w, word);
			free(word);
		}
		s += len;
	}
	if (w.n < 2 || w.n > 3 || !conf_key_valid(w.v[0])) {
		*why = xasprintf("expected KEY KIND [ARG] (uint MIN-MAX, size MIN[-MAX], enum A,B,..., "
				 "path, str, words [A,B,...]), got \"%s\"", spec);
		goto out;
	}
	kind = w.v[1];
	arg = w.n == 3 ? w.v[2] : NULL;
	if (!strcmp(kind, "uint")) {
		out->kind = CONFKEY_UINT;
		if (!arg || uint_range(arg, &out->min, &out->max)) {
			*why = xasprintf("%s: uint: expected a range MIN-MAX such as 1-16, got \"%s\"",
					 w.v[0], arg ? arg : "");
			goto out;
		}
	} else if (!strcmp(kind, "size")) {
		out->kind = CONFKEY_SIZE;
		if (!arg || size_range(arg, &out->min, &out->max)) {
			*why = xasprintf("%s: size: expected MIN or MIN-MAX such as 16M-1G, got \"%s\"",
					 w.v[0], arg ? arg : "");
			goto out;
		}
		out->eg = xstrdup(out->min ? "512M or 1G" : "512M or 1G, or 0 for none");
	} else if (!strcmp(kind, "enum")) {
		out->kind = CONFKEY_ENUM;
		if (!arg || !(out->words = enum_words(arg))) {
			*why = xasprintf("%s: enum: expected words separated by commas such as "
					 "btrfs,xfs, got \"%s\"", w.v[0], arg ? arg : "");
			goto out;
		}
	} else if (!strcmp(kind, "words") && arg) {
		/* a list of some of the words: BLKTESTS_DEVS="zram null_blk" */
		out->kind = CONFKEY_WORDS;
		if (!(out->words = enum_words(arg))) {
			*why = xasprintf("%s: words: expected words separated by commas such as "
					 "zram,loop, got \"%s\"", w.v[0], arg);
			goto out;
		}
	} else if (!strcmp(kind, "path") || !strcmp(kind, "str") || !strcmp(kind, "words")) {
		out->kind = kind[0] == 'p' ? CONFKEY_PATH : kind[0] == 's' ? CONFKEY_STR : CONFKEY_WORDS;
		if (arg) {
			*why = xasprintf("%s: %s takes no argument, got \"%s\"", w.v[0], kind, arg);
			goto out;
		}
	} else {
		*why = xasprintf("%s: unknown kind \"%s\" (known: uint, size, enum, path, str, words)",
				 w.v[0], kind);
		goto out;
	}
	out->key = xstrdup(w.v[0]);
	rc = 0;
out:
	if (rc)
		confkey_type_free(out);
	strv_free(&w);
	return rc;
}

void confkey_type_free(struct confkey *k)
{
	if (k->words) {
		for (size_t i = 0; k->words[i]; i++)
			free((char *)k->words[i]);
		free((void *)k->words);
	}
	free((char *)k->key);
	free((char *)k->eg);
	memset(k, 0, sizeof(*k));
}

void confkey_types_add(struct confkey_types *t, struct confkey *k, const char *at)
{
	t->k = xrealloc(t->k, (t->n + 1) * sizeof(*t->k));
	t->at = xrealloc(t->at, (t->n + 1) * sizeof(*t->at));
	t->k[t->n] = *k;
	t->at[t->n++] = xstrdup(at);
	memset(k, 0, sizeof(*k));
}

const struct confkey *confkey_types_find(const struct confkey_types *t, const char *key,
					 const char **at)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->k[i].key, key)) {
			if (at)
				*at = t->at[i];
			return &t->k[i];
		}
	return NULL;
}

size_t confkey_types_check(const struct conf *c, const struct confkey_types *t, struct strv *msgs)
{
	size_t bad = 0;

	for (size_t i = 0; i < t->n; i++) {
		struct conf_value v;
		char *err;

		if (conf_resolve_as(c, &t->k[i], t->k[i].key, &v, &err) < 0) {
			strv_pushf(msgs, "%s (#@ conf-type at %s)", err, t->at[i]);
			free(err);
			bad++;
		}
	}
	return bad;
}

void confkey_types_free(struct confkey_types *t)
{
	for (size_t i = 0; i < t->n; i++) {
		confkey_type_free(&t->k[i]);
		free(t->at[i]);
	}
	free(t->k);
	free(t->at);
	strv_free(&t->secret);
	memset(t, 0, sizeof(*t));
}
