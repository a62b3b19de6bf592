// SPDX-License-Identifier: GPL-2.0
/* strv.c: growable argv vectors; command lines are built here, never as strings. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "strv.h"

static void strv_take(struct strv *sv, char *s)
{
	if (sv->n + 2 > sv->cap) {
		sv->cap = sv->cap ? sv->cap * 2 : 16;
		sv->v = xrealloc(sv->v, sv->cap * sizeof(*sv->v));
	}
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

void strv_push(struct strv *sv, const char *s)
{
	strv_take(sv, xstrdup(s));
}

void strv_pushf(struct strv *sv, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	strv_take(sv, s);
}

void strv_push_all(struct strv *sv, const struct strv *from)
{
	for (size_t i = 0; i < from->n; i++)
		strv_push(sv, from->v[i]);
}

char **strv_argv(struct strv *sv)
{
	if (!sv->v) {
		sv->cap = 16;
		sv->v = xcalloc(sv->cap, sizeof(*sv->v));
	}
	return sv->v;
}

void strv_free(struct strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->cap = 0;
}

int strv_contains(const struct strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return 1;
	return 0;
}

void shell_quote(FILE *f, const char *s)
{
	const char *safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			   "0123456789-_./=:,+@%";

	if (*s && strspn(s, safe) == strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

void strv_print_quoted(FILE *f, const struct strv *sv)
{
	for (size_t i = 0; i < sv->n; i++) {
		shell_quote(f, sv->v[i]);
		fputc('\n', f);
	}
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strv_sort(struct strv *sv)
{
	if (sv->n)
		qsort(sv->v, sv->n, sizeof(*sv->v), str_cmp);
}

int strv_list_dir(struct strv *sv, const char *dir, const char *suffix)
{
	struct strv names = STRV_INIT;
	size_t sl = strlen(suffix);
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l > sl && !strcmp(de->d_name + l - sl, suffix))
			strv_push(&names, de->d_name);
	}
	closedir(d);
	strv_sort(&names);
	strv_push_all(sv, &names);
	strv_free(&names);
	return 0;
}
