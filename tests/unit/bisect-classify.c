// SPDX-License-Identifier: GPL-2.0
/*
 * bisect-classify.c: ./bisect's verdicts fed statuses and test names: a
 * step is good only when every run passed, bad only when every run failed
 * as the bad commit did (status and failing tests, or --match), skip when
 * it did not build or died another way (a panic, a timeout, other tests),
 * flaky when its runs disagree, --flaky deciding; the bad commit's own
 * runs must agree to serve as the reference; --flaky's one parser (its
 * old bisect words aliases) and the outcome words; and --compare's
 * per-test differences, the same as ./vm --compare-results finds in the
 * same results.txt, held only when steady on both sides.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "abcompare.h"
#include "bisect.h"
#include "classify.h"
#include "err.h"
#include "io.h"
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
			  enum flaky_policy policy, int *flaky, const char **why)
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
	TAP_EQ_INT(step(&ref, v, 2, NULL, FLAKY_SKIP, &flaky, &why), BV_GOOD, "every run passed: good");
	tap_ok(!flaky && has(why, "every run passed"), "  not flaky, says so");

	v[0] = run(1, 1, "generic/001", NULL);
	v[1] = run(1, 1, "generic/001", NULL);
	TAP_EQ_INT(step(&ref, v, 2, NULL, FLAKY_SKIP, &flaky, &why), BV_BAD,
		   "every run failed the bad commit's test with its status: bad");
	tap_ok(has(why, "failing generic/001 as the bad commit"), "  the why names the test");

	TAP_EQ_INT(step(&ref, v, 0, "make exited 2: error: foo", FLAKY_FAIL, &flaky, &why), BV_SKIP,
		   "a build failure is skip, never bad (even with --flaky=fail)");
	tap_ok(has(why, "not built: make exited 2"), "  the why says it was not built, and how");

	v[0] = run(VM_EXIT_NO_STATUS, 1, NULL);
	TAP_EQ_INT(step(&ref, v, 1, NULL, FLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "a panic where the bad commit failed a test: skip (another death)");
	tap_ok(has(why, "exit 123") && has(why, "the bad commit's was exit 1") &&
	       has(why, "another failure"), "  the why gives both statuses");

	v[0] = run(VM_EXIT_TIMEOUT, 1, NULL);
	TAP_EQ_INT(step(&ref, v, 1, NULL, FLAKY_FAIL, &flaky, &why), BV_SKIP,
		   "a timeout is skip, whatever --flaky says");

	v[0] = run(1, 1, "generic/002", NULL);
	TAP_EQ_INT(step(&ref, v, 1, NULL, FLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "the same status but another failing test: skip");
	tap_ok(has(why, "failing generic/002; the bad commit failed generic/001"),
	       "  the why names both tests");

	v[0] = run(1, 1, "generic/001", "generic/002", NULL);
	TAP_EQ_INT(step(&ref, v, 1, NULL, FLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "the bad commit's test and one more: not the same failure, skip");

	v[0] = run(1, 0, NULL);
	TAP_EQ_INT(step(&ref, v, 1, NULL, FLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "no results where the bad commit had some: skip");

	v[0] = run(VM_EXIT_NO_STATUS, 0, NULL);
	TAP_EQ_INT(step(&plain, v, 1, NULL, FLAKY_SKIP, &flaky, &why), BV_BAD,
		   "without --results the status alone matches (a panic like the bad commit's)");
	v[0] = run(VM_EXIT_SPLAT, 0, NULL);
	TAP_EQ_INT(step(&plain, v, 1, NULL, FLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "  and another status does not");
	plain.panic = xstrdup("Attempted to kill init! exitcode=0x00000100");
	v[0] = run(VM_EXIT_NO_STATUS, 0, NULL);
	v[0].panic = xstrdup("Attempted to kill init! exitcode=0x00000100");
	TAP_EQ_INT(step(&plain, v, 1, NULL, FLAKY_SKIP, &flaky, &why), BV_BAD,
		   "a panic saying what the bad commit's said: bad");
	v[0] = run(VM_EXIT_NO_STATUS, 0, NULL);
	v[0].panic = xstrdup("VFS: Unable to mount root fs on unknown-block(0,0)");
	TAP_EQ_INT(step(&plain, v, 1, NULL, FLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "another panic (other words) with the same status: skip");
	tap_ok(has(why, "panicking 'VFS: Unable to mount root fs") && has(why, "another failure"),
	       "  the why quotes both panics");
	v[0] = run(VM_EXIT_NO_STATUS, 0, NULL);
	TAP_EQ_INT(step(&plain, v, 1, NULL, FLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "a death without the panic's words: skip");

	v[0] = run(0, 1, NULL);
	v[1] = run(1, 1, "generic/001", NULL);
	TAP_EQ_INT(step(&ref, v, 2, NULL, FLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "a pass and a match: flaky, skipped by default");
	tap_ok(flaky && has(why, "flaky, skipped") && has(why, "1 of 2 runs failed (50%)"),
	       "  flaky, with its rate");
	tap_ok(has(why, "run 1: passed") && has(why, "run 2: exit 1"), "  each run's why");
	v[0] = run(0, 1, NULL);
	v[1] = run(1, 1, "generic/001", NULL);
	v[2] = run(1, 1, "generic/001", NULL);
	TAP_EQ_INT(step(&ref, v, 3, NULL, FLAKY_FAIL, &flaky, &why), BV_BAD,
		   "--flaky=fail: counted bad");
	tap_ok(flaky && has(why, "2 of 3 runs failed (66%)"), "  still said to be flaky");
	v[0] = run(0, 1, NULL);
	v[1] = run(1, 1, "generic/001", NULL);
	TAP_EQ_INT(step(&ref, v, 2, NULL, FLAKY_PASS, &flaky, &why), BV_GOOD,
		   "--flaky=pass: counted good");
	v[0] = run(0, 1, NULL);
	v[1] = run(VM_EXIT_NO_STATUS, 1, NULL);
	TAP_EQ_INT(step(&ref, v, 2, NULL, FLAKY_FAIL, &flaky, &why), BV_SKIP,
		   "--flaky=fail with a pass and a panic: no run showed the bad failure, skip");
	tap_ok(flaky && has(why, "no run showed the side"), "  and says why");
	v[0] = run(1, 1, "generic/001", NULL);
	v[1] = run(VM_EXIT_NO_STATUS, 1, NULL);
	TAP_EQ_INT(step(&ref, v, 2, NULL, FLAKY_PASS, &flaky, &why), BV_SKIP,
		   "--flaky=pass with a match and a panic: no run passed, skip");
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
	TAP_EQ_INT(step(&ref, v, 1, NULL, FLAKY_SKIP, &flaky, &why), BV_BAD,
		   "--match: a failed run whose console matched is bad, whatever its status");
	v[0] = run(VM_EXIT_NO_STATUS, 0, NULL);
	TAP_EQ_INT(step(&ref, v, 1, NULL, FLAKY_SKIP, &flaky, &why), BV_SKIP,
		   "--match: a panic that did not match is another panic: skip");
	tap_ok(has(why, "--match not found"), "  the why says the text was not found");
	v[0] = run(0, 0, NULL);
	v[0].matched = 1;
	TAP_EQ_INT(step(&ref, v, 1, NULL, FLAKY_SKIP, &flaky, &why), BV_GOOD,
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
}

/* --flaky: one parser, one meaning; ./bisect's old words still work, said to be old */
static void test_flaky_words(void)
{
	static const struct { const char *w; unsigned int flags; int rc; enum flaky_policy p; } t[] = {
		{ "pass", 0, 0, FLAKY_PASS }, { "fail", 0, 0, FLAKY_FAIL },
		{ "skip", 0, -EINVAL, 0 }, { "bad", 0, -EINVAL, 0 }, { "good", 0, -EINVAL, 0 },
		{ "pass", FLAKY_BISECT, 0, FLAKY_PASS }, { "fail", FLAKY_BISECT, 0, FLAKY_FAIL },
		{ "skip", FLAKY_BISECT, 0, FLAKY_SKIP }, { "bad", FLAKY_BISECT, 1, FLAKY_FAIL },
		{ "good", FLAKY_BISECT, 1, FLAKY_PASS }, { "maybe", FLAKY_BISECT, -EINVAL, 0 },
		{ "", FLAKY_BISECT, -EINVAL, 0 }, { "Pass", FLAKY_BISECT, -EINVAL, 0 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		/* no row expects this: a parse that set nothing cannot pass */
		enum flaky_policy p = (enum flaky_policy)-1;
		int rc = flaky_parse(t[i].w, t[i].flags, &p);

		tap_ok(rc == t[i].rc && (rc < 0 || p == t[i].p), "--flaky=%s%s: %s%s", t[i].w,
		       t[i].flags ? " (./bisect)" : " (./vm)",
		       t[i].rc < 0 ? "refused" : flaky_name(t[i].p), t[i].rc == 1 ? ", an old alias" : "");
	}
	for (int p = FLAKY_PASS; p <= FLAKY_SKIP; p++) {
		enum flaky_policy q;

		tap_ok(flaky_parse(flaky_name((enum flaky_policy)p), FLAKY_BISECT, &q) == 0 &&
		       (int)q == p, "flaky_name(%d) parses back", p);
	}
}

/* outcome.h's words: each outcome's name, in the vocabulary's words */
static void test_outcome_words(void)
{
	static const char *const want[] = {
		"absent", "pass", "fail", "known-fail", "fixed", "flaky", "skip", "error",
	};
	int n = 0;

	for (int o = 0; o < OUTCOME_N; o++)
		n += !strcmp(outcome_name((enum outcome)o), want[o]);
	TAP_EQ_INT(n, OUTCOME_N, "every outcome's name, in the vocabulary's words");
	TAP_EQ_STR(outcome_name(OUTCOME_N), "absent", "an outcome out of range is absent");
	tap_ok(outcome_failing(OUTCOME_FAIL) && outcome_failing(OUTCOME_ERROR) &&
	       !outcome_failing(OUTCOME_KNOWN) && !outcome_failing(OUTCOME_FLAKY) &&
	       !outcome_failing(OUTCOME_FIXED) && !outcome_failing(OUTCOME_SKIP),
	       "fail and error fail; known-fail, flaky, fixed and skip do not");
}

/* a step's words for ./vm's exit statuses are verdict.c's */
static void test_rc_words(void)
{
	static const struct { int rc; const char *want; } t[] = {
		{ 0, "exit 0 (passed)" }, { VM_EXIT_TESTS_FAILED, "exit 1 (a test failed)" },
		{ VM_EXIT_NO_STATUS, "exit 123 (the guest died: panic or crash)" },
		{ VM_EXIT_TIMEOUT, "exit 124 (timed out)" }, { 137, "exit 137 (killed by a signal)" },
		{ 7, "exit 7 (the guest's status)" }, { 159, "exit 159 (killed by a signal)" },
		{ 160, "exit 160 (the guest's status)" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		char *w = brc_words(t[i].rc);

		TAP_EQ_STR(w, t[i].want, "exit %d in words", t[i].rc);
		free(w);
	}
}

static char *dir;

/* DIR/NAME/results.txt holding the records lines, its path (malloc'd) */
static char *results_txt(const char *name, const char *lines)
{
	char *d = xasprintf("%s/%s", dir, name), *path = xasprintf("%s/results.txt", d);

	if (mkdir(d, 0755) || write_file_atomic(path, lines, strlen(lines), 0644)) {
		perror(path);
		exit(1);
	}
	free(d);
	return path;
}

/* a run's results as ./bisect reads them (brun_results) */
static void bisect_reads(const char *path, struct brun *r, struct abrun *ab)
{
	char *err = NULL;

	brun_init(r);
	memset(ab, 0, sizeof(*ab));
	if (brun_results(r, ab, path, &err)) {
		printf("# %s\n", err);
		free(err);
	}
}

/*
 * The same two results.txt through ./bisect (brun_results, ab_differs,
 * abrun_word) and through ./vm --compare-results (abrun_load,
 * ab_compare): the same tests differ, with the same words.
 */
static void test_same_as_vm(void)
{
	static const char a_txt[] =
		"R1 meta rerun 1\n"
		"R1 pass t/same 1 -\nR1 pass t/broke 1 -\nR1 pass t/flaky 1 -\nR1 pass t/gone 1 -\n"
		"R1 fail t/known 1 old -\n"
		"R1 kernel kernel:%20WARNING:%20CPU:%200%20PID:%2012%20at%20a.c:3 warning -\n"
		"R1 meta exit 1\n";
	static const char b_txt[] =
		"R1 meta rerun 1\n"
		"R1 pass t/same 1 -\nR1 fail t/broke 1 broke -\n"
		"R1 fail t/flaky 1 once -\nR1 rerun t/flaky 1\nR1 pass t/flaky 1 -\n"
		"R1 error t/hung 0 not%20run -\nR1 fail t/known 1 old -\n"
		"R1 kernel kernel:%20WARNING:%20CPU:%201%20PID:%2099%20at%20a.c:3 warning -\n"
		"R1 meta exit 1\n";
	char *pa = results_txt("a", a_txt), *pb = results_txt("b", b_txt), *pc;
	char *vm_out = NULL, *err = NULL, wa[32], wb[32];
	size_t len = 0, n;
	struct abrun va, vb, ba, bb;
	struct brun ra, rb;
	struct strv diff = STRV_INIT;
	struct abchange *ch;
	FILE *f = open_memstream(&vm_out, &len);
	unsigned int regress, same = 0;

	/* ./vm --compare-results A B */
	TAP_EQ_INT(abrun_load(&va, pa, &err) | abrun_load(&vb, pb, &err), 0, "./vm reads A and B");
	regress = ab_compare(&va, &vb, f);
	fclose(f);
	/* ./bisect --compare's first runs */
	bisect_reads(pa, &ra, &ba);
	bisect_reads(pb, &rb, &bb);
	ab_differs(&ba, &bb, &diff);
	n = ab_changes(&va, &vb, &ch);
	TAP_EQ_INT((int)diff.n, (int)n, "bisect finds as many differing tests as vm's changes");
	for (size_t i = 0; i < n && i < diff.n; i++) {
		const char *name = (ch[i].b ? ch[i].b : ch[i].a)->name;
		char *line = xasprintf("%s: %s: %s -> %s", ab_kind_name(ch[i].kind), name,
				       abrun_word(&ba, name, wa, sizeof(wa)),
				       abrun_word(&bb, name, wb, sizeof(wb)));

		/* vm printed the change with the words bisect gives A and B */
		same += !strcmp(diff.v[i], name) && strstr(vm_out, line) != NULL;
		if (!strstr(vm_out, line))
			printf("#   '%s' not in:\n%s", line, vm_out);
		free(line);
	}
	TAP_EQ_INT((int)same, (int)n, "  the same tests, in the same words");
	tap_ok(strstr(vm_out, "new failure: t/broke: pass -> fail: broke\n") &&
	       strstr(vm_out, "new failure (new test): t/hung: absent -> error") &&
	       strstr(vm_out, "newly flaky: t/flaky: pass -> flaky") &&
	       strstr(vm_out, "vanished: t/gone: pass -> absent") && regress == 3,
	       "  a failing pair: a new failure, a new test that did not finish, a vanished test");
	tap_ok(!strstr(vm_out, "kernel:") && !strstr(vm_out, "t/known") &&
	       !strv_contains(&diff, AB_EXIT), "  the same report with other numbers, the same "
	       "failure and the exit status (with tests) are no difference to either");
	tap_ok(rb.have_results && rb.fails.n == 4 &&
	       !strcmp(rb.fails.v[0], "kernel: WARNING: CPU: # PID: # at a.c:#") &&
	       !strcmp(rb.fails.v[1], "t/broke") && !strcmp(rb.fails.v[2], "t/hung") &&
	       !strcmp(rb.fails.v[3], "t/known"),
	       "  bisect's failing tests of B are vm's failing outcomes (not the flaky one)");
	free(ch);
	free(vm_out);
	strv_free(&diff);
	abrun_free(&ba);
	abrun_free(&bb);
	brun_free(&ra);
	brun_free(&rb);
	/* no test records: the exit status is the one thing to compare */
	pc = results_txt("c", "R1 meta exit 0\n");
	bisect_reads(pc, &ra, &ba);
	free(pc);
	pc = results_txt("d", "R1 meta exit 124\n");
	bisect_reads(pc, &rb, &bb);
	ab_differs(&ba, &bb, &diff);
	tap_ok(diff.n == 1 && !strcmp(diff.v[0], AB_EXIT) &&
	       !strcmp(abrun_word(&bb, AB_EXIT, wb, sizeof(wb)), "exit 124"),
	       "without tests, bisect compares the exit status (exit 0, exit 124)");
	strv_free(&diff);
	abrun_free(&ba);
	abrun_free(&bb);
	brun_free(&ra);
	brun_free(&rb);
	free(pc);
	/* a results.txt neither can read: both refuse it, naming it */
	pc = xasprintf("%s/none/results.txt", dir);
	brun_init(&ra);
	TAP_EQ_INT(brun_results(&ra, &ba, pc, &err), -ENOENT, "a missing results.txt: bisect refuses it");
	tap_ok(err && strstr(err, pc) && !ra.have_results, "  naming it, with no results");
	free(err);
	abrun_free(&va);
	abrun_free(&vb);
	TAP_EQ_INT(abrun_load(&va, pc, &err), -ENOENT, "  and so does vm's compare");
	free(err);
	free(pc);
	brun_free(&ra);
	free(pa);
	free(pb);
}

/* --compare's steady differences over the re-runs */
static void test_holds(void)
{
	struct abrun a[3], b[3];
	char sa[32], sb[32], *why;

	for (int i = 0; i < 3; i++) {
		char *ta = xasprintf("a%d", i), *tb = xasprintf("b%d", i);
		char *pa = results_txt(ta, "R1 pass t/broke 1 -\nR1 pass t/flaky 1 -\nR1 meta exit 0\n");
		char *pb = results_txt(tb, i == 1 ? "R1 fail t/broke 1 x -\nR1 pass t/flaky 1 -\n" :
				       "R1 fail t/broke 1 x -\nR1 fail t/flaky 1 y -\n");
		char *err = NULL;

		if (abrun_load(&a[i], pa, &err) || abrun_load(&b[i], pb, &err))
			printf("# %s\n", err);
		free(ta);
		free(tb);
		free(pa);
		free(pb);
	}
	TAP_EQ_INT(ab_holds("t/broke", a + 1, 2, b + 1, 2, sa, sb, sizeof(sa), &why), 1,
		   "t/broke holds over the re-runs");
	tap_ok(!strcmp(sa, "pass") && !strcmp(sb, "fail"), "  pass on A, fail on B");
	free(why);
	TAP_EQ_INT(ab_holds("t/flaky", a + 1, 2, b + 1, 2, sa, sb, sizeof(sa), &why), 0,
		   "t/flaky does not: B varied");
	tap_ok(has(why, "varied over 2 runs of B"), "  says which side varied");
	free(why);
	TAP_EQ_INT(ab_holds("t/gone", a + 1, 2, b + 1, 2, sa, sb, sizeof(sa), &why), 0,
		   "t/gone does not: absent on both in the re-runs");
	tap_ok(has(why, "absent on both"), "  says so");
	free(why);
	for (int i = 0; i < 3; i++) {
		abrun_free(&a[i]);
		abrun_free(&b[i]);
	}
}

int main(void)
{
	tap_plan(87);
	test_steps();
	test_match();
	test_reference();
	test_flaky_words();
	test_outcome_words();
	test_rc_words();
	dir = xstrdup("/tmp/bisect-classify.XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_same_as_vm();
	test_holds();
	tap_rm_tree(dir);
	free(dir);
	return tap_done();
}
