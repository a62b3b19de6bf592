/* SPDX-License-Identifier: GPL-2.0 */
/* fmt.h: coreutils-compatible output: digest lines, name escaping, tags, quoting. */
#ifndef AFSUM_FMT_H
#define AFSUM_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sum.h"

/* Tag for --tag lines: coreutils' for md5/sha1/sha2, else alg upper-cased into buf. */
const char *afsum_tag_name(const char *alg, char *buf, size_t bufsz);

/* True if hex is exactly 2*n hex digits (either case) spelling d. */
bool afsum_hex_equal(const char *hex, size_t hex_len, const unsigned char *d, size_t n);

/* When generating: a name with '\\', '\n' or '\r' is escaped (coreutils >= 9.0). */
bool afsum_name_needs_escape(const char *name);

/* When checking: coreutils 9.1 escapes only names with a newline (9.2 and later
 * escape as when generating). */
bool afsum_check_name_needs_escape(const char *name);

/* Print name, as "\\\\", "\\n", "\\r" escapes if escape is set. */
void afsum_print_name(FILE *f, const char *name, bool escape);

/*
 * One output line: "HEX  NAME" ("HEX *NAME" if binary), or with tagged
 * "TAG (NAME) = HEX"; a leading backslash and escapes where the name needs
 * them, unless zero, which ends the line with NUL instead of newline.
 */
void afsum_print_sum(FILE *f, const char *tag, const unsigned char *d, size_t n,
		     const char *name, bool tagged, bool binary, bool zero);

/*
 * Quote a name for a message the way coreutils' quotef does in the C
 * locale (gnulib shell-escape quoting, ':' quoted too): plain names as
 * they are, others in '...' or "...", control and non-ASCII bytes as $'\ooo'.
 */
void afsum_quote(FILE *f, const char *name);

#endif
