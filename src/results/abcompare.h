/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abcompare.h: two runs compared test by test, the one way for ./vm
 * --compare-results and ./bisect --compare. A run is its tests' outcomes
 * (outcome.h) by name: results.txt classified as ./vm does without known
 * failures (re-runs folded: flaky when they both failed and passed), the
 * runs of one name folded the same way, a tolerated kernel report left
 * out, a counted one named by its first line with the numbers taken out
 * (PIDs, addresses and offsets differ from run to run).
 *
 * B regressed where a test that did not fail (fail, error) in A fails in
 * B (a new failure; a new test that fails), a test of A is gone from B
 * (vanished), or B's run failed where A's passed. Fixes, newly flaky
 * tests and new passing tests are changes that fail nothing.
 */
#ifndef RAPIDO_RESULTS_ABCOMPARE_H
#define RAPIDO_RESULTS_ABCOMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "outcome.h"
#include "results.h"
#include "strv.h"

struct abentry {
	char *name;
	enum outcome v;
	char *reason;		/* the first failure's reason, else NULL */
};

/* One run's outcomes, sorted by name, each name once. */
struct abrun {
	struct abentry *e;
	size_t n;
	int exit;		/* the run's exit status, -1 unknown */
	char *cause;		/* its cause in words, NULL if none */
};

/* What changed for one test from A to B. */
enum abkind {
	AB_VANISHED, AB_NEW_TEST_FAILS, AB_APPEARED, AB_NEW_FAILURE, AB_FIXED, AB_NEWLY_FLAKY,
	AB_CHANGED,
};
struct abchange {
	enum abkind kind;
	const struct abentry *a, *b;	/* NULL: absent from that run */
	int regress;
};

/* The outcomes of s (classified or not) into r. */
void abrun_of_suite(struct abrun *r, const struct rsuite *s);
/* path (a results.txt) read and classified into r: 0, or -errno with *err (malloc'd). */
int abrun_load(struct abrun *r, const char *path, char **err);
void abrun_free(struct abrun *r);

/* Each test whose outcome differs from a to b, by name: *out (malloc'd), how many. */
size_t ab_changes(const struct abrun *a, const struct abrun *b, struct abchange **out);
/* "new failure", "fixed"...: how ./vm --compare-results names a change. */
const char *ab_kind_name(enum abkind k);
/*
 * Every change printed to out ("KIND: NAME: A -> B[: REASON]"), a failed
 * run, and a closing count; returns how many changes regressed.
 */
unsigned int ab_compare(const struct abrun *a, const struct abrun *b, FILE *out);

/*
 * ./bisect --compare also compares profiles without test records: a run
 * without tests has the one test AB_EXIT, whose state is "exit N".
 */
#define AB_EXIT "exit status"
/* NAME's state in r in words: an outcome's name, or AB_EXIT's "exit N" (in buf). */
const char *abrun_word(const struct abrun *r, const char *name, char *buf, size_t len);
/* The names (sorted) whose state differs from a to b: ab_changes's, and AB_EXIT. */
void ab_differs(const struct abrun *a, const struct abrun *b, struct strv *out);
/*
 * 1 when NAME had one state in each of as[0..na) and another in each of
 * bs[0..nb); sa and sb (len bytes each) then say them. 0 when it did not
 * hold; *why (malloc'd) says which side was unsteady, or that they agreed.
 */
int ab_holds(const char *name, const struct abrun *as, size_t na, const struct abrun *bs,
	     size_t nb, char *sa, char *sb, size_t len, char **why);

#endif
