// SPDX-License-Identifier: GPL-2.0
/* lib-num.c: unit tests for the one strict number parser (num_parse*). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "num.h"
#include "tap.h"

static void good(const char *s, uint64_t min, uint64_t max, uint64_t want)
{
	uint64_t v = 0;
	int rc = num_parse(s, min, max, &v, NULL);

	tap_ok(rc == 0 && v == want, "num_parse(\"%s\", %llu..%llu) = %llu (rc %d, got %llu)", s,
	       (unsigned long long)min, (unsigned long long)max, (unsigned long long)want, rc,
	       (unsigned long long)v);
}

static void bad(const char *s, uint64_t min, uint64_t max, int want)
{
	char why[NUM_WHY_LEN] = "";
	uint64_t v = 7;
	int rc = num_parse(s, min, max, &v, why);

	tap_ok(rc == want && v == 7 && strstr(why, "expected a number from") && strstr(why, s),
	       "num_parse(\"%s\", %llu..%llu) = %d, *out untouched, why: %s", s,
	       (unsigned long long)min, (unsigned long long)max, want, why);
}

int main(void)
{
	char why[NUM_WHY_LEN];
	unsigned int u = 0, port = 0;
	uint64_t v = 0;
	char *host = NULL;

	tap_plan(26);
	good("0", 0, 10, 0);
	good("10", 0, 10, 10);
	good("007", 0, 10, 7);
	good("18446744073709551615", 0, UINT64_MAX, UINT64_MAX);
	/* each of these strtoul() takes, and some caller once did */
	bad("", 0, 10, -EINVAL);
	bad(" 1", 0, 10, -EINVAL);
	bad("+1", 0, 10, -EINVAL);
	bad("-1", 0, 10, -EINVAL);
	bad("1 ", 0, 10, -EINVAL);
	bad("0x1", 0, 10, -EINVAL);
	bad("1k", 0, 10, -EINVAL);
	bad("11", 0, 10, -ERANGE);
	bad("0", 1, 10, -ERANGE);
	bad("18446744073709551616", 0, UINT64_MAX, -ERANGE);

	TAP_EQ_INT(num_parse(NULL, 0, 1, &v, NULL), -EINVAL, "NULL is not a number, no crash");
	tap_ok(num_parse_base("deadBEEF", 16, 0, UINT32_MAX, &v, NULL) == 0 && v == 0xdeadbeef,
	       "base 16 takes either case");
	TAP_EQ_INT(num_parse_base("0xdead", 16, 0, UINT32_MAX, &v, why), -EINVAL,
		   "base 16: no 0x prefix (the caller strips its own)");
	tap_ok(strstr(why, "hexadecimal") != NULL, "base 16 says hexadecimal: %s", why);
	TAP_EQ_INT(num_parse_base("100000000", 16, 0, UINT32_MAX, &v, NULL), -ERANGE,
		   "base 16 range");

	tap_ok(num_parse_uint("1024", 1, 1024, &u, NULL) == 0 && u == 1024, "uint at its max");
	TAP_EQ_INT(num_parse_uint("4294967296", 0, 4294967295u, &u, NULL), -ERANGE,
		   "uint: 2^32 does not wrap to 0");

	tap_ok(num_parse_hostport("127.0.0.1:1234", &host, &port, NULL) == 0 &&
	       !strcmp(host, "127.0.0.1") && port == 1234, "HOST:PORT split");
	free(host);
	host = NULL;
	tap_ok(num_parse_hostport("::1:80", &host, &port, NULL) == 0 && !strcmp(host, "::1") &&
	       port == 80, "the last colon splits");
	free(host);
	host = NULL;
	TAP_EQ_INT(num_parse_hostport(":80", &host, &port, why), -EINVAL, "empty host refused");
	TAP_EQ_INT(num_parse_hostport("h:0", &host, &port, why), -EINVAL, "port 0 refused");
	tap_ok(host == NULL && strstr(why, "port from 1 to 65535") && strstr(why, "h:0"),
	       "port error names the range and the value: %s", why);
	return tap_done();
}
