// SPDX-License-Identifier: GPL-2.0
/* classify.c: a bisection step's verdict from its boots (see classify.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "err.h"
#include "strbuf.h"
#include "verdict.h"

void brun_init(struct brun *r)
{
	memset(r, 0, sizeof(*r));
}

void brun_free(struct brun *r)
{
	strv_free(&r->fails);
	free(r->panic);
	brun_init(r);
}

void bref_free(struct bref *ref)
{
	strv_free(&ref->fails);
	free(ref->panic);
	memset(ref, 0, sizeof(*ref));
}

const char *bverdict_name(enum bverdict v)
{
	return v == BV_GOOD ? "good" : v == BV_BAD ? "bad" : "skip";
}

char *brc_words(int rc)
{
	return xasprintf("exit %d (%s)", rc, verdict_words(rc, VERDICT_BRIEF, NULL, 0));
}

/* "a b c", or "none" */
static char *names(const struct strv *v)
{
	struct strbuf b = STRBUF_INIT;

	strbuf_reset(&b);
	for (size_t i = 0; i < v->n; i++) {
		if (i)
			strbuf_addc(&b, ' ');
		strbuf_adds(&b, v->v[i]);
	}
	if (!v->n)
		strbuf_adds(&b, "none");
	return b.s;
}

static int same_names(const struct strv *a, const struct strv *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]))
			return 0;
	return 1;
}

enum brun_kind brun_classify(const struct bref *ref, const struct brun *r, char **why)
{
	char *w = brc_words(r->rc), *got, *want;
	enum brun_kind k;

	if (ref->use_match) {
		/* a passing run that printed the text is still a pass: the bug makes it fail */
		if (r->rc == 0) {
			*why = xstrdup("passed");
			k = BRUN_PASS;
		} else if (r->matched) {
			*why = xasprintf("%s, --match found", w);
			k = BRUN_MATCH;
		} else {
			*why = xasprintf("%s, but --match not found: another failure", w);
			k = BRUN_OTHER;
		}
		free(w);
		return k;
	}
	if (r->rc == 0) {
		free(w);
		*why = xstrdup("passed");
		return BRUN_PASS;
	}
	if (r->rc != ref->rc) {
		char *rw = brc_words(ref->rc);

		*why = xasprintf("%s, the bad commit's was %s: another failure", w, rw);
		free(rw);
		free(w);
		return BRUN_OTHER;
	}
	if (ref->panic && (!r->panic || strcmp(r->panic, ref->panic))) {
		*why = xasprintf("%s, panicking '%s'; the bad commit's panic: '%s': another failure",
				 w, r->panic ? r->panic : "(its words not seen)", ref->panic);
		free(w);
		return BRUN_OTHER;
	}
	if (!ref->have_results) {
		*why = xasprintf("%s, as the bad commit's", w);
		free(w);
		return BRUN_MATCH;
	}
	got = names(&r->fails);
	want = names(&ref->fails);
	if (!r->have_results) {
		*why = xasprintf("%s, but no results to compare (the bad commit's failing tests: %s)",
				 w, want);
		k = BRUN_OTHER;
	} else if (same_names(&r->fails, &ref->fails)) {
		*why = xasprintf("%s, failing %s as the bad commit", w, got);
		k = BRUN_MATCH;
	} else {
		*why = xasprintf("%s, failing %s; the bad commit failed %s: another failure",
				 w, got, want);
		k = BRUN_OTHER;
	}
	free(got);
	free(want);
	free(w);
	return k;
}

void bstep_classify(const struct bref *ref, const struct brun *runs, size_t n,
		    const char *build_why, enum flaky_policy flaky, struct bstep *out)
{
	struct strbuf b = STRBUF_INIT;
	const char *how;

	memset(out, 0, sizeof(*out));
	if (build_why) {
		out->verdict = BV_SKIP;
		out->why = xasprintf("not built: %s", build_why);
		return;
	}
	out->runs = (unsigned int)n;
	strbuf_reset(&b);
	for (size_t i = 0; i < n; i++) {
		char *w;

		switch (brun_classify(ref, &runs[i], &w)) {
		case BRUN_PASS: out->pass++; break;
		case BRUN_MATCH: out->match++; break;
		case BRUN_OTHER: out->other++; break;
		}
		strbuf_adds(&b, i ? "; " : "");
		if (n > 1) {
			char *at = xasprintf("run %zu: ", i + 1);

			strbuf_adds(&b, at);
			free(at);
		}
		strbuf_adds(&b, w);
		free(w);
	}
	if (!n) {
		out->verdict = BV_SKIP;
		how = "no run";
	} else if (out->pass == n) {
		out->verdict = BV_GOOD;
		how = n > 1 ? "every run passed" : "passed";
	} else if (out->match == n) {
		out->verdict = BV_BAD;
		how = n > 1 ? "every run failed as the bad commit" : "failed as the bad commit";
	} else if (out->other == n) {
		out->verdict = BV_SKIP;
		how = "died another way than the bad commit";
	} else {
		/* the runs disagree; a policy can only pick a side some run showed */
		out->flaky = 1;
		if (flaky == FLAKY_FAIL && out->match) {
			out->verdict = BV_BAD;
			how = "flaky, counted bad (--flaky=fail)";
		} else if (flaky == FLAKY_PASS && out->pass) {
			out->verdict = BV_GOOD;
			how = "flaky, counted good (--flaky=pass)";
		} else {
			out->verdict = BV_SKIP;
			how = flaky == FLAKY_SKIP ? "flaky, skipped (--flaky=skip)" :
				"flaky, skipped (no run showed the side --flaky asks for)";
		}
	}
	if (out->flaky)
		out->why = xasprintf("%s: %u of %u runs failed (%u%%) [%s]", how, out->runs - out->pass, out->runs,
				     (out->runs - out->pass) * 100 / out->runs, b.s);
	else
		out->why = xasprintf("%s [%s]", how, b.s);
	strbuf_free(&b);
}

void bstep_free(struct bstep *s)
{
	free(s->why);
	memset(s, 0, sizeof(*s));
}

int bref_from_runs(struct bref *ref, const struct brun *runs, size_t n, int use_match,
		   char **err)
{
	memset(ref, 0, sizeof(*ref));
	ref->use_match = use_match;
	if (!n) {
		*err = xstrdup("it was not booted");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct brun *r = &runs[i];

		if (r->rc == 0) {
			*err = xasprintf("run %zu of %zu passed: the bad commit must fail every run "
					 "(a flaky failure: --runs 1 with --match, or bisect by hand)",
					 i + 1, n);
			return -1;
		}
		if (use_match && !r->matched) {
			char *w = brc_words(r->rc);

			*err = xasprintf("run %zu of %zu failed (%s) but --match found nothing in "
					 "its console or results", i + 1, n, w);
			free(w);
			return -1;
		}
		if (use_match)
			continue;
		if (i && (r->rc != runs[0].rc || !same_names(&r->fails, &runs[0].fails) ||
			  !runs[0].panic != !r->panic ||
			  (r->panic && strcmp(r->panic, runs[0].panic)))) {
			char *w0 = brc_words(runs[0].rc), *wi = brc_words(r->rc);
			char *n0 = names(&runs[0].fails), *ni = names(&r->fails);

			*err = xasprintf("its runs failed differently (run 1: %s, failing %s; run %zu: "
					 "%s, failing %s): say which failure is the bug with --match",
					 w0, n0, i + 1, wi, ni);
			free(w0);
			free(wi);
			free(n0);
			free(ni);
			return -1;
		}
	}
	ref->rc = runs[0].rc;
	ref->have_results = runs[0].have_results;
	strv_push_all(&ref->fails, &runs[0].fails);
	ref->panic = runs[0].panic ? xstrdup(runs[0].panic) : NULL;
	return 0;
}
