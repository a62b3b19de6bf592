// SPDX-License-Identifier: GPL-2.0
/* qopt.c: qemu option values escape ',' as ",," (qopt.h). */
#include <stdlib.h>

#include "err.h"
#include "qopt.h"

char *qopt(const char *s)
{
	size_t n = 0;
	char *out, *p;

	for (const char *q = s; *q; q++)
		n += *q == ',' ? 2 : 1;
	out = p = xmalloc(n + 1);
	for (; *s; s++) {
		*p++ = *s;
		if (*s == ',')
			*p++ = ',';
	}
	*p = '\0';
	return out;
}
