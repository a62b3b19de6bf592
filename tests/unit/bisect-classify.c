// SPDX-License-Identifier: GPL-2.0
/*
 * bisect-classify.c: ./bisect's verdicts fed statuses and test names: a
 * step is good only when every run passed, bad only when every run failed
 * as the bad commit did (status and failing tests, or --match), skip when
 * it did not build or died another way (a panic, a timeout, other tests),
 * flaky when its runs disagree, --flaky deciding; the bad commit's own
 * runs must agree to serve as the reference; and --compare's per-test
 * differences, held only when steady on both sides.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "abdiff.h"
#include "classify.h"
#include "err.h"
#include "rapido.h"
#include "tap.h"

/* a run: status, then its failing test names, NULL-terminated (results when any given or "") */
static struct brun run(int rc, int results, ...)
{
	struct brun r;
	va_list ap;

	brun_init(&r);
	r.rc = rc;
	r.have_results = results;
	va_start(ap, results);
	for (const char *n = va_arg(ap, const char *); n; n = va_arg(ap, const char *))
		strv_push(&r.fails, n);
	va_end(ap);
	strv_sort(&r.fails);
	return r;
}

static struct bref ref_of(int rc, const char *fail)
{
	struct bref f = { 0 };

	f.rc = rc;
	f.have_results = fail != NULL;
	if (fail)
		strv_push(&f.fails, fail);
	return f;
}

/* the verdict of runs v[0..n) against ref under policy, its why into *why (static) */
static enum bverdict step(const struct bref *ref, struct brun *v, size_t n, const char *build,
			  enum bflaky policy, int *flaky, const char **why)
{
	static char buf[1024];
	struct bstep s;
	enum bverdict verdict;

	bstep_classify(ref, v, n, build, policy, &s);
	verdict = s.verdict;
	*flaky = s.flaky;
	snprintf(buf, sizeof(buf), "%s", s.why);
	*why = buf;
	bstep_free(&s);
	for (size_t i = 0; i < n; i++)
		brun_free(&v[i]);
	return verdict;
}

static int has(const char *s, const char *sub)
{
	int ok = strstr(s, sub) != NULL;

	if (!ok)
		printf("#   '%s' not in '%s'\n", sub, s);
	return ok;
}

static void test_steps(void)
{
	struct bref ref = ref_of(1, "generic/001");
	struct bref plain = ref_of(VM_EXIT_NO_STATUS, NULL);
	struct brun v[3];
	const char *why;
	int flaky;

	v[0] = run(0, 1, NULL);
	v[1] = run(0, 1, NULL);
	TAP_EQ_INT(step(&ref, v, 2, NULL, BFLAKY_SKIP, &flaky, &why), BV_GOOD, "every run passed: good");
	tap_ok(!flaky && has(why, "every run passed"), "  not flaky, says so");

	v[0] = run(1, 1, "generic/001", NULL);
	v[1] = run(1, 1, "generic/001", NULL);
	TAP_EQ_INT(step(&ref, v, 2, NULL, BFLAKY_SKIP, &flaky, &why), BV_BAD,
		   "every run failed the bad commit's test with its status: bad");
	tap_ok(has(why, "failing generic/001 as the bad commit"), "  the why names the test");

	TAP_EQ_INT(step(&ref, v, 0, "make exited 2: error: foo", BFLAKY_BAD, &flaky, &why), BV_SKIP,
		   "a build failure is skip, never bad (even with --flaky=bad)");
	tap_ok(has(why, "not built: make exited 2"), "  the why says it was not built, and how");

	v[0] = run(VM_EXIT_NO_STATUS, 1, NULL);
	TAP_EQ_INT(step(&ref, v, 1, NULL, BFLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "a panic where the bad commit failed a test: skip (another death)");
	tap_ok(has(why, "exit 123") && has(why, "the bad commit's was exit 1") &&
	       has(why, "another failure"), "  the why gives both statuses");

	v[0] = run(VM_EXIT_TIMEOUT, 1, NULL);
	TAP_EQ_INT(step(&ref, v, 1, NULL, BFLAKY_BAD, &flaky, &why), BV_SKIP,
		   "a timeout is skip, whatever --flaky says");

	v[0] = run(1, 1, "generic/002", NULL);
	TAP_EQ_INT(step(&ref, v, 1, NULL, BFLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "the same status but another failing test: skip");
	tap_ok(has(why, "failing generic/002; the bad commit failed generic/001"),
	       "  the why names both tests");

	v[0] = run(1, 1, "generic/001", "generic/002", NULL);
	TAP_EQ_INT(step(&ref, v, 1, NULL, BFLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "the bad commit's test and one more: not the same failure, skip");

	v[0] = run(1, 0, NULL);
	TAP_EQ_INT(step(&ref, v, 1, NULL, BFLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "no results where the bad commit had some: skip");

	v[0] = run(VM_EXIT_NO_STATUS, 0, NULL);
	TAP_EQ_INT(step(&plain, v, 1, NULL, BFLAKY_SKIP, &flaky, &why), BV_BAD,
		   "without --results the status alone matches (a panic like the bad commit's)");
	v[0] = run(VM_EXIT_SPLAT, 0, NULL);
	TAP_EQ_INT(step(&plain, v, 1, NULL, BFLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "  and another status does not");
	plain.panic = xstrdup("Attempted to kill init! exitcode=0x00000100");
	v[0] = run(VM_EXIT_NO_STATUS, 0, NULL);
	v[0].panic = xstrdup("Attempted to kill init! exitcode=0x00000100");
	TAP_EQ_INT(step(&plain, v, 1, NULL, BFLAKY_SKIP, &flaky, &why), BV_BAD,
		   "a panic saying what the bad commit's said: bad");
	v[0] = run(VM_EXIT_NO_STATUS, 0, NULL);
	v[0].panic = xstrdup("VFS: Unable to mount root fs on unknown-block(0,0)");
	TAP_EQ_INT(step(&plain, v, 1, NULL, BFLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "another panic (other words) with the same status: skip");
	tap_ok(has(why, "panicking 'VFS: Unable to mount root fs") && has(why, "another failure"),
	       "  the why quotes both panics");
	v[0] = run(VM_EXIT_NO_STATUS, 0, NULL);
	TAP_EQ_INT(step(&plain, v, 1, NULL, BFLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "a death without the panic's words: skip");

	v[0] = run(0, 1, NULL);
	v[1] = run(1, 1, "generic/001", NULL);
	TAP_EQ_INT(step(&ref, v, 2, NULL, BFLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "a pass and a match: flaky, skipped by default");
	tap_ok(flaky && has(why, "flaky, skipped") && has(why, "1 of 2 runs failed (50%)"),
	       "  flaky, with its rate");
	tap_ok(has(why, "run 1: passed") && has(why, "run 2: exit 1"), "  each run's why");
	v[0] = run(0, 1, NULL);
	v[1] = run(1, 1, "generic/001", NULL);
	v[2] = run(1, 1, "generic/001", NULL);
	TAP_EQ_INT(step(&ref, v, 3, NULL, BFLAKY_BAD, &flaky, &why), BV_BAD,
		   "--flaky=bad: counted bad");
	tap_ok(flaky && has(why, "2 of 3 runs failed (66%)"), "  still said to be flaky");
	v[0] = run(0, 1, NULL);
	v[1] = run(1, 1, "generic/001", NULL);
	TAP_EQ_INT(step(&ref, v, 2, NULL, BFLAKY_GOOD, &flaky, &why), BV_GOOD,
		   "--flaky=good: counted good");
	v[0] = run(0, 1, NULL);
	v[1] = run(VM_EXIT_NO_STATUS, 1, NULL);
	TAP_EQ_INT(step(&ref, v, 2, NULL, BFLAKY_BAD, &flaky, &why), BV_SKIP,
		   "--flaky=bad with a pass and a panic: no run showed the bad failure, skip");
	tap_ok(flaky && has(why, "no run showed the side"), "  and says why");
	v[0] = run(1, 1, "generic/001", NULL);
	v[1] = run(VM_EXIT_NO_STATUS, 1, NULL);
	TAP_EQ_INT(step(&ref, v, 2, NULL, BFLAKY_GOOD, &flaky, &why), BV_SKIP,
		   "--flaky=good with a match and a panic: no run passed, skip");
	bref_free(&ref);
	bref_free(&plain);
}

static void test_match(void)
{
	struct bref ref = { .use_match = 1 };
	struct brun v[2];
	const char *why;
	int flaky;

	v[0] = run(VM_EXIT_NO_STATUS, 0, NULL);
	v[0].matched = 1;
	TAP_EQ_INT(step(&ref, v, 1, NULL, BFLAKY_SKIP, &flaky, &why), BV_BAD,
		   "--match: a failed run whose console matched is bad, whatever its status");
	v[0] = run(VM_EXIT_NO_STATUS, 0, NULL);
	TAP_EQ_INT(step(&ref, v, 1, NULL, BFLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "--match: a panic that did not match is another panic: skip");
	tap_ok(has(why, "--match not found"), "  the why says the text was not found");
	v[0] = run(0, 0, NULL);
	v[0].matched = 1;
	TAP_EQ_INT(step(&ref, v, 1, NULL, BFLAKY_SKIP, &flaky, &why), BV_GOOD,
		   "--match: a passing run is good even when the text appears");
}

static void test_reference(void)
{
	struct brun v[2];
	struct bref ref;
	char *err = NULL;

	v[0] = run(1, 1, "t/b", "t/a", NULL);
	v[1] = run(1, 1, "t/a", "t/b", NULL);
	TAP_EQ_INT(bref_from_runs(&ref, v, 2, 0, &err), 0, "two runs failing alike make the reference");
	tap_ok(ref.rc == 1 && ref.have_results && ref.fails.n == 2 && !strcmp(ref.fails.v[0], "t/a"),
	       "  its status and sorted failing tests");
	bref_free(&ref);
	brun_free(&v[1]);
	v[1] = run(0, 1, NULL);
	TAP_EQ_INT(bref_from_runs(&ref, v, 2, 0, &err), -1, "a passing run of the bad commit refuses it");
	tap_ok(has(err, "run 2 of 2 passed"), "  naming the run");
	free(err);
	bref_free(&ref);
	brun_free(&v[1]);
	v[1] = run(VM_EXIT_NO_STATUS, 1, NULL);
	TAP_EQ_INT(bref_from_runs(&ref, v, 2, 0, &err), -1, "runs of the bad commit that fail differently");
	tap_ok(has(err, "failed differently") && has(err, "--match"), "  and the way out is --match");
	free(err);
	bref_free(&ref);
	{
		struct brun p[2] = { run(VM_EXIT_NO_STATUS, 0, NULL), run(VM_EXIT_NO_STATUS, 0, NULL) };

		p[0].panic = xstrdup("Fatal exception");
		p[1].panic = xstrdup("Fatal exception");
		TAP_EQ_INT(bref_from_runs(&ref, p, 2, 0, &err), 0,
			   "two runs panicking alike make the reference");
		TAP_EQ_STR(ref.panic ? ref.panic : "(none)", "Fatal exception", "  with the panic's words");
		bref_free(&ref);
		free(p[1].panic);
		p[1].panic = xstrdup("Attempted to kill the idle task!");
		TAP_EQ_INT(bref_from_runs(&ref, p, 2, 0, &err), -1,
			   "runs of the bad commit panicking differently");
		free(err);
		bref_free(&ref);
		brun_free(&p[0]);
		brun_free(&p[1]);
	}
		TAP_EQ_INT(bref_from_runs(&ref, v, 2, 1, &err), -1, "--match that found nothing in a run");
	tap_ok(has(err, "--match found nothing"), "  says so");
	free(err);
	bref_free(&ref);
	v[0].matched = v[1].matched = 1;
	TAP_EQ_INT(bref_from_runs(&ref, v, 2, 1, &err), 0,
		   "--match: runs that fail differently but all match serve");
	bref_free(&ref);
	brun_free(&v[0]);
	brun_free(&v[1]);
	TAP_EQ_INT(bflaky_parse("bad"), BFLAKY_BAD, "--flaky bad");
	TAP_EQ_INT(bflaky_parse("good"), BFLAKY_GOOD, "--flaky good");
	TAP_EQ_INT(bflaky_parse("skip"), BFLAKY_SKIP, "--flaky skip");
	TAP_EQ_INT(bflaky_parse("maybe"), -1, "--flaky maybe is refused");
}

static void test_abdiff(void)
{
	struct abrun a[3] = { 0 }, b[3] = { 0 };
	struct strv d = STRV_INIT;
	const char *sa, *sb;
	char *why;

	for (int i = 0; i < 3; i++) {
		abrun_add(&a[i], "t/same", "pass");
		abrun_add(&b[i], "t/same", "pass");
		abrun_add(&a[i], "t/broke", "pass");
		abrun_add(&b[i], "t/broke", "fail");
		abrun_add(&a[i], "t/flaky", "pass");
		abrun_add(&b[i], "t/flaky", i == 1 ? "pass" : "fail");
	}
	abrun_add(&a[0], "t/gone", "pass");
	ab_differs(&a[0], &b[0], &d);
	TAP_EQ_INT((int)d.n, 3, "three tests differ in the first runs");
	tap_ok(d.n == 3 && !strcmp(d.v[0], "t/broke") && !strcmp(d.v[1], "t/flaky") &&
	       !strcmp(d.v[2], "t/gone"), "  broke, flaky and the one B lacks, sorted");
	TAP_EQ_STR(abrun_state(&b[0], "t/gone"), "absent", "  a test a run lacks is absent");
	TAP_EQ_INT(ab_holds("t/broke", a + 1, 2, b + 1, 2, &sa, &sb, &why), 1,
		   "t/broke holds over the re-runs");
	tap_ok(!strcmp(sa, "pass") && !strcmp(sb, "fail"), "  pass on A, fail on B");
	free(why);
	TAP_EQ_INT(ab_holds("t/flaky", a + 1, 2, b + 1, 2, &sa, &sb, &why), 0,
		   "t/flaky does not: B varied");
	tap_ok(has(why, "varied over 2 runs of B"), "  says which side varied");
	free(why);
	TAP_EQ_INT(ab_holds("t/gone", a + 1, 2, b + 1, 2, &sa, &sb, &why), 0,
		   "t/gone does not: absent on both in the re-runs");
	free(why);
	strv_free(&d);
	for (int i = 0; i < 3; i++) {
		abrun_free(&a[i]);
		abrun_free(&b[i]);
	}
}

int main(void)
{
	tap_plan(56);
	test_steps();
	test_match();
	test_reference();
	test_abdiff();
	return tap_done();
}
