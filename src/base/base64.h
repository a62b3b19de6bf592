/* SPDX-License-Identifier: GPL-2.0 */
/* base64.h: RFC 4648 base64, strict: the one alphabet, '=' padding, nothing else. */
#ifndef RAPIDO_BASE64_H
#define RAPIDO_BASE64_H

#include <stddef.h>
#include <sys/types.h>

/* Characters base64_encode() writes for len bytes (no NUL). */
#define BASE64_LEN(len) (((len) + 2) / 3 * 4)

/* Encode len bytes into out (BASE64_LEN(len) + 1 bytes, NUL-terminated); returns the length. */
size_t base64_encode(char *out, const void *in, size_t len);

/*
 * Decode len characters into out (at least len / 4 * 3 bytes); returns the
 * bytes decoded, or -1 if in is not canonical base64: a length that is not
 * a multiple of 4, a character outside the alphabet, '=' anywhere but at
 * the end, or padding bits that are not zero (so one text has one meaning).
 */
ssize_t base64_decode(void *out, const char *in, size_t len);

#endif
