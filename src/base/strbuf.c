// SPDX-License-Identifier: GPL-2.0
/* strbuf.c: a growable NUL-terminated byte buffer. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "strbuf.h"

/* room for n more bytes and the NUL */
static void reserve(struct strbuf *b, size_t n)
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
}

void strbuf_add(struct strbuf *b, const char *s, size_t n)
{
	reserve(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void strbuf_addf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	reserve(b, 0);
	/* formatted into the spare room; once more where it did not fit */
	for (int pass = 0; pass < 2; pass++) {
		va_start(ap, fmt);
		n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			die("strbuf_addf: cannot format \"%s\"", fmt);
		if ((size_t)n < b->cap - b->len)
			break;
		reserve(b, (size_t)n);
	}
	b->len += (size_t)n;
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

char *str_shown(const char *s, size_t max)
{
	struct strbuf b = STRBUF_INIT;
	size_t len = strlen(s);

	strbuf_reset(&b);
	for (size_t i = 0; i < len && i < max; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\')
			strbuf_adds(&b, "\\\\");
		else if (c < 0x20 || c >= 0x7f)
			strbuf_addf(&b, "\\x%02x", c);
		else
			strbuf_addc(&b, (char)c);
	}
	if (len > max)
		strbuf_addf(&b, "... (%zu bytes)", len);
	return b.s;
}

void strbuf_free(struct strbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}
