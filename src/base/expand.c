// SPDX-License-Identifier: GPL-2.0
/*
 * expand.c: ${NAME} expansion for the rapido.conf and configfs spec parsers.
 * Each parser has its own quoting rules and messages; what ${NAME} means,
 * and how large a value may grow, is decided here once.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "expand.h"

bool expand_name_valid(const char *s, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))
			continue;
		if (i && c >= '0' && c <= '9')
			continue;
		return false;
	}
	return true;
}

enum expand_status expand_braced(struct expander *x, const char *s, size_t len,
				 struct strbuf *out, size_t *used, size_t *name_len)
{
	const char *name = s + 2;
	const char *end = len > 2 ? memchr(name, '}', len - 2) : NULL;
	const char *val;
	size_t n;
	char *key;

	*used = 0;
	*name_len = 0;
	if (!end)
		return EXPAND_UNTERMINATED;
	*name_len = (size_t)(end - name);
	if (!expand_name_valid(name, *name_len))
		return EXPAND_BAD_NAME;
	key = xstrndup(name, *name_len);
	val = x->lookup(x->ctx, key);
	free(key);
	if (!val)
		return EXPAND_UNSET;
	n = strlen(val);
	/* checked before copying, so a refused value costs nothing */
	if (n > EXPAND_VALUE_MAX || out->len + n > EXPAND_VALUE_MAX)
		return EXPAND_TOO_LONG;
	if (x->total + n > EXPAND_TOTAL_MAX)
		return EXPAND_TOO_MUCH;
	x->total += n;
	strbuf_add(out, val, n);
	*used = (size_t)(end - s) + 1;
	return EXPAND_OK;
}
