/* SPDX-License-Identifier: GPL-2.0 */
/* shwords.h: split a string into words with shell-like quoting, no expansion. */
#ifndef RAPIDO_SHWORDS_H
#define RAPIDO_SHWORDS_H

#include "strv.h"

/*
 * Split s on unquoted blanks into out. '...' is literal; "..." honours
 * \" \\ \$ \`; a backslash outside quotes escapes the next character.
 * Nothing is expanded: $ and ` are plain characters. Returns 0, or -EINVAL
 * with *err naming the problem (unterminated quote, trailing backslash).
 */
int shwords_split(const char *s, struct strv *out, char **err);

#endif
