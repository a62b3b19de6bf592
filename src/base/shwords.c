// SPDX-License-Identifier: GPL-2.0
/* shwords.c: QEMU_EXTRA_ARGS-style splitting with real quoting rules. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "shwords.h"

int shwords_split(const char *s, struct strv *out, char **err)
{
	size_t len = strlen(s);
	char *word = xmalloc(len + 1);
	size_t n = 0;
	int in_word = 0;

	*err = NULL;
	while (*s) {
		char ch = *s;

		if (ch == ' ' || ch == '\t' || ch == '\n') {
			if (in_word) {
				word[n] = '\0';
				strv_push(out, word);
				n = 0;
				in_word = 0;
			}
			s++;
			continue;
		}
		in_word = 1;
		if (ch == '\'') {
			const char *end = strchr(s + 1, '\'');

			if (!end) {
				*err = xasprintf("unterminated single quote in \"%s\"", s);
				goto fail;
			}
			memcpy(word + n, s + 1, (size_t)(end - s - 1));
			n += (size_t)(end - s - 1);
			s = end + 1;
		} else if (ch == '"') {
			const char *start = s;

			for (s++;; s++) {
				if (!*s) {
					*err = xasprintf("unterminated double quote in \"%s\"", start);
					goto fail;
				}
				if (*s == '"')
					break;
				if (*s == '\\' && s[1] && strchr("\"\\$`", s[1]))
					s++;
				word[n++] = *s;
			}
			s++;
		} else if (ch == '\\') {
			if (!s[1]) {
				*err = xstrdup("trailing backslash");
				goto fail;
			}
			word[n++] = s[1];
			s += 2;
		} else {
			word[n++] = ch;
			s++;
		}
	}
	if (in_word) {
		word[n] = '\0';
		strv_push(out, word);
	}
	free(word);
	return 0;
fail:
	free(word);
	return -EINVAL;
}
