/* SPDX-License-Identifier: GPL-2.0 */
/* utf8.h: which bytes are UTF-8 that XML and JSON readers take (junit.c, run.json). */
#ifndef RAPIDO_UTF8_H
#define RAPIDO_UTF8_H

#include <stddef.h>

/*
 * Length of the valid UTF-8 sequence at p (1..4), 0 if invalid: overlong
 * forms, surrogates, code points beyond Unicode and U+FFFE/U+FFFF are not
 * (XML refuses them; JSON readers differ, so ./vm writes none).
 */
size_t utf8_len(const unsigned char *p);
/*
 * s with each byte that starts no valid sequence replaced by U+FFFD
 * (malloc'd): a path's raw bytes, which JSON has no way to say.
 */
char *utf8_fix(const char *s);

#endif
