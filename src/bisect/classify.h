/* SPDX-License-Identifier: GPL-2.0 */
/*
 * classify.h: what one bisection step's boots say about its commit. A run
 * is a pass, the bad commit's failure (the same ./vm exit status and, with
 * --results, the same failing test names; or --match), or another failure
 * (another status, other tests, a panic or timeout the bad commit did not
 * show, a panic that says another thing than the bad commit's): that one says nothing about the bug being bisected. A step is
 * good when every run passed, bad when every run failed the bad commit's
 * way, skip when its build failed or its runs failed only other ways, and
 * flaky when the runs disagree: --flaky=fail|skip|pass decides (default
 * skip; outcome.h's one meaning of --flaky: fail counts it bad, pass good).
 * Pure: fed statuses and test names, so unit tests cover it all.
 */
#ifndef RAPIDO_BISECT_CLASSIFY_H
#define RAPIDO_BISECT_CLASSIFY_H

#include <stddef.h>

#include "outcome.h"
#include "strv.h"

/* What one boot of a commit showed. */
struct brun {
	int rc;			/* ./vm's exit status */
	int have_results;	/* --results: fails is the run's failing tests */
	struct strv fails;	/* failing test names (outcome_failing()), sorted */
	int matched;		/* --match: the regex matched its console or results */
	char *panic;		/* what "Kernel panic - not syncing: " said, or NULL */
};

/* The bad commit's failure, which a bad step must show. */
struct bref {
	int use_match;		/* --match given: a run is bad when it matched */
	int rc;
	int have_results;
	struct strv fails;	/* sorted */
	char *panic;		/* its panic's words, or NULL: another panic is another failure */
};

enum brun_kind { BRUN_PASS, BRUN_MATCH, BRUN_OTHER };

/* git bisect's words for a step: a pass is good, a failure the bad commit's is bad */
enum bverdict { BV_GOOD, BV_BAD, BV_SKIP };

struct bstep {
	enum bverdict verdict;
	int flaky;		/* the runs disagreed (verdict then from --flaky) */
	unsigned int runs, pass, match, other;
	char *why;		/* malloc'd, one line */
};

void brun_init(struct brun *r);
void brun_free(struct brun *r);
void bref_free(struct bref *ref);

/* A run against the bad commit's failure; *why (malloc'd) says why, in words. */
enum brun_kind brun_classify(const struct bref *ref, const struct brun *r, char **why);

/*
 * The step's verdict from its n runs (n may be 0 only when build_failed);
 * build_failed: the build (or configure, or cut) failed, build_why says
 * how. out->why names each run that decided.
 */
void bstep_classify(const struct bref *ref, const struct brun *runs, size_t n,
		    const char *build_why, enum flaky_policy flaky, struct bstep *out);
void bstep_free(struct bstep *s);

/*
 * The reference from the bad commit's n runs: each must have failed, all
 * the same way (status and failing tests), or with use_match each must
 * have matched. 0, or -1 with *err (malloc'd) saying why it cannot serve.
 */
int bref_from_runs(struct bref *ref, const struct brun *runs, size_t n, int use_match,
		   char **err);

const char *bverdict_name(enum bverdict v);
/* "exit N (what ./vm means by it)", malloc'd. */
char *brc_words(int rc);

#endif
