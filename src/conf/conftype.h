/* SPDX-License-Identifier: GPL-2.0 */
/* conftype.h: the types profiles give their own rapido.conf keys ("#@ conf-type: KEY KIND ARG"). */
#ifndef RAPIDO_CONFTYPE_H
#define RAPIDO_CONFTYPE_H

#include "confkeys.h"

/*
 * SPEC is "KEY KIND [ARG]", one of
 *	KEY uint MIN-MAX	a decimal number in MIN..MAX
 *	KEY size MIN[-MAX]	a size (1M, 2G) of at least MIN (and at most MAX)
 *	KEY enum W1,W2,...	one of the words (case matters)
 *	KEY path | str | words	as confkeys[]'s kinds
 *	KEY words W1,W2,...	words (blanks or commas between), each one of W1...
 * so that ./cut refuses a bad value before a boot. Fills *out (its
 * strings malloc'd: confkey_type_free) and returns 0, or -EINVAL with
 * *why (malloc'd) saying what is wrong.
 */
int confkey_type_parse(const char *spec, struct confkey *out, char **why);
void confkey_type_free(struct confkey *k);

/*
 * A profile's typed keys, each with the "FILE:LINE" of its #@ conf-type
 * line; and the keys profiles mark `#@ secret:` (never shown).
 */
struct confkey_types {
	struct confkey *k;
	char **at;
	size_t n;
	struct strv secret;
};

/* Append k (taken over) given at AT. */
void confkey_types_add(struct confkey_types *t, struct confkey *k, const char *at);
/* KEY's entry in t, or NULL. */
const struct confkey *confkey_types_find(const struct confkey_types *t, const char *key,
					 const char **at);
void confkey_types_free(struct confkey_types *t);

/*
 * Resolve each typed key of t in c (conf_resolve_as): one message per value
 * its type refuses, "FILE:LINE: KEY: expected ..., got '...' (#@ conf-type
 * at PROFILE:LINE)", appended to msgs. Returns how many.
 */
size_t confkey_types_check(const struct conf *c, const struct confkey_types *t, struct strv *msgs);

#endif
