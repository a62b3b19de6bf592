// SPDX-License-Identifier: GPL-2.0
/*
 * vm-known.c: known failures and re-runs (known.h). The file parser: the
 * native line, xfstests -E exclude files and kdevops expunge lists as they
 * are, kernel globs and version ranges, until= dates, and a FILE:LINE
 * error for each bad line. The verdict table: pass, fail (new),
 * known-fail, fixed, flaky, skip, error; the exit status (a failure the
 * file does not name still exits 1; an error, a kernel report and ./vm's
 * own testcase are never excused; a status not made by failed tests alone
 * is kept; --strict, --flaky=fail, an expired entry); JUnit and KTAP of
 * each; --write-known-failures keeping comments and marking fixed lines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "known.h"
#include "tap.h"
#include "verdict.h"

/* 2026-12-01 */
#define TODAY 20788

static int parse_err(const char *text, const char *want)
{
	struct known_set ks;
	char *err = NULL;
	int rc, ok;

	known_set_init(&ks);
	rc = known_parse(&ks, "k.txt", text, &err);
	ok = rc == -EINVAL && err && strstr(err, want) && ks.n == 0;
	if (!ok)
		fprintf(stderr, "# got rc %d, '%s', %zu entries\n", rc, err ? err : "", ks.n);
	free(err);
	known_set_free(&ks);
	return ok;
}

static void parser_cases(void)
{
	struct known_set ks;
	char *err = NULL;
	const char *native = "# a comment\n"
			     "\n"
			     "fixture/known  # https://bugs.example/1\n"
			     "generic/4*  6.1.*  until=2030-01-31 # korg#218224 xfs: assertion\n"
			     "\tlio/one 5.10..6.1\n"
			     "lio/two ..5.4 # old kernels\n"
			     "lio/three 6.2..\n";

	known_set_init(&ks);
	TAP_EQ_INT(known_parse(&ks, "k.txt", native, &err), 0, "the native format parses");
	TAP_EQ_INT((int)ks.n, 5, "  5 entries, comments and blank lines left out");
	TAP_EQ_STR(ks.v[0].reason, "https://bugs.example/1", "  the reason after '#'");
	TAP_EQ_INT((int)ks.v[0].line, 3, "  its line");
	TAP_EQ_STR(ks.v[1].reason, "korg#218224 xfs: assertion", "  a reason keeps a later '#'");
	TAP_EQ_INT(ks.v[1].until, known_date_parse("2030-01-31", 10), "  until=");
	TAP_EQ_STR(ks.v[1].kernel, "6.1.*", "  a release glob");
	tap_ok(known_entry_matches(&ks.v[1], "generic/475", "6.1.0-13-amd64"), "  glob on both");
	tap_ok(!known_entry_matches(&ks.v[1], "generic/475", "6.10.0"), "  another release: no");
	tap_ok(!known_entry_matches(&ks.v[1], "generic/475", NULL), "  an unknown release: no");
	tap_ok(!known_entry_matches(&ks.v[1], "xfs/475", "6.1.0"), "  another test: no");
	tap_ok(known_entry_matches(&ks.v[1], "sect:generic/475", "6.1.0"), "  SECTION:TEST matches TEST");
	tap_ok(known_entry_matches(&ks.v[2], "lio/one", "5.10.0-1"), "range 5.10..6.1: 5.10.0 in");
	tap_ok(known_entry_matches(&ks.v[2], "lio/one", "6.1.99"), "  6.1.99 in (a prefix)");
	tap_ok(!known_entry_matches(&ks.v[2], "lio/one", "6.2.0"), "  6.2.0 out");
	tap_ok(!known_entry_matches(&ks.v[2], "lio/one", "5.9.16"), "  5.9 out");
	tap_ok(known_entry_matches(&ks.v[3], "lio/two", "4.19.0"), "..5.4: 4.19 in");
	tap_ok(!known_entry_matches(&ks.v[3], "lio/two", "5.10.0"), "  5.10 out");
	tap_ok(known_entry_matches(&ks.v[4], "lio/three", "6.12.1"), "6.2..: 6.12 in");
	tap_ok(!known_entry_matches(&ks.v[4], "lio/three", "6.1.0"), "  6.1 out");
	tap_ok(known_entry_matches(&ks.v[0], "fixture/known", NULL), "no kernel field: any kernel");
	known_set_free(&ks);

	/* xfstests' check -E file and a kdevops expunge list, as they are */
	known_set_init(&ks);
	TAP_EQ_INT(known_parse(&ks, "exclude", "# excluded\ngeneric/002\ngeneric/013   # slow\n"
			       "generic/475 # korg#218224 XFS: Assertion failed: ip->i_nblocks == 0\n",
			       &err), 0, "an xfstests exclude file / kdevops expunge list parses");
	TAP_EQ_INT((int)ks.n, 3, "  3 tests");
	tap_ok(known_find(&ks, "generic/002", "6.1.0") == &ks.v[0], "  generic/002 found");
	tap_ok(!known_find(&ks, "generic/0021", "6.1.0"), "  generic/0021 is not generic/002");
	TAP_EQ_STR(ks.v[2].reason, "korg#218224 XFS: Assertion failed: ip->i_nblocks == 0",
		   "  kdevops' reason");
	known_set_free(&ks);

	/* the provenance's known_failures_sha256: the bytes parsed, sha256sum's hex */
	known_set_init(&ks);
	TAP_EQ_INT(known_parse(&ks, "one", "generic/002 # bug\n", &err), 0, "a file of one line parses");
	TAP_EQ_STR(ks.sha256[0], "6727572c7471fea67196bafc59a58be1d63d214f94acba33cd881be310b34414",
		   "  its sha256 is kept, as sha256sum prints it");
	known_set_free(&ks);

	tap_ok(parse_err("a\nb until=2024-13-01\n", "k.txt:2: 'until=2024-13-01': expected until=YYYY-MM-DD"),
	       "a bad month: FILE:LINE");
	tap_ok(parse_err("b until=2023-02-29\n", "k.txt:1:"), "  2023-02-29 is no date");
	tap_ok(parse_err("b until=2024-2-9\n", "k.txt:1:"), "  nor 2024-2-9");
	tap_ok(parse_err("b until=2024-01-01 until=2025-01-01\n", "k.txt:1:"), "  until= twice");
	tap_ok(parse_err("\n\nb 6.1..5.10\n", "k.txt:3: '6.1..5.10': the range ends before it starts"),
	       "a range backwards: FILE:LINE");
	tap_ok(parse_err("b 6.x..7\n", "k.txt:1: '6.x..7': expected a kernel version range"),
	       "  a range of no versions");
	tap_ok(parse_err("b ..\n", "k.txt:1:"), "  '..' alone");
	tap_ok(parse_err("b 6.1. \n", "") == 0, "  '6.1.' is a glob, not a range: fine");
	tap_ok(parse_err("b 6.1 6.2\n", "k.txt:1: '6.2': a second kernel"), "two kernels");
	tap_ok(parse_err("b kernel=6.1\n", "k.txt:1: 'kernel=6.1': unknown key"), "an unknown key");
	tap_ok(parse_err("b\x01 # x\n", "k.txt:1: a control character"), "a control character");
	tap_ok(parse_err("ok\nb until=2024-00-10\n", "k.txt:2:"),
	       "  nothing of a bad file is kept (the good line before it neither)");
	TAP_EQ_INT(known_date_parse("2026-12-01", 10), TODAY, "2026-12-01 is day %d", TODAY);
	TAP_EQ_INT(known_date_parse("2024-02-29", 10), 19782, "a leap day");
	TAP_EQ_INT(known_date_parse("1969-12-31", 10), -1, "before 1970: no");
}

/* A suite from guest records (then ./vm's meta records) on kernel rel. */
static void suite_of(struct rsuite *s, const char *rel, const char *const *lines)
{
	char *m = xasprintf("R1 meta kernel %s", rel);

	rsuite_init(s);
	rsuite_record(s, m, 1, 0);
	/* the re-runs below are --rerun-failures 2's */
	rsuite_record(s, "R1 meta rerun 2", 1, 0);
	free(m);
	for (; *lines; lines++)
		rsuite_record(s, *lines, 1, 1.0);
	rsuite_close_running(s, 2.0, "the guest died (kernel panic or crash)");
	s->exit = 1;
	s->exits = 1;
}

static const struct rtest *test_named(const struct rsuite *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!s->t[i].hidden && !strcmp(s->t[i].name, name))
			return &s->t[i];
	return NULL;
}

static char *report(const struct rsuite *s, void (*fn)(FILE *, const struct rsuite *, size_t))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		exit(1);
	fn(f, s, 1);
	fclose(f);
	return buf;
}

static void opts_of(struct known_opts *o, const char *text)
{
	char *err = NULL;

	memset(o, 0, sizeof(*o));
	known_set_init(&o->set);
	o->today = TODAY;
	if (known_parse(&o->set, "known.txt", text, &err)) {
		fprintf(stderr, "# %s\n", err);
		exit(1);
	}
}

/*
 * A test the guest ended as an error (R1 error: LTP's TBROK, a test that
 * could not reach a verdict): never a known failure, never flaky, so never
 * exit 0, whatever the known failures file says.
 */
static void guest_error_cases(void)
{
	static const char *const lines[] = { "R1 hello rapido-init", "R1 start t/k", "R1 pass t/k 1 -",
		"R1 start t/broke", "R1 error t/broke 1 TBROK out", NULL };
	struct known_opts o;
	struct rsuite s;
	const struct rtest *t;
	char *xml;

	opts_of(&o, "t/broke # listed, but an error is no failure to excuse\n");
	rsuite_init(&s);
	rsuite_record(&s, "R1 meta kernel 6.1.0", 1, 0);
	for (const char *const *l = lines; *l; l++)
		TAP_EQ_INT(rsuite_record(&s, *l, 0, 1.0), 0, "the guest's '%s' taken", *l);
	s.exit = 1;
	s.exits = 1;
	TAP_EQ_INT(known_exit(&s, &o, 1, 1, "vm1"), 1, "a guest's error that the known failures list: exit 1");
	t = test_named(&s, "t/broke");
	tap_ok(t && t->cls == OUTCOME_ERROR && t->state == RT_FAIL && t->error, "  classed an error");
	xml = report(&s, junit_write);
	tap_ok(strstr(xml, "<error message=\"TBROK\" type=\"error\">out</error>") &&
	       strstr(xml, "failures=\"0\" errors=\"1\""), "  JUnit: an <error>, not a <failure>");
	free(xml);
	rsuite_free(&s);
	known_set_free(&o.set);
}

static const char *const run1[] = {
	"R1 start t/pass", "R1 pass t/pass 1 -",
	/* fails on its first run only */
	"R1 start t/flaky", "R1 fail t/flaky 1 exit%20status%201 first", "R1 rerun t/flaky 1",
	"R1 start t/flaky",
	"R1 pass t/flaky 1 second",
	"R1 start t/known", "R1 fail t/known 1 exit%20status%201 expected%202",
	"R1 start t/fixed", "R1 pass t/fixed 1 -",
	"R1 start t/expired", "R1 fail t/expired 1 exit%20status%203 -",
	"R1 start t/skip", "R1 skip t/skip 0 needs%20a%20disk -",
	NULL,
};
static const char *const known1 = "t/known # https://bugs.example/42\n"
				  "t/fixed # https://bugs.example/7\n"
				  "t/expired until=2020-06-30 # https://bugs.example/9\n";

static void table_cases(void)
{
	struct rsuite s;
	struct known_opts o;
	struct rcount c;
	const struct rtest *t;
	char *xml, *tap;

	err_prog = "vm";
	opts_of(&o, known1);
	suite_of(&s, "6.1.0-13-amd64", run1);
	TAP_EQ_INT((int)known_classify(&s, &o), 1, "one new problem: the expired entry's failure");
	TAP_EQ_INT((int)known_classify(&s, &o), 1, "  classifying again changes nothing");
	t = test_named(&s, "t/pass");
	tap_ok(t && t->cls == OUTCOME_PASS && t->state == RT_PASS, "t/pass: pass");
	t = test_named(&s, "t/flaky");
	tap_ok(t && t->cls == OUTCOME_FLAKY && t->state == RT_PASS && t->runs == 2 && t->fails == 1,
	       "t/flaky: flaky, 1 failure in 2 runs, passing");
	t = test_named(&s, "t/known");
	tap_ok(t && t->cls == OUTCOME_KNOWN && t->state == RT_SKIP, "t/known: known-fail (skipped)");
	TAP_EQ_STR(t ? t->reason : "", "known failure: https://bugs.example/42", "  its reason");
	TAP_EQ_STR(t ? t->known_at : "", "known.txt:1", "  its entry");
	t = test_named(&s, "t/fixed");
	tap_ok(t && t->cls == OUTCOME_FIXED && t->state == RT_PASS,
	       "t/fixed: fixed, passing without --strict");
	t = test_named(&s, "t/expired");
	tap_ok(t && t->cls == OUTCOME_FAIL && t->state == RT_FAIL, "t/expired: a new failure");
	tap_ok(t && strstr(t->reason, "known.txt:3 expired on 2020-06-30"), "  named FILE:LINE and the date");
	t = test_named(&s, "t/skip");
	tap_ok(t && t->cls == OUTCOME_SKIP, "t/skip: skip");
	rsuite_count(&s, &c);
	TAP_EQ_INT((int)c.tests, 6, "6 tests: the flaky one's first run folded into its last");
	tap_ok(c.pass == 3 && c.fail == 1 && c.skip == 2 && c.known == 1 && c.flaky == 1 && c.fixed == 1,
	       "  3 pass, 1 fail, 2 skipped (1 known), 1 flaky, 1 fixed");
	TAP_EQ_INT(known_exit(&s, &o, 1, 1, "vm1"), 1, "exit 1: the expired entry's failure is new");
	TAP_EQ_INT(known_exit(&s, &o, 3, 0, "vm1"), 3, "a status other tests made is kept (3)");

	xml = report(&s, junit_write);
	tap_ok(strstr(xml, "<skipped message=\"known failure: https://bugs.example/42\"/>"),
	       "JUnit: the known failure skipped with its reason");
	tap_ok(strstr(xml, "<property name=\"known-failure\" value=\"https://bugs.example/42\"/>"),
	       "  and a property");
	tap_ok(strstr(xml, "<property name=\"flaky\" value=\"1/2\"/>"), "  the flaky rate, a property");
	tap_ok(strstr(xml, "<system-out>flaky: 1 failure in 2 runs"), "  and in system-out");
	tap_ok(strstr(xml, "<property name=\"fixed\" value=\"https://bugs.example/7\"/>"), "  fixed");
	tap_ok(strstr(xml, "tests=\"6\" failures=\"1\" errors=\"0\" skipped=\"2\""), "  totals");
	tap = report(&s, ktap_write);
	tap_ok(strstr(tap, "    not ok 3 t/known # TODO known failure: https://bugs.example/42\n"),
	       "KTAP: not ok N name # TODO known failure: REASON");
	tap_ok(strstr(tap, "    # flaky: 1 failure in 2 runs\n    # second\n    ok 2 t/flaky\n"),
	       "  flaky: its rate, ok");
	tap_ok(strstr(tap, "    not ok 5 t/expired\n"), "  the expired one: not ok");
	tap_ok(strstr(tap, "    1..6\n"), "  the plan counts each test once");
	free(xml);
	free(tap);
	rsuite_free(&s);

	/* the same run with the expired entry renewed: nothing new */
	known_set_free(&o.set);
	opts_of(&o, "t/known # https://bugs.example/42\nt/fixed\nt/expired until=2030-01-01\n");
	suite_of(&s, "6.1.0-13-amd64", run1);
	TAP_EQ_INT(known_exit(&s, &o, 1, 1, "vm1"), 0, "every failure known or flaky: exit 0");
	s.exit = 0;
	tap_ok(!verdict_suite_failed(&s), "  the suite has not failed (the re-run's first failure is folded)");
	verdict_add_case(&s);
	rsuite_count(&s, &c);
	TAP_EQ_INT((int)c.fail, 0, "  and gets no failed testcase of its own");
	rsuite_free(&s);
	suite_of(&s, "6.1.0-13-amd64", run1);
	TAP_EQ_INT(known_exit(&s, &o, 1, 0, "vm1"), 1,
		   "  but 1 not made by failed tests alone (the guest failed otherwise) stays 1");
	rsuite_free(&s);
	suite_of(&s, "6.1.0-13-amd64", run1);
	o.strict = 1;
	TAP_EQ_INT(known_exit(&s, &o, 1, 1, "vm1"), 1, "--strict: the fixed test fails the run");
	t = test_named(&s, "t/fixed");
	tap_ok(t && t->state == RT_FAIL && strstr(t->reason, "(--strict)"), "  as a failed testcase");
	rsuite_free(&s);
	o.strict = 0;
	o.flaky = FLAKY_FAIL;
	suite_of(&s, "6.1.0-13-amd64", run1);
	TAP_EQ_INT(known_exit(&s, &o, 1, 1, "vm1"), 1, "--flaky=fail: the flaky test fails the run");
	rsuite_free(&s);
	o.flaky = FLAKY_PASS;
	suite_of(&s, "5.10.0", run1);
	TAP_EQ_INT(known_exit(&s, &o, 1, 1, "vm1"), 0, "an entry without a kernel: any kernel");
	rsuite_free(&s);
	known_set_free(&o.set);

	/* without its entry the known failure is a new one */
	opts_of(&o, "t/fixed\nt/expired\n");
	suite_of(&s, "6.1.0", run1);
	TAP_EQ_INT(known_exit(&s, &o, 1, 1, "vm1"), 1, "a failure the file does not name: exit 1");
	t = test_named(&s, "t/known");
	tap_ok(t && t->cls == OUTCOME_FAIL && t->state == RT_FAIL, "  t/known: fail (new)");
	rsuite_free(&s);
	known_set_free(&o.set);

	/* an entry for another kernel does not apply */
	opts_of(&o, "t/known 6.2.. \nt/expired 6.1.*\n");
	suite_of(&s, "6.1.0", run1);
	TAP_EQ_INT(known_exit(&s, &o, 1, 1, "vm1"), 1, "an entry for kernels from 6.2: 6.1 fails");
	rsuite_free(&s);
	known_set_free(&o.set);

	/* a glob for everything excuses no error, no kernel report, no ./vm testcase */
	opts_of(&o, "*\n");
	{
		static const char *const died[] = { "R1 start t/a", "R1 pass t/a 1 -", "R1 start t/hang", NULL };

		suite_of(&s, "6.1.0", died);
		TAP_EQ_INT(known_exit(&s, &o, 1, 1, "vm1"), 1, "'*': a test that did not finish still fails");
		t = test_named(&s, "t/hang");
		tap_ok(t && t->cls == OUTCOME_ERROR, "  it is an error");
		rsuite_free(&s);
	}
	{
		static const char *const splat[] = { "R1 start t/a", "R1 fail t/a 1 x -",
			"R1 kernel kernel:%20WARNING warning text", NULL };

		suite_of(&s, "6.1.0", splat);
		TAP_EQ_INT(known_exit(&s, &o, 1, 1, "vm1"), 1, "'*': a kernel report still fails");
		t = test_named(&s, "t/a");
		tap_ok(t && t->cls == OUTCOME_KNOWN, "  though the test is known");
		rsuite_free(&s);
	}
	{
		/* issue 40 #4: a report while the test ran fails it whatever its entry says */
		static const char *const during[] = { "R1 start t/hung", "R1 pass t/hung 1 -",
			"R1 splat t/hung kernel%20hung-task:%20INFO:%20task text 1",
			"R1 start t/both", "R1 fail t/both 1 x -",
			"R1 splat t/both kernel%20warning:%20WARNING text 1",
			"R1 start t/re", "R1 fail t/re 1 x -", "R1 rerun t/re 1", "R1 start t/re",
			"R1 pass t/re 1 -", "R1 splat t/re kernel%20bug:%20BUG text 1",
			"R1 kernel kernel:%20INFO:%20task hung-task text", NULL };

		suite_of(&s, "6.1.0", during);
		TAP_EQ_INT(known_exit(&s, &o, 1, 1, "vm1"), 1, "'*': a report during tests still fails");
		t = test_named(&s, "t/hung");
		tap_ok(t && t->cls == OUTCOME_FAIL && t->state == RT_FAIL,
		       "  a test failed only by a report is no known failure");
		tap_ok(t && strstr(t->reason, "kernel hung-task") &&
		       strstr(t->reason, "known.txt:1 does not excuse a kernel report"),
		       "  its reason says the entry does not excuse the report");
		t = test_named(&s, "t/both");
		tap_ok(t && t->cls == OUTCOME_FAIL && t->state == RT_FAIL,
		       "  nor one that failed on its own too");
		t = test_named(&s, "t/re");
		tap_ok(t && t->cls == OUTCOME_FAIL && t->state == RT_FAIL &&
		       strstr(t->reason, "a kernel report failed 1 of its 2 runs, then it passed"),
		       "  nor one whose report came in a run a re-run then passed");
		xml = report(&s, junit_write);
		tap_ok(!strstr(xml, "<skipped message=\"known failure"), "  JUnit: none of them skipped");
		free(xml);
		rsuite_free(&s);
	}
	{
		static const char *const own[] = { "R1 start t/a", "R1 fail t/a 1 x -", NULL };

		struct rtest *r;

		suite_of(&s, "6.1.0", own);
		r = rsuite_add_test(&s, "rapido: exit status 2: mkfs failed");
		r->state = RT_FAIL;
		TAP_EQ_INT(known_exit(&s, &o, 1, 1, "vm1"), 1, "'*': ./vm's own testcase still fails");
		rsuite_free(&s);
	}
	known_set_free(&o.set);

	/* a failure, then a skip on its re-run: still a failure */
	opts_of(&o, "");
	{
		static const char *const fs[] = { "R1 start t/s", "R1 fail t/s 1 x -", "R1 rerun t/s 1", "R1 start t/s",
			"R1 skip t/s 1 no%20disk -", NULL };

		suite_of(&s, "6.1.0", fs);
		TAP_EQ_INT(known_exit(&s, &o, 1, 1, "vm1"), 1, "failed, then skipped on its re-run: exit 1");
		t = test_named(&s, "t/s");
		tap_ok(t && t->cls == OUTCOME_FAIL && t->state == RT_FAIL, "  a failure, not flaky");
		rsuite_free(&s);
	}
	known_set_free(&o.set);

	/* failing every re-run: a failure, its runs counted */
	opts_of(&o, "");
	{
		static const char *const bad[] = { "R1 start t/b", "R1 fail t/b 1 x -", "R1 rerun t/b 1",
			"R1 start t/b", "R1 fail t/b 1 x -", "R1 rerun t/b 2", "R1 start t/b",
			"R1 fail t/b 1 x -", NULL };

		suite_of(&s, "6.1.0", bad);
		TAP_EQ_INT(known_exit(&s, &o, 1, 1, "vm1"), 1, "failing all 3 runs: exit 1");
		t = test_named(&s, "t/b");
		tap_ok(t && t->cls == OUTCOME_FAIL && t->runs == 3 && t->fails == 3, "  fail, 3 of 3 runs");
		rsuite_free(&s);
	}
	known_set_free(&o.set);

	/*
	 * the guest's tests failed (1, tests only) and its records show no
	 * failure that an entry or a re-run accounts for: a record was lost
	 * or forged, and nothing may excuse what the records do not show
	 */
	opts_of(&o, "t/k\n");
	{
		static const char *const none[] = { "R1 start t/p", "R1 pass t/p 1 -", NULL };
		static const char *const other[] = { "R1 start t/p", "R1 pass t/p 1 -", "R1 start t/k",
			"R1 fail t/k 1 x -", NULL };

		suite_of(&s, "6.1.0", none);
		TAP_EQ_INT(known_exit(&s, &o, 1, 1, "vm1"), 1,
			   "failed tests (1) and records of passes only: exit 1, not 0");
		rsuite_free(&s);
		suite_of(&s, "6.1.0", other);
		TAP_EQ_INT(known_exit(&s, &o, 1, 1, "vm1"), 0, "  a known failure in the records: exit 0");
		rsuite_free(&s);
		suite_of(&s, "6.1.0", none);
		TAP_EQ_INT(known_exit(&s, &o, 0, 0, "vm1"), 0, "  a guest that exited 0, all passed: 0");
		rsuite_free(&s);
	}
	known_set_free(&o.set);
	guest_error_cases();
}

static void write_cases(void)
{
	char dir[] = "/tmp/vm-known.XXXXXX", *path, *text = NULL;
	struct known_opts o;
	struct rsuite s;
	char *err = NULL;

	if (!mkdtemp(dir))
		exit(1);
	path = xasprintf("%s/known.txt", dir);
	opts_of(&o, known1);
	suite_of(&s, "6.1.0-13-amd64", run1);
	known_classify(&s, &o);
	text = "# our known failures\nt/fixed # https://bugs.example/7\nt/known # https://bugs.example/42\n";
	write_file_atomic(path, text, strlen(text), 0644);
	text = NULL;
	TAP_EQ_INT(known_write(path, &s, 1, TODAY, &err), 0, "--write-known-failures: written");
	read_file(path, &text, NULL);
	tap_ok(text && strstr(text, "# our known failures\n"), "  its comment kept");
	tap_ok(text && strstr(text, "# fixed: passed on 6.1.0-13-amd64 (2026-12-01): t/fixed # https://bugs.example/7\n"),
	       "  the fixed entry marked");
	tap_ok(text && strstr(text, "\nt/known # https://bugs.example/42\n"), "  the still failing one kept");
	tap_ok(text && strstr(text, "\nt/expired # failed on 6.1.0-13-amd64 (2026-12-01): "),
	       "  the new failure added");
	tap_ok(text && !strstr(text, "t/flaky"), "  the flaky test not added");
	free(text);
	text = NULL;
	TAP_EQ_INT(known_write(path, &s, 1, TODAY, &err), 0, "  written again");
	read_file(path, &text, NULL);
	tap_ok(text && strstr(text, "t/expired # failed") &&
	       !strstr(strstr(text, "t/expired # failed") + 1, "t/expired # failed"),
	       "  a failure already there is not added twice");
	free(text);
	write_file_atomic(path, "t/x until=2020-13-01\n", 21, 0644);
	TAP_EQ_INT(known_write(path, &s, 1, TODAY, &err), -EINVAL, "a file that does not parse: refused");
	tap_ok(err && strstr(err, "known.txt:1:"), "  naming FILE:LINE");
	free(err);
	rsuite_free(&s);
	known_set_free(&o.set);
	unlink(path);
	rmdir(dir);
	free(path);
}

int main(void)
{
	parser_cases();
	table_cases();
	write_cases();
	return tap_done();
}
