// SPDX-License-Identifier: GPL-2.0
/*
 * outcome.c: fuzz the verdict vocabulary's parser (outcome.h). Properties:
 * --flaky takes pass and fail for ./vm, also skip for ./bisect, and the
 * old bisect words bad and good only for ./bisect, said to be aliases
 * (1) of fail and pass; anything else is -EINVAL with the policy untouched.
 */
#include <errno.h>

#include "fuzz.h"
#include "outcome.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size);
	for (unsigned int flags = 0; flags <= FLAKY_BISECT; flags++) {
		enum flaky_policy p = (enum flaky_policy)99;
		int rc = flaky_parse(s, flags, &p);

		if (rc == 0)
			fuzz_assert(!strcmp(flaky_name(p), s) && (p != FLAKY_SKIP || flags),
				    "--flaky=%s taken as %s", s, flaky_name(p));
		else if (rc == 1)
			fuzz_assert(flags && ((!strcmp(s, "bad") && p == FLAKY_FAIL) ||
					      (!strcmp(s, "good") && p == FLAKY_PASS)),
				    "--flaky=%s an alias of %s", s, flaky_name(p));
		else
			fuzz_assert(rc == -EINVAL && (int)p == 99, "--flaky=%s: %d", s, rc);
	}
	free(s);
	return 0;
}
