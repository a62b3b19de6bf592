// SPDX-License-Identifier: GPL-2.0
/* outcome.c: the verdict vocabulary's words and --flaky's parser (see outcome.h). */
#include <errno.h>
#include <string.h>

#include "outcome.h"

static const char *const names[OUTCOME_N] = {
	[OUTCOME_NONE] = "absent", [OUTCOME_PASS] = "pass", [OUTCOME_FAIL] = "fail",
	[OUTCOME_KNOWN] = "known-fail", [OUTCOME_FIXED] = "fixed", [OUTCOME_FLAKY] = "flaky",
	[OUTCOME_SKIP] = "skip", [OUTCOME_ERROR] = "error",
};

const char *outcome_name(enum outcome o)
{
	return (unsigned int)o < OUTCOME_N ? names[o] : "absent";
}

int outcome_failing(enum outcome o)
{
	return o == OUTCOME_FAIL || o == OUTCOME_ERROR;
}

static const char *const policies[] = {
	[FLAKY_PASS] = "pass", [FLAKY_FAIL] = "fail", [FLAKY_SKIP] = "skip",
};

const char *flaky_name(enum flaky_policy p)
{
	return policies[p];
}

int flaky_parse(const char *s, unsigned int flags, enum flaky_policy *p)
{
	/* ./bisect's words before --flaky meant one thing everywhere */
	static const struct { const char *word; enum flaky_policy p; } aliases[] = {
		{ "good", FLAKY_PASS }, { "bad", FLAKY_FAIL },
	};

	for (int i = 0; i <= FLAKY_SKIP; i++) {
		if (strcmp(s, policies[i]))
			continue;
		if (i == FLAKY_SKIP && !(flags & FLAKY_BISECT))
			return -EINVAL;
		*p = (enum flaky_policy)i;
		return 0;
	}
	for (size_t i = 0; (flags & FLAKY_BISECT) && i < sizeof(aliases) / sizeof(*aliases); i++) {
		if (!strcmp(s, aliases[i].word)) {
			*p = aliases[i].p;
			return 1;
		}
	}
	return -EINVAL;
}
