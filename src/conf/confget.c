// SPDX-License-Identifier: GPL-2.0
/*
 * confget.c: every program reads rapido.conf here, through the key's
 * confkeys[] entry, so ./vm, ./netsetup, ./ceph-local and ./cut
 * --check-conf accept the same values, fall back on the same default and
 * word the same message ("FILE:LINE: KEY: expected ..., got '...'").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "confget.h"
#include "err.h"
#include "hostmem.h"
#include "num.h"
#include "shwords.h"
#include "size.h"
#include "strbuf.h"

const char *conf_value(const struct conf *c, const char *key, const char **origin)
{
	if (origin)
		*origin = conf_origin(c, key);
	return conf_get(c, key);
}

/* "auto, kvm or tcg" */
static char *words_list(const char *const *w)
{
	struct strbuf b = STRBUF_INIT;

	strbuf_reset(&b);
	for (size_t i = 0; w[i]; i++) {
		if (i)
			strbuf_adds(&b, w[i + 1] ? ", " : " or ");
		strbuf_adds(&b, w[i]);
	}
	return b.s;
}

static int parse_enum(const struct confkey *k, const char *text, struct conf_value *v, char **why)
{
	char *list;

	for (size_t i = 0; k->words[i]; i++)
		if (k->flags & CONFKEY_ICASE ? !strcasecmp(k->words[i], text) :
					       !strcmp(k->words[i], text)) {
			v->word = k->words[i];
			return 0;
		}
	list = words_list(k->words);
	*why = xasprintf("expected %s, got '%s'", list, text);
	free(list);
	return -EINVAL;
}

/* WORDS (split from TEXT), each cut at commas too, are all among k->words */
static int words_in_set(const struct confkey *k, const struct strv *words, const char *text,
			char **why)
{
	for (size_t i = 0; i < words->n; i++)
		for (const char *s = words->v[i]; *s; ) {
			size_t len = strcspn(s, ",");
			size_t j = 0;

			while (len && k->words[j] && (strlen(k->words[j]) != len ||
						      strncmp(k->words[j], s, len)))
				j++;
			if (len && !k->words[j]) {
				char *list = words_list(k->words);

				*why = xasprintf("expected each word to be %s, got '%.*s' in '%s'", list,
						 (int)len, s, text);
				free(list);
				return -EINVAL;
			}
			s += len + (s[len] == ',');
		}
	return 0;
}

static int parse_size_range(const struct confkey *k, const char *text, struct conf_value *v,
			    char **why)
{
	char lo[32], hi[32], host[HOSTMEM_WHY_LEN];
	uint64_t n;

	if (!parse_size(text, &n) && n >= k->min && (!k->max || n <= k->max)) {
		if ((k->flags & CONFKEY_HOSTMEM) && hostmem_check(n, host)) {
			*why = xasprintf("'%s' is %s", text, host);
			return -EINVAL;
		}
		v->n = n;
		return 0;
	}
	size_format(k->min, lo, sizeof(lo));
	size_format(k->max, hi, sizeof(hi));
	if (k->max)
		*why = xasprintf("expected a size from %s to %s such as %s, got '%s'", lo, hi,
				 k->eg, text);
	else if (k->min > 1)
		*why = xasprintf("expected a size of at least %s such as %s, got '%s'", lo, k->eg, text);
	else
		*why = xasprintf("expected a size such as %s, got '%s'", k->eg, text);
	return -EINVAL;
}

static int parse_addr(const struct confkey *k, const char *text, struct conf_value *v, char **why)
{
	char buf[NETADDR_WHY_LEN];

	if (k->flags & CONFKEY_BRIDGE) {
		if (!ipv4_bridge_parse(text, &v->addr, buf))
			return 0;
		*why = xasprintf("%s, got '%s'", buf, text);
		return -EINVAL;
	}
	if (!ipv4_prefix_parse(text, &v->addr))
		return 0;
	*why = xasprintf("expected an IPv4 address with prefix length such as %s, got '%s'",
			 k->eg, text);
	return -EINVAL;
}

static int parse_typed(const struct confkey *k, const char *text, struct conf_value *v,
		       char **why)
{
	char buf[NUM_WHY_LEN];
	struct strv words = STRV_INIT;
	uint64_t n;
	int rc;

	switch (k->kind) {
	case CONFKEY_UINT:
		if (num_parse(text, k->min, k->max, &n, buf)) {
			*why = xstrdup(buf);
			return -EINVAL;
		}
		v->n = n;
		return 0;
	case CONFKEY_SIZE:
		return parse_size_range(k, text, v, why);
	case CONFKEY_ENUM:
		return parse_enum(k, text, v, why);
	case CONFKEY_PATH:
		if ((k->flags & CONFKEY_ABSOLUTE) && text[0] != '/') {
			*why = xasprintf("expected an absolute path, got '%s'", text);
			return -EINVAL;
		}
		return 0;
	case CONFKEY_ADDR:
		return parse_addr(k, text, v, why);
	case CONFKEY_WORDS:
		rc = shwords_split(text, &words, why);
		if (!rc && k->words)
			rc = words_in_set(k, &words, text, why);
		strv_free(&words);
		return rc ? -EINVAL : 0;
	case CONFKEY_STR:
		return 0;
	}
	return 0;
}

/* why with each copy of a secret's text as ***: a wrong value may still be the secret */
static char *secret_masked(char *why, const char *text)
{
	struct strbuf b = STRBUF_INIT;
	size_t n = strlen(text);
	const char *p = why, *q;

	for (; n && (q = strstr(p, text)); p = q + n) {
		strbuf_add(&b, p, (size_t)(q - p));
		strbuf_adds(&b, "***");
	}
	strbuf_adds(&b, p);
	free(why);
	return b.s ? b.s : xstrdup("");
}

int confkey_parse(const struct confkey *k, const char *text, struct conf_value *v, char **why)
{
	int rc;

	*why = NULL;
	v->text = text;
	rc = parse_typed(k, text, v, why);
	/* the key's own rule (a shard I/N, a splat list) after its type's */
	if (!rc && k->check)
		rc = k->check(text, why);
	/* a secret's text masked before anything is shown or cut of it */
	if (rc && *why && (k->flags & CONFKEY_SECRET))
		*why = secret_masked(*why, text);
	/* the value quoted in the message: its escape bytes shown, not sent to the terminal; cut */
	if (rc && *why) {
		char *shown = str_shown(*why, 2 * STR_SHOWN_MAX);

		free(*why);
		*why = shown;
	}
	return rc;
}

static const struct confkey free_text = { .key = "", .kind = CONFKEY_STR };

int conf_resolve_as(const struct conf *c, const struct confkey *k, const char *key,
		    struct conf_value *v, char **err)
{
	const char *text = conf_value(c, key, &v->origin);
	char *why;

	*err = NULL;
	/*
	 * An empty value counts as unset, as in a shell's ${X:-default}; but a
	 * path written empty in a file is a mistake to name ("" + "/files" is "/").
	 */
	if (text && !*text && k->kind == CONFKEY_PATH && strcmp(v->origin, "environment")) {
		*err = xasprintf("%s: %s: an empty path (give a path, or leave the key out)",
				 v->origin, key);
		return -EINVAL;
	}
	if (text && !*text)
		text = NULL;

	v->key = key;
	v->set = !!text;
	v->n = 0;
	v->word = NULL;
	memset(&v->addr, 0, sizeof(v->addr));
	if (!text) {
		v->origin = "default";
		text = k->def;
	}
	v->text = text;
	if (!text)
		return 0;
	if (confkey_parse(k, text, v, &why)) {
		*err = xasprintf("%s: %s: %s", v->origin, key, why);
		free(why);
		return -EINVAL;
	}
	return v->set;
}

int conf_check_paths(const struct conf *c, char **err)
{
	*err = NULL;
	for (size_t i = 0; i < c->n; i++) {
		const struct confkey *k = confkey_find(c->e[i].key);
		struct conf_value v;

		if (k && k->kind == CONFKEY_PATH && conf_resolve_as(c, k, c->e[i].key, &v, err) < 0)
			return -EINVAL;
	}
	return 0;
}

int conf_resolve(const struct conf *c, const char *key, struct conf_value *v, char **err)
{
	const struct confkey *k = confkey_find(key);

	return conf_resolve_as(c, k ? k : &free_text, key, v, err);
}

/* conf_resolve() for the typed readers: v->text is NULL when there is nothing to store */
static int typed(const struct conf *c, const char *key, struct conf_value *v, const char **origin,
		 char **err)
{
	int rc = conf_resolve(c, key, v, err);

	if (origin)
		*origin = v->origin;
	if (rc < 0)
		v->text = NULL;
	return rc;
}

int conf_uint(const struct conf *c, const char *key, unsigned int *out, const char **origin,
	      char **err)
{
	struct conf_value v;
	int rc = typed(c, key, &v, origin, err);

	if (v.text)
		*out = (unsigned int)v.n;
	return rc;
}

int conf_size(const struct conf *c, const char *key, uint64_t *out, const char **origin,
	      char **err)
{
	struct conf_value v;
	int rc = typed(c, key, &v, origin, err);

	if (v.text)
		*out = v.n;
	return rc;
}

int conf_enum(const struct conf *c, const char *key, const char **out, const char **origin,
	      char **err)
{
	struct conf_value v;
	int rc = typed(c, key, &v, origin, err);

	if (v.text)
		*out = v.word ? v.word : v.text;
	return rc;
}

int conf_path(const struct conf *c, const char *key, const char **out, const char **origin,
	      char **err)
{
	struct conf_value v;
	int rc = typed(c, key, &v, origin, err);

	if (v.text)
		*out = v.text;
	return rc;
}

int conf_addr(const struct conf *c, const char *key, struct ipv4_prefix *out,
	      const char **origin, char **err)
{
	struct conf_value v;
	int rc = typed(c, key, &v, origin, err);

	if (v.text)
		*out = v.addr;
	return rc;
}

int conf_words(const struct conf *c, const char *key, struct strv *out, const char **origin,
	       char **err)
{
	struct conf_value v;
	int rc = typed(c, key, &v, origin, err);

	/* a bad value was refused above, so this split succeeds */
	if (v.text && shwords_split(v.text, out, err))
		die("internal error: %s: %s", key, *err);
	return rc;
}

const char *conf_str(const struct conf *c, const char *key, const char **origin)
{
	const struct confkey *k = confkey_find(key);
	const char *v = conf_value(c, key, origin);

	if (v && *v)
		return v;
	if (origin)
		*origin = "default";
	return k ? k->def : NULL;
}

int confkeys_check_type(const char *key, const char *val, char **err)
{
	const struct confkey *k = confkey_find(key);
	struct conf_value v;

	*err = NULL;
	return k ? confkey_parse(k, val, &v, err) : 0;
}
