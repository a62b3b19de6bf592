// SPDX-License-Identifier: GPL-2.0
/* size.c: size parsing with binary suffixes, strict about junk and overflow. */
#include <ctype.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "size.h"

int parse_size(const char *s, uint64_t *out)
{
	static const char units[] = "KMGTP";
	unsigned long long v;
	const char *p;
	char *end;
	int shift = 0;

	if (!s || !*s)
		return -EINVAL;
	for (p = s; *p; p++)
		if (!isdigit((unsigned char)*p))
			break;
	if (p == s)	/* no leading digit: "", "-1", " 1", "K" */
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end) {
		const char *u = strchr(units, toupper((unsigned char)*end));

		if (!u)
			return -EINVAL;
		shift = 10 * (int)(u - units + 1);
		end++;
		if (!strcasecmp(end, "iB") || !strcasecmp(end, "B"))
			end += strlen(end);
		if (*end)
			return -EINVAL;
	}
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = (uint64_t)v << shift;
	return 0;
}

void size_format(uint64_t n, char *buf, size_t len)
{
	static const char units[] = "TGMK";

	for (int i = 0; i < 4; i++) {
		unsigned int shift = 40 - 10 * (unsigned int)i;

		if (n >= 1ULL << shift && !(n & ((1ULL << shift) - 1))) {
			snprintf(buf, len, "%llu%c", (unsigned long long)(n >> shift), units[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)n);
}
