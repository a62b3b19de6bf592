/* SPDX-License-Identifier: GPL-2.0 */
/* expand.h: ${NAME} expansion, bounded, shared by the rapido.conf and configfs spec parsers. */
#ifndef RAPIDO_EXPAND_H
#define RAPIDO_EXPAND_H

#include <stdbool.h>
#include <stddef.h>

#include "strbuf.h"

/*
 * The longest value expansion may build (a rapido.conf value, a configfs
 * spec word): 64 KiB. Without a cap, A1="${A0}${A0}" doubling for 33 lines
 * asks for 8 GiB; real values are paths and argument lists.
 */
#define EXPAND_VALUE_MAX (64 * 1024)
/*
 * What all expansions of one file may produce together: 1 MiB. A file of
 * many short lines that each copy one 64 KiB value would otherwise still
 * cost gigabytes.
 */
#define EXPAND_TOTAL_MAX (1024 * 1024)

enum expand_status {
	EXPAND_OK = 0,
	EXPAND_UNTERMINATED,	/* "${" without a '}' */
	EXPAND_BAD_NAME,	/* not a NAME: ${A:-x}, ${1}, ${} */
	EXPAND_UNSET,		/* lookup() knows no such NAME */
	EXPAND_TOO_LONG,	/* the value would pass EXPAND_VALUE_MAX */
	EXPAND_TOO_MUCH,	/* the file's expansions would pass EXPAND_TOTAL_MAX */
};

struct expander {
	/* The value of NAME (NUL-terminated), or NULL when it is not set. */
	const char *(*lookup)(void *ctx, const char *name);
	void *ctx;
	size_t total;		/* bytes expanded so far in this file */
};

/* 1 if len bytes of s are a NAME: [A-Za-z_][A-Za-z0-9_]* (no locale involved). */
bool expand_name_valid(const char *s, size_t len);

/*
 * s (len bytes) starts with "${". Append the value of NAME to out, unless
 * out would grow past EXPAND_VALUE_MAX. Sets *used to the bytes taken from
 * s (through the '}') and *name_len to the length of what stands between
 * the braces (NAME starts at s + 2), for the caller's message.
 */
enum expand_status expand_braced(struct expander *x, const char *s, size_t len,
				 struct strbuf *out, size_t *used, size_t *name_len);

#endif
