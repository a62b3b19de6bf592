/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pct.h: %XX escaping, so that any string travels as one word of a line:
 * the status record (status.c), ./vm's results records (vm/results.c) and
 * ./cut's cache meta files (cut/cache.c).
 */
#ifndef RAPIDO_PCT_H
#define RAPIDO_PCT_H

#include <stddef.h>

/*
 * Escape s into out, which has room for max bytes and a NUL: blanks, '%',
 * DEL and control characters as %xx (lower case). Stops before an escape
 * or character that would not fit. Returns the length written; 3 *
 * strlen(s) is always enough.
 */
size_t pct_escape(char *out, size_t max, const char *s);
/* The same for a field where "-" stands for none: "" is written "-", "-" as "%2d" (max >= 3). */
size_t pct_escape_field(char *out, size_t max, const char *s);
/* pct_escape_field into a malloc'd string; NULL is written as "" is. */
char *pct_field(const char *s);

/* Undo pct_escape in place: '%' and two hex digits (either case); any other '%' stays. */
void pct_unescape(char *s);
/* Undo pct_escape_field in place: "-" becomes "". */
void pct_unescape_field(char *s);

#endif
