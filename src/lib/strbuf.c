// SPDX-License-Identifier: GPL-2.0
/* strbuf.c: a growable NUL-terminated byte buffer. */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "strbuf.h"

void strbuf_add(struct strbuf *b, const char *s, size_t n)
{
	if (n >= (size_t)-1 / 2 - b->len)
		die("out of memory: a buffer of %zu + %zu bytes", b->len, n);
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;

		while (cap < b->len + n + 1)
			cap *= 2;
		b->s = xrealloc(b->s, cap);
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void strbuf_addc(struct strbuf *b, char c)
{
	strbuf_add(b, &c, 1);
}

void strbuf_adds(struct strbuf *b, const char *s)
{
	strbuf_add(b, s, strlen(s));
}

void strbuf_reset(struct strbuf *b)
{
	b->len = 0;
	strbuf_add(b, "", 0);
}

void strbuf_free(struct strbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}
