// SPDX-License-Identifier: GPL-2.0
/* num.c: strict unsigned number parsing with a range and a reason. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"

static int digit_ok(int c, int base)
{
	return base == 16 ? isxdigit(c) : isdigit(c);
}

static int fail(int rc, char *why, const char *s, int base, uint64_t min, uint64_t max)
{
	if (!why)
		return rc;
	if (base == 16)
		snprintf(why, NUM_WHY_LEN, "expected a hexadecimal number from %llx to %llx, got '%.64s'",
			 (unsigned long long)min, (unsigned long long)max, s);
	else
		snprintf(why, NUM_WHY_LEN, "expected a number from %llu to %llu, got '%.64s'",
			 (unsigned long long)min, (unsigned long long)max, s);
	return rc;
}

int num_parse_base(const char *s, int base, uint64_t min, uint64_t max, uint64_t *out,
		   char *why)
{
	unsigned long long v;
	const char *p;
	char *end;

	if (!s)
		s = "";
	for (p = s; *p; p++)
		if (!digit_ok((unsigned char)*p, base))
			return fail(-EINVAL, why, s, base, min, max);
	if (p == s)
		return fail(-EINVAL, why, s, base, min, max);
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE || v < min || v > max)
		return fail(-ERANGE, why, s, base, min, max);
	*out = v;
	return 0;
}

int num_parse_uint(const char *s, unsigned int min, unsigned int max, unsigned int *out,
		   char *why)
{
	uint64_t v;
	int rc = num_parse(s, min, max, &v, why);

	if (!rc)
		*out = (unsigned int)v;
	return rc;
}

int num_parse_hostport(const char *s, char **host, unsigned int *port, char *why)
{
	const char *colon = strrchr(s, ':');

	if (!colon || colon == s) {
		if (why)
			snprintf(why, NUM_WHY_LEN, "expected HOST:PORT such as 127.0.0.1:1234, got '%.64s'", s);
		return -EINVAL;
	}
	if (num_parse_uint(colon + 1, 1, 65535, port, NULL)) {
		if (why)
			snprintf(why, NUM_WHY_LEN, "expected HOST:PORT with a port from 1 to 65535, got '%.64s'", s);
		return -EINVAL;
	}
	*host = xstrndup(s, (size_t)(colon - s));
	return 0;
}

int num_parse_shard(const char *s, unsigned int *i, unsigned int *n, char *why)
{
	size_t len = strcspn(s, "/");
	char *a = xstrndup(s, len);
	int bad = !s[len] || num_parse_uint(a, 1, NUM_SHARD_MAX, i, NULL) ||
		  num_parse_uint(s + len + 1, *i, NUM_SHARD_MAX, n, NULL);

	free(a);
	if (!bad)
		return 0;
	if (why)
		snprintf(why, NUM_WHY_LEN, "expected I/N with 1 <= I <= N <= %u, such as 2/4, "
			 "got '%.64s'", NUM_SHARD_MAX, s);
	return -EINVAL;
}

int num_shard_check(const char *s, char **err)
{
	char why[NUM_WHY_LEN];
	unsigned int i, n;

	*err = NULL;
	if (!num_parse_shard(s, &i, &n, why))
		return 0;
	*err = xstrdup(why);
	return -EINVAL;
}
