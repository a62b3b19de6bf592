/* SPDX-License-Identifier: GPL-2.0 */
/* hex.h: hexadecimal digits. */
#ifndef RAPIDO_HEX_H
#define RAPIDO_HEX_H

#include <stddef.h>

/* Value of a hex digit (either case), or -1. */
int hex_digit(char c);
/* Are s[0..len) all lowercase hex digits (the form nonces and CRCs are written in)? */
int hex_is_lower(const char *s, size_t len);

#endif
