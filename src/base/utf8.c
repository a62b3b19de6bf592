// SPDX-License-Identifier: GPL-2.0
/* utf8.c: UTF-8 sequence validation (utf8.h). */
#include <string.h>

#include "err.h"
#include "utf8.h"

size_t utf8_len(const unsigned char *p)
{
	size_t n;
	unsigned int cp;

	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = p[0] & 0x1f;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = p[0] & 0x0f;
	} else if ((p[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

char *utf8_fix(const char *s)
{
	/* each bad byte (1) becomes three */
	char *out = xmalloc(strlen(s) * 3 + 1), *o = out;

	while (*s) {
		size_t n = utf8_len((const unsigned char *)s);

		if (!n) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			s++;
			continue;
		}
		memcpy(o, s, n);
		o += n;
		s += n;
	}
	*o = '\0';
	return out;
}
