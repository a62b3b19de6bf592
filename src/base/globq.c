// SPDX-License-Identifier: GPL-2.0
/* globq.c: a literal path as glob(3) pattern text (globq.h). */
#include <string.h>

#include "err.h"
#include "globq.h"

char *glob_quote(const char *s)
{
	char *q = xmalloc(2 * strlen(s) + 1), *o = q;

	for (; *s; s++) {
		if (strchr("*?[\\", *s))
			*o++ = '\\';
		*o++ = *s;
	}
	*o = '\0';
	return q;
}
