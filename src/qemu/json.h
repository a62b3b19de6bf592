/* SPDX-License-Identifier: GPL-2.0 */
/* json.h: a strict JSON (RFC 8259) syntax check, for text handed to qemu. */
#ifndef RAPIDO_JSON_H
#define RAPIDO_JSON_H

#include <stddef.h>

enum json_type {
	JSON_OBJECT = 1,
	JSON_ARRAY,
	JSON_STRING,
	JSON_NUMBER,
	JSON_TRUE,
	JSON_FALSE,
	JSON_NULL,
};

/* Deeper nesting is refused: qemu's own parser stops at 1024 levels. */
#define JSON_MAX_DEPTH 256

struct json_error {
	size_t offset;			/* byte offset of the first wrong byte (len: at the end) */
	unsigned int line, column;	/* of that byte, from 1; the column counts bytes */
	char msg[160];			/* what was expected there, and what was found */
};

/*
 * Check that text (len bytes) is exactly one JSON value with optional
 * blanks around it: double-quoted strings of valid UTF-8 with no control
 * characters and only JSON escapes (surrogates paired), numbers without
 * leading zeros, no trailing commas, no comments, nothing after the value.
 * Returns the value's enum json_type, or -EINVAL with *err filled in.
 */
int json_check(const char *text, size_t len, struct json_error *err);

#endif
