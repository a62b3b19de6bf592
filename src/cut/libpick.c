// SPDX-License-Identifier: GPL-2.0
/*
 * libpick.c: the guest libraries (autorun/lib) a batch autorun needs:
 * those defining a function or a top-level variable that the autorun, the
 * profile, the extras or another needed library names as a word outside a
 * whole-line comment. Under
 * TCG bash takes about a second to parse all 140 KB of them, and a batch
 * run of simple calls none but rapido.sh's. A name is only ever called
 * by its literal word (hooks and rapido_test's CMD are passed by name),
 * so a word scan finds every library a run can reach; too many is harmless.
 */
#include <stdlib.h>
#include <string.h>

#include "cut.h"
#include "err.h"

static int word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* A set of words, open addressing (FNV-1a). */
struct words {
	char **v;
	size_t cap, n;
};

static size_t hash_word(const char *s, size_t len)
{
	size_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static int words_has(const struct words *w, const char *s, size_t len)
{
	for (size_t h = hash_word(s, len) & (w->cap - 1); w->v[h]; h = (h + 1) & (w->cap - 1))
		if (!strncmp(w->v[h], s, len) && !w->v[h][len])
			return 1;
	return 0;
}

static void words_add(struct words *w, const char *s, size_t len)
{
	size_t h;

	if (words_has(w, s, len))
		return;
	if (2 * (w->n + 1) > w->cap) {
		struct words big = { xcalloc(2 * w->cap, sizeof(char *)), 2 * w->cap, 0 };

		for (size_t i = 0; i < w->cap; i++)
			if (w->v[i])
				words_add(&big, w->v[i], strlen(w->v[i]));
		for (size_t i = 0; i < w->cap; i++)
			free(w->v[i]);
		free(w->v);
		*w = big;
	}
	for (h = hash_word(s, len) & (w->cap - 1); w->v[h]; h = (h + 1) & (w->cap - 1))
		;
	w->v[h] = xstrndup(s, len);
	w->n++;
}

static void words_of(struct words *w, const char *text)
{
	for (const char *p = text; *p;) {
		const char *s = p;

		/* a whole-line comment calls nothing (rapido.sh's names fstests' function in one) */
		if (p == text || p[-1] == '\n') {
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p == '#') {
				while (*p && *p != '\n')
					p++;
				continue;
			}
			s = p;
		}

		while (word_char(*p))
			p++;
		if (p > s)
			words_add(w, s, (size_t)(p - s));
		else
			p++;
	}
}

/*
 * Does a line of text, at its first column, define NAME: "NAME()",
 * "NAME=" or "declare -FLAGS NAME="? Then 1 and *len its length.
 */
static int defines(const char *line, const char **name, size_t *len)
{
	const char *p = line;

	if (!strncmp(p, "declare ", 8)) {
		p += 8;
		while (*p == '-') {
			while (*p && *p != ' ' && *p != '\n')
				p++;
			while (*p == ' ')
				p++;
		}
	}
	*name = p;
	while (word_char(*p))
		p++;
	*len = (size_t)(p - *name);
	if (!*len || (**name >= '0' && **name <= '9'))
		return 0;
	return *p == '=' || (p[0] == '(' && p[1] == ')') ||
	       (p[0] == ' ' && p[1] == '(' && p[2] == ')');
}

/* Does the library's text define a word of the set? */
static int lib_named(const struct words *w, const char *text)
{
	for (const char *line = text; line && *line;) {
		const char *name;
		size_t len;

		if (defines(line, &name, &len) && words_has(w, name, len))
			return 1;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return 0;
}

void cut_lib_pick(const char *const *texts, size_t ntexts, const char *const *libs, size_t nlibs,
		  int *picked)
{
	struct words w = { xcalloc(1024, sizeof(char *)), 1024, 0 };
	int more = 1;

	for (size_t i = 0; i < ntexts; i++)
		words_of(&w, texts[i]);
	for (size_t i = 0; i < nlibs; i++)
		picked[i] = 0;
	while (more) {
		more = 0;
		for (size_t i = 0; i < nlibs; i++)
			if (!picked[i] && lib_named(&w, libs[i])) {
				picked[i] = 1;
				words_of(&w, libs[i]);
				more = 1;
			}
	}
	for (size_t i = 0; i < w.cap; i++)
		free(w.v[i]);
	free(w.v);
}
