// SPDX-License-Identifier: GPL-2.0
/* pct.c: %XX escaping of words (pct.h). */
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "hex.h"
#include "pct.h"

size_t pct_escape(char *out, size_t max, const char *s)
{
	size_t n = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c == '%' || c == 0x7f) {
			if (n + 3 > max)
				break;
			n += (size_t)sprintf(out + n, "%%%02x", c);
		} else {
			if (n + 1 > max)
				break;
			out[n++] = (char)c;
		}
	}
	out[n] = '\0';
	return n;
}

size_t pct_escape_field(char *out, size_t max, const char *s)
{
	if (!*s)
		return (size_t)sprintf(out, "-");
	if (!strcmp(s, "-"))
		return (size_t)sprintf(out, "%%2d");
	return pct_escape(out, max, s);
}

char *pct_field(const char *s)
{
	size_t max;

	if (!s)
		s = "";
	max = 3 * strlen(s) + 3;
	char *out = xmalloc(max + 1);

	pct_escape_field(out, max, s);
	return out;
}

void pct_unescape(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		int hi, lo;

		if (*r == '%' && (hi = hex_digit(r[1])) >= 0 && (lo = hex_digit(r[2])) >= 0) {
			*w++ = (char)(hi * 16 + lo);
			r += 2;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

void pct_unescape_field(char *s)
{
	if (!strcmp(s, "-"))
		*s = '\0';
	else
		pct_unescape(s);
}
