/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abdiff.h: per-test verdicts of two kernels (./bisect --compare), and
 * which differences hold over re-runs. A run's verdicts are NAME -> STATE
 * ("pass", "fail", "skip"; a run without results has the one test "exit
 * status" whose state is "exit N"). A difference holds when every run of
 * A gave the test one state, every run of B another.
 */
#ifndef RAPIDO_BISECT_ABDIFF_H
#define RAPIDO_BISECT_ABDIFF_H

#include <stddef.h>

#include "strv.h"

struct abrun {
	struct strv name, state;	/* parallel */
};

void abrun_add(struct abrun *r, const char *name, const char *state);
void abrun_free(struct abrun *r);
/* NAME's state in r, "absent" when it has none. */
const char *abrun_state(const struct abrun *r, const char *name);
/* The names (sorted, each once) whose state differs between a and b, into out. */
void ab_differs(const struct abrun *a, const struct abrun *b, struct strv *out);
/*
 * 1 when NAME had one state in each of as[0..na) and another in each of
 * bs[0..nb); *sa and *sb then point to them. 0 when it did not hold; *why
 * (malloc'd) says which side was unsteady.
 */
int ab_holds(const char *name, const struct abrun *as, size_t na, const struct abrun *bs,
	     size_t nb, const char **sa, const char **sb, char **why);

#endif
