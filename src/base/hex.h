/* SPDX-License-Identifier: GPL-2.0 */
/* hex.h: hexadecimal digits. */
#ifndef RAPIDO_HEX_H
#define RAPIDO_HEX_H

#include <stddef.h>
#include <stdint.h>

/* Value of a hex digit (either case), or -1. */
int hex_digit(char c);
/* Are s[0..len) all lowercase hex digits (the form nonces and CRCs are written in)? */
int hex_is_lower(const char *s, size_t len);
/* in[0..len) as lowercase hex in out (2 * len + 1 bytes, NUL-terminated). */
void hex_encode(const uint8_t *in, size_t len, char *out);
/* The hex string (either case) as bytes, at most max: 0, -EINVAL (odd length, not hex), -ENOSPC. */
int hex_decode(const char *hex, uint8_t *out, size_t max, size_t *len);

#endif
