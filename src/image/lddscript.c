// SPDX-License-Identifier: GPL-2.0
/*
 * lddscript.c: read RTLDLIST from glibc's ldd script. ldd asks each loader
 * of that list, in order, whether it can load a file; rapido-ldd (src/ldd)
 * must pick the loader ldd would, so it takes the list from the very
 * script ldd is, and gives up (leaving the work to ldd) on any script it
 * does not understand plainly: one assignment at the start of a line,
 * never assigned again (using it, as ldd's loop does, is fine).
 */
#include <errno.h>
#include <string.h>

#include "err.h"
#include "lddscript.h"

#define KEY "RTLDLIST="
#define KEY_LEN (sizeof(KEY) - 1)

/* A loader path as ldd's unquoted expansion would pass it on: absolute, nothing the shell would touch. */
static int plain_path(const char *w, size_t n)
{
	if (!n || w[0] != '/')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (strchr("\"'$`\\*?[]{}~;&|<>()#", w[i]) || (unsigned char)w[i] < 0x21 ||
		    (unsigned char)w[i] >= 0x7f)
			return 0;
	return 1;
}

/* The words of the value that starts at v (up to the end of the line e). */
static int split_value(const char *v, const char *e, struct strv *words)
{
	const char *end = e;

	if (v < e && *v == '"') {
		const char *q = memchr(v + 1, '"', (size_t)(e - v - 1));

		if (!q)
			return -EINVAL;
		/* after the closing quote: nothing, or a comment */
		for (const char *t = q + 1; t < e && *t != '#'; t++)
			if (*t != ' ' && *t != '\t')
				return -EINVAL;
		v++;
		end = q;
	} else {
		/* unquoted: one word, up to a blank or a comment */
		const char *t = v;

		while (t < e && *t != ' ' && *t != '\t')
			t++;
		for (const char *r = t; r < e && *r != '#'; r++)
			if (*r != ' ' && *r != '\t')
				return -EINVAL;
		end = t;
	}
	while (v < end) {
		const char *w;

		while (v < end && (*v == ' ' || *v == '\t'))
			v++;
		w = v;
		while (v < end && *v != ' ' && *v != '\t')
			v++;
		if (v == w)
			break;
		if (!plain_path(w, (size_t)(v - w)))
			return -EINVAL;
		strv_pushf(words, "%.*s", (int)(v - w), w);
	}
	return words->n ? 0 : -EINVAL;
}

int ldd_script_rtlds(const char *text, size_t len, struct strv *out)
{
	const char *p = text, *end = text + len, *found = NULL, *found_end = NULL;
	struct strv words = STRV_INIT;
	int rc;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));

		if (!e)
			e = end;
		for (const char *s = p; (size_t)(e - s) >= KEY_LEN; s++) {
			const char *after = s + KEY_LEN - 1;

			if (memcmp(s, "RTLDLIST", KEY_LEN - 1))
				continue;
			/* a use (${RTLDLIST}) is fine; an assignment but the one is not plain */
			if (*after != '=' && !(*after == '+' && after + 1 < e && after[1] == '='))
				continue;
			if (s != p || *after != '=' || found)
				return -EINVAL;
			found = s + KEY_LEN;
			found_end = e;
		}
		p = e < end ? e + 1 : end;
	}
	if (!found)
		return -ENOENT;
	rc = split_value(found, found_end, &words);
	if (!rc)
		strv_push_all(out, &words);
	strv_free(&words);
	return rc;
}
