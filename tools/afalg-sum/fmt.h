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

/*
 * When checking, a status line ("NAME: OK") escapes its name as the
 * coreutils that rapido-afalg-sum stands in for does (cuver.h asks it):
 * 9.3 and earlier only a name with a newline; 9.4 and later as when
 * generating (their NEWS: "cksum --check now ensures filenames with a
 * leading backslash character are escaped appropriately").
 */
enum afsum_check_escape {
	AFSUM_CHECK_ESC_ASK,		/* not asked yet (treated as ALL) */
	AFSUM_CHECK_ESC_NEWLINE,	/* coreutils 9.3 and earlier */
	AFSUM_CHECK_ESC_ALL,		/* 9.4 and later, and with no coreutils to ask */
};
bool afsum_check_name_needs_escape(const char *name, enum afsum_check_escape rule);

/* True if the two rules escape name differently (only then is coreutils asked). */
bool afsum_check_rules_differ(const char *name);

/*
 * The rule of the program whose --version's first line is line
 * ("sha256sum (GNU coreutils) 9.7"): ALL for NULL or a line that is not
 * GNU coreutils' (busybox, another implementation).
 */
enum afsum_check_escape afsum_check_escape_of(const char *line);

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
