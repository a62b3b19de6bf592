/* SPDX-License-Identifier: GPL-2.0 */
/* check.h: sha256sum -c: parse checksum lines, check them, count and summarise. */
#ifndef AFSUM_CHECK_H
#define AFSUM_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sum.h"

struct afsum_check_parser {
	const char *tag;	/* accepted in "TAG (NAME) = HEX" lines */
	size_t hex_len;		/* digits in a digest */
	int bsd_reversed;	/* -1 not known yet, 0 "HEX  NAME", 1 "HEX NAME" */
};

struct afsum_check_line {
	char *digest;		/* hex, NUL-terminated, hex_len digits */
	char *name;		/* unescaped, NUL-terminated */
	bool binary;		/* '*' marker */
};

void afsum_check_parser_init(struct afsum_check_parser *p, const char *tag,
			     size_t hex_len);

/*
 * Parse one line (len bytes, s[len] must be '\0'; trailing newline and
 * carriage return already removed) the way coreutils 9.1 does: leading
 * blanks, an optional backslash meaning the name is escaped, then either
 * "TAG (NAME) = HEX" (spaces optional) or "HEX  NAME" / "HEX *NAME", or,
 * if the first such line is so, "HEX NAME" for the whole file. s is
 * modified; out points into it. Returns false for an improperly
 * formatted line.
 */
bool afsum_check_parse(struct afsum_check_parser *p, char *s, size_t len,
		       struct afsum_check_line *out);

/*
 * Undo coreutils' escaping in place: "\\\\" "\\n" "\\r". Returns false if
 * s (len bytes) holds another escape, ends in a lone backslash, or a NUL.
 */
bool afsum_unescape(char *s, size_t len);

/*
 * Check every line of the check file in (named name, or "-" for standard
 * input) with h. Prints like sha256sum -c to out and err. Returns 0 if
 * all is well, AFSUM_EXIT_FAIL if not, or a fatal status from h.
 */
int afsum_check_stream(const struct afsum_opts *o, struct afsum_hasher *h,
		       FILE *in, const char *name, FILE *out, FILE *err);

/* Open and check a check file ("-": standard input). Returns as above. */
int afsum_check_file(const struct afsum_opts *o, struct afsum_hasher *h,
		     const char *name, FILE *out, FILE *err);

#endif
