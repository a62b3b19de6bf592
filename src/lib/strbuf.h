/* SPDX-License-Identifier: GPL-2.0 */
/* strbuf.h: a growable NUL-terminated byte buffer (util-linux ul_buffer). */
#ifndef RAPIDO_STRBUF_H
#define RAPIDO_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *s;	/* NUL-terminated once anything was added or after strbuf_reset() */
	size_t len, cap;
};

#define STRBUF_INIT { NULL, 0, 0 }

/* Append n bytes of s (which may hold NULs; len counts them). */
void strbuf_add(struct strbuf *b, const char *s, size_t n);
void strbuf_addc(struct strbuf *b, char c);
void strbuf_adds(struct strbuf *b, const char *s);
/* Append what printf would print (dies if the format fails). */
void strbuf_addf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Make the buffer "" (allocated), keeping its memory. */
void strbuf_reset(struct strbuf *b);
void strbuf_free(struct strbuf *b);

#endif
