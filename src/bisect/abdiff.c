// SPDX-License-Identifier: GPL-2.0
/* abdiff.c: per-test differences of two kernels and whether they hold (abdiff.h). */
#include <stdlib.h>
#include <string.h>

#include "abdiff.h"
#include "err.h"

void abrun_add(struct abrun *r, const char *name, const char *state)
{
	strv_push(&r->name, name);
	strv_push(&r->state, state);
}

void abrun_free(struct abrun *r)
{
	strv_free(&r->name);
	strv_free(&r->state);
}

const char *abrun_state(const struct abrun *r, const char *name)
{
	/* the last record of a name counts, as a re-run test's would */
	for (size_t i = r->name.n; i-- > 0;)
		if (!strcmp(r->name.v[i], name))
			return r->state.v[i];
	return "absent";
}

static void add_if_differs(const struct abrun *a, const struct abrun *b, const char *name,
			   struct strv *out)
{
	if (strcmp(abrun_state(a, name), abrun_state(b, name)) && !strv_contains(out, name))
		strv_push(out, name);
}

void ab_differs(const struct abrun *a, const struct abrun *b, struct strv *out)
{
	for (size_t i = 0; i < a->name.n; i++)
		add_if_differs(a, b, a->name.v[i], out);
	for (size_t i = 0; i < b->name.n; i++)
		add_if_differs(a, b, b->name.v[i], out);
	strv_sort(out);
}

/* the one state NAME had in every run, or NULL */
static const char *steady(const char *name, const struct abrun *rs, size_t n)
{
	const char *s = n ? abrun_state(&rs[0], name) : NULL;

	for (size_t i = 1; i < n; i++)
		if (strcmp(abrun_state(&rs[i], name), s))
			return NULL;
	return s;
}

int ab_holds(const char *name, const struct abrun *as, size_t na, const struct abrun *bs,
	     size_t nb, const char **sa, const char **sb, char **why)
{
	*sa = steady(name, as, na);
	*sb = steady(name, bs, nb);
	*why = NULL;
	if (!*sa || !*sb) {
		*why = xasprintf("%s varied over %zu runs of %s", name, !*sa ? na : nb,
				 !*sa ? "A" : "B");
		return 0;
	}
	if (!strcmp(*sa, *sb)) {
		*why = xasprintf("%s: %s on both over the re-runs", name, *sa);
		return 0;
	}
	return 1;
}
