// SPDX-License-Identifier: GPL-2.0
/* lib-size.c: unit tests for parse_size(). */
#include <errno.h>
#include <stdint.h>

#include "size.h"
#include "tap.h"

static void good(const char *s, uint64_t want)
{
	uint64_t v = 0;
	int rc = parse_size(s, &v);

	tap_ok(rc == 0 && v == want, "parse_size(\"%s\") = %llu (rc %d, got %llu)", s,
	       (unsigned long long)want, rc, (unsigned long long)v);
}

static void bad(const char *s, int want)
{
	uint64_t v = 0;

	TAP_EQ_INT(parse_size(s, &v), want, "parse_size(\"%s\") rejected", s);
}

int main(void)
{
	tap_plan(17);
	good("0", 0);
	good("512", 512);
	good("4K", 4096);
	good("4k", 4096);
	good("1G", 1ULL << 30);
	good("2GiB", 2ULL << 30);
	good("3MB", 3ULL << 20);
	good("1T", 1ULL << 40);
	bad("", -EINVAL);
	bad("-1", -EINVAL);
	bad(" 1", -EINVAL);
	bad("1X", -EINVAL);
	bad("1Gx", -EINVAL);
	bad("G", -EINVAL);
	bad("99999999999999999999", -ERANGE);
	bad("17179869184G", -ERANGE);
	bad("1.5G", -EINVAL);
	return tap_done();
}
