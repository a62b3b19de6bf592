// SPDX-License-Identifier: GPL-2.0
/*
 * knownrun.c: a run's tests classified against the known failures and
 * their re-runs (known.h): pass, fail (new), known-fail, fixed, flaky,
 * skip or error, and the exit status that follows. Only a status that
 * failed tests alone made is ever lowered, and only when every failure is
 * accounted for: a failure no entry names, a test that did not finish, a
 * kernel report and ./vm's own testcases always fail the run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "err.h"
#include "known.h"

/* A test that never ended (the VM died, a timeout) or never ran: an error, never known. */
static int is_error(const struct rtest *t)
{
	/* t->error: the test watchdog's and the not-run tests' records (R1 error) */
	return t->state == RT_FAIL && (t->error || (t->reason &&
	       (!strncmp(t->reason, "did not finish", 14) || !strncmp(t->reason, "not run", 7))));
}

/* A kernel report or ./vm's own testcase: no entry may excuse it. */
static int is_own(const struct rtest *t)
{
	return t->kernel || !strncmp(t->name, "rapido:", 7);
}

static const struct rsuite *sort_suite;

static int idx_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sort_suite->t[x].name, sort_suite->t[y].name);

	return c ? c : (x > y) - (x < y);
}

/* The runs of each name folded into its last: runs, fails; the others hidden. */
static void fold_runs(struct rsuite *s)
{
	size_t *idx = xmalloc((s->n ? s->n : 1) * sizeof(*idx)), k = 0;

	for (size_t i = 0; i < s->n; i++)
		if (!s->t[i].kernel)
			idx[k++] = i;
		else
			s->t[i].runs = 1, s->t[i].fails = s->t[i].state == RT_FAIL;
	sort_suite = s;
	qsort(idx, k, sizeof(*idx), idx_cmp);
	for (size_t a = 0; a < k;) {
		size_t b = a;
		unsigned int fails = 0, passes = 0, splat_runs = 0;
		struct rtest *last;

		for (; b < k && !strcmp(s->t[idx[a]].name, s->t[idx[b]].name); b++) {
			fails += s->t[idx[b]].state == RT_FAIL;
			passes += s->t[idx[b]].state == RT_PASS;
			splat_runs += s->t[idx[b]].splats > 0;
		}
		last = &s->t[idx[b - 1]];
		for (size_t j = a; j + 1 < b; j++)
			s->t[idx[j]].hidden = 1;
		/* a skipped run is no run: only a pass makes a failed test flaky */
		last->runs = b - a > 1 ? fails + passes : 1;
		last->fails = fails;
		last->splat_runs = splat_runs;
		a = b;
	}
	free(idx);
}

/* The entry for t: the first one in force, else the first expired one; NULL if none. */
static const struct known_entry *entry_for(const struct known_opts *o, const struct rsuite *s,
					   const struct rtest *t, int *expired)
{
	const struct known_entry *old = NULL;

	*expired = 0;
	for (size_t i = 0; i < o->set.n; i++) {
		const struct known_entry *e = &o->set.v[i];

		if (!known_entry_matches(e, t->name, s->kernel))
			continue;
		if (e->until < 0 || o->today <= e->until)
			return e;
		if (!old)
			old = e;
	}
	*expired = !!old;
	return old;
}

/* t's output with note first (malloc'd output replaced). */
static void output_note(struct rtest *t, const char *note)
{
	char *o = t->output ? xasprintf("%s\n%s", note, t->output) : xstrdup(note);

	free(t->output);
	t->output = o;
}

static void set_reason(struct rtest *t, char *reason)
{
	free(t->reason);
	t->reason = reason;
}

static void mark_known(struct rtest *t, const struct known_entry *e, const char *flaky)
{
	char *where = known_where(e), *note;

	note = xasprintf("known failure (%s)%s%s: failed: %s", where, flaky ? ", " : "",
			 flaky ? flaky : "", t->reason ? t->reason : "failed");
	output_note(t, note);
	free(note);
	t->cls = OUTCOME_KNOWN;
	t->state = RT_SKIP;
	t->known = xstrdup(e->reason ? e->reason : where);
	t->known_at = where;
	set_reason(t, xasprintf("known failure: %s", t->known));
}

/*
 * A kernel report made while t ran (R1 splat) failed it: the kernel's
 * failure, not the test's, so no known-failure entry (e, the one that
 * would apply) and no pass on a re-run excuses it; only --splats-allow
 * does, before the report reaches the test (splattest.c).
 */
static void kernel_failed(struct rtest *t, const struct known_entry *e)
{
	char *where, *note;

	t->cls = OUTCOME_FAIL;
	if (t->state != RT_FAIL) {
		set_reason(t, xasprintf("a kernel report failed %u of its %u runs, then it %s",
					t->splat_runs, t->runs, t->state == RT_SKIP ? "skipped" : "passed"));
		t->state = RT_FAIL;
	}
	if (!e)
		return;
	where = known_where(e);
	note = xasprintf("the known failure %s does not excuse a kernel report made while the "
			 "test ran: only --splats-allow does", where);
	output_note(t, note);
	set_reason(t, xasprintf("%s (%s)", t->reason ? t->reason : "failed", note));
	free(note);
	free(where);
}

static void classify_one(struct rsuite *s, struct rtest *t, const struct known_opts *o)
{
	const struct known_entry *e = NULL;
	int expired = 0, flaky = t->fails && t->fails < t->runs;
	char *rate = NULL, date[16];

	if (t->kernel || is_own(t)) {
		t->cls = t->state == RT_FAIL ? OUTCOME_FAIL : t->state == RT_SKIP ? OUTCOME_SKIP : OUTCOME_PASS;
		return;
	}
	if (is_error(t)) {
		t->cls = OUTCOME_ERROR;
		return;
	}
	if (t->state == RT_SKIP && !t->fails) {
		t->cls = OUTCOME_SKIP;
		return;
	}
	e = entry_for(o, s, t, &expired);
	if (t->splat_runs) {
		kernel_failed(t, e && !expired ? e : NULL);
		return;
	}
	if (flaky) {
		rate = xasprintf("flaky: %u failure%s in %u runs", t->fails, t->fails == 1 ? "" : "s",
				 t->runs);
		if (e && !expired) {
			/* the entry covers its failures, whichever run passed */
			if (t->state == RT_PASS)
				set_reason(t, xstrdup("passed on a re-run"));
			mark_known(t, e, rate);
		} else {
			output_note(t, rate);
			t->cls = OUTCOME_FLAKY;
			if (o->flaky == FLAKY_FAIL) {
				t->state = RT_FAIL;
				set_reason(t, xasprintf("%s (--flaky=fail)", rate));
			} else {
				t->state = RT_PASS;
			}
		}
		free(rate);
		return;
	}
	if (t->state == RT_PASS) {
		t->cls = OUTCOME_PASS;
		if (!e || expired)
			return;
		t->cls = OUTCOME_FIXED;
		t->known_at = known_where(e);
		t->known = xstrdup(e->reason ? e->reason : t->known_at);
		rate = xasprintf("fixed: the known failure %s (%s) passed", t->known_at, t->known);
		output_note(t, rate);
		if (o->strict) {
			t->state = RT_FAIL;
			set_reason(t, xasprintf("%s (--strict)", rate));
		}
		free(rate);
		return;
	}
	/* failed in every run (a re-run that skipped does not undo it) */
	t->cls = OUTCOME_FAIL;
	if (t->state != RT_FAIL) {
		t->state = RT_FAIL;
		set_reason(t, xasprintf("failed, then skipped on a re-run: %s",
					t->reason ? t->reason : "skipped"));
	}
	if (!e)
		return;
	if (!expired) {
		mark_known(t, e, NULL);
		return;
	}
	known_date_str(e->until, date, sizeof(date));
	set_reason(t, xasprintf("the known failure %s:%u expired on %s (%s): %s", e->file, e->line,
				date, e->reason ? e->reason : "no reason given",
				t->reason ? t->reason : "failed"));
}

static unsigned int problems(const struct rsuite *s, const struct known_opts *o)
{
	unsigned int n = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct rtest *t = &s->t[i];

		if (t->hidden)
			continue;
		n += t->cls == OUTCOME_FAIL || t->cls == OUTCOME_ERROR || t->state == RT_FAIL ||
		     t->state == RT_RUNNING || (o->strict && t->cls == OUTCOME_FIXED) ||
		     (o->flaky == FLAKY_FAIL && t->cls == OUTCOME_FLAKY);
	}
	return n;
}

unsigned int known_classify(struct rsuite *s, const struct known_opts *o)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->t[i].cls != OUTCOME_NONE)
			return problems(s, o);
	fold_runs(s);
	for (size_t i = 0; i < s->n; i++)
		if (!s->t[i].hidden)
			classify_one(s, &s->t[i], o);
	return problems(s, o);
}

/* Entries of o past their until= date, each named on stderr; how many. */
static unsigned int expired_entries(const struct known_opts *o, const char *who)
{
	unsigned int n = 0;
	char date[16];

	for (size_t i = 0; i < o->set.n; i++) {
		const struct known_entry *e = &o->set.v[i];

		if (e->until < 0 || o->today <= e->until)
			continue;
		known_date_str(e->until, date, sizeof(date));
		warn("%s: %s:%u: the known failure of %s expired on %s%s", who, e->file, e->line,
		     e->test, date, o->strict ? " (--strict: the run fails)" : "");
		n++;
	}
	return n;
}

int known_exit(struct rsuite *s, const struct known_opts *o, int rc, int tests_only,
	       const char *who)
{
	unsigned int bad = known_classify(s, o), expired = expired_entries(o, who);
	struct rcount c;

	rsuite_count(s, &c);
	if (rc && !tests_only)
		return rc;
	if (bad || (o->strict && expired)) {
		if (!bad)
			warn("%s: --strict: %u known-failure entr%s expired (exit status 1)", who,
			     expired, expired == 1 ? "y has" : "ies have");
		else if (c.known || c.flaky || c.fixed)
			warn("%s: %u test%s failed that no known failure excuses (exit status 1)", who,
			     bad, bad == 1 ? "" : "s");
		return 1;
	}
	/*
	 * the guest's tests failed, and its records hold no failure that an
	 * entry or a re-run accounts for: a record was lost or forged (a NUL
	 * cut it, a test wrote its own); nothing excuses what they do not show
	 */
	if (rc && !c.known && !c.flaky) {
		warn("%s: the guest says its tests failed (exit status %d), but its records show no "
		     "failed test: the status stands", who, rc);
		return rc;
	}
	if (rc)
		warn("%s: every failed test is a known failure or flaky (%u known, %u flaky): exit "
		     "status 0", who, c.known, c.flaky);
	return 0;
}
