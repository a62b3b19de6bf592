/* SPDX-License-Identifier: GPL-2.0 */
/* strv.h: a growable NULL-terminated argv vector for building command lines. */
#ifndef RAPIDO_STRV_H
#define RAPIDO_STRV_H

#include <stddef.h>
#include <stdio.h>

struct strv {
	char **v;	/* always NULL-terminated once anything was pushed */
	size_t n;
	size_t cap;
};

#define STRV_INIT { NULL, 0, 0 }

void strv_push(struct strv *sv, const char *s);
void strv_pushf(struct strv *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strv_push_all(struct strv *sv, const struct strv *from);
/* Returns the vector, never NULL (an empty vector is {NULL}). */
char **strv_argv(struct strv *sv);
void strv_free(struct strv *sv);
int strv_contains(const struct strv *sv, const char *s);
/* Sort the vector's strings (strcmp order). */
void strv_sort(struct strv *sv);
/*
 * Append the names of the entries of DIR ending in SUFFIX, sorted.
 * Returns 0, or -errno if DIR cannot be read (nothing appended).
 */
int strv_list_dir(struct strv *sv, const char *dir, const char *suffix);

/* Print one argument per line, shell-quoted where needed (for --dry-run). */
void strv_print_quoted(FILE *f, const struct strv *sv);
/* Write s to f quoted so a POSIX shell would read it back as one word. */
void shell_quote(FILE *f, const char *s);

#endif
