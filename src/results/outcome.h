/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outcome.h: the one verdict vocabulary of ./vm, its merge and compare and
 * ./bisect: what a test ended as (pass, fail, known-fail, fixed, flaky,
 * skip, error), the words for it, and the one meaning
 * of --flaky=pass|fail (what a flaky test, or a bisection step whose runs
 * disagree, counts as; ./bisect may also leave such a step skipped).
 */
#ifndef RAPIDO_RESULTS_OUTCOME_H
#define RAPIDO_RESULTS_OUTCOME_H

/*
 * What a test ended as once known failures and re-runs are counted
 * (known.h); OUTCOME_NONE: not classified yet (compare: absent).
 */
enum outcome {
	OUTCOME_NONE,
	OUTCOME_PASS,
	OUTCOME_FAIL,		/* a new failure */
	OUTCOME_KNOWN,		/* a failure a known-failure entry names */
	OUTCOME_FIXED,		/* a known failure that passed */
	OUTCOME_FLAKY,		/* its re-runs both failed and passed */
	OUTCOME_SKIP,
	OUTCOME_ERROR,		/* it gave no verdict: never finished, not run */
	OUTCOME_N
};

/* "pass", "fail", "known-fail", "fixed", "flaky", "skip", "error"; "absent" for NONE. */
const char *outcome_name(enum outcome o);
/* A failure nothing excuses: fail or error. */
int outcome_failing(enum outcome o);

/* --flaky=: what a flaky test or step counts as. */
enum flaky_policy { FLAKY_PASS, FLAKY_FAIL, FLAKY_SKIP };
/* flaky_parse flags: ./bisect's step may also stay a skip, and its old words are aliases. */
#define FLAKY_BISECT 1u
/*
 * s as a --flaky= policy: "pass" or "fail" (with FLAKY_BISECT also "skip",
 * and the deprecated "good" for pass and "bad" for fail). 0, 1 when s was
 * a deprecated alias (the caller says so, naming flaky_name(*p)), or
 * -EINVAL.
 */
int flaky_parse(const char *s, unsigned int flags, enum flaky_policy *p);
const char *flaky_name(enum flaky_policy p);

#endif
