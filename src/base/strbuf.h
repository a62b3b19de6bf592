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

/* str_shown()'s cut: a message shows this much of a value, and how long it was */
#define STR_SHOWN_MAX 200
/*
 * s for a message (malloc'd): every byte a terminal would hide or act on
 * (control bytes, ESC, DEL, anything not ASCII) as \xHH, '\' doubled so
 * those stay unambiguous, and past max bytes of s cut with "... (N bytes)",
 * so a value of 10 MB or one full of escape sequences prints as one short line.
 */
char *str_shown(const char *s, size_t max);

#endif
