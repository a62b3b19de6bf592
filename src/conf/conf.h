/* SPDX-License-Identifier: GPL-2.0 */
/* conf.h: strict parser for rapido.conf (KEY=value lines, no shell involved). */
#ifndef RAPIDO_CONF_H
#define RAPIDO_CONF_H

#include <stddef.h>

struct conf_entry {
	char *key;
	char *val;
	char *origin;	/* "FILE:LINE" of the last assignment; NULL if set by code */
	int used;	/* a later line expanded ${KEY} */
};

struct conf {
	struct conf_entry *e;
	size_t n;
	char *path;		/* file it was read from, NULL if none */
	int env_override;	/* conf_get() prefers the environment */
};

/*
 * Grammar, one assignment per line:
 *	[export ]KEY=WORD [# comment]
 * WORD is a run of unquoted text, '...' (literal) and "..." (with \" \\ \$
 * \` escapes and ${KEY} expansion) pieces. ${KEY} expands a key assigned on
 * an earlier line, or else a variable of the environment; with env_override
 * set before parsing, the environment comes first, as in a shell, so that
 * KEY=x in the environment changes every "${KEY}" as well. Anything a shell
 * would treat as code ($(...), `...`, unquoted ; & | < > ( ), $VAR without
 * braces, ${KEY:-x}) is an error, as are unterminated quotes and unquoted
 * whitespace inside a value. A value holds at most EXPAND_VALUE_MAX bytes
 * and the expansions of one file make at most EXPAND_TOTAL_MAX (expand.h).
 *
 * Returns 0, or -EINVAL with *err set to "FILE:LINE: message" (malloc'd).
 */
int conf_parse(struct conf *c, const char *file, const char *text, char **err);
/* rapido.conf's bound: a file past it is no configuration (/dev/zero's bytes, a log) */
#define CONF_FILE_MAX (1u << 20)
/*
 * Read and parse PATH, a regular file of at most CONF_FILE_MAX bytes;
 * -errno (with *err describing it) if it cannot be read.
 */
int conf_load(struct conf *c, const char *path, char **err);

/* Last value of KEY (or the environment's, when env_override is set). */
const char *conf_get(const struct conf *c, const char *key);
/*
 * Where conf_get(c, KEY) comes from, to start a message with: "FILE:LINE"
 * of the assignment, "environment", or "default" when KEY is unset (or set
 * by code). Valid until KEY is set again or c is freed.
 */
const char *conf_origin(const struct conf *c, const char *key);
void conf_set(struct conf *c, const char *key, const char *val);
void conf_free(struct conf *c);

/* 1 if s is a valid KEY name. */
int conf_key_valid(const char *s);

#endif
