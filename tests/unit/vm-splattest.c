// SPDX-License-Identifier: GPL-2.0
/*
 * vm-splattest.c: kernel reports tied to the test that ran (splattest.c),
 * the --splats-allow file, planned tests, error records, JUnit <error>
 * and properties, run.json's JSON, and --compare-results' verdict changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "abcompare.h"
#include "err.h"
#include "provenance.h"
#include "results.h"
#include "splattest.h"
#include "tap.h"
#include "vm.h"

/* console lines 1..9: a WARNING during test a (lines 3-5), a hung task outside any test */
static const char console[] =
	"[    1.000000] booting\n"				/* 1 */
	"rapido: test a starts\n"				/* 2 */
	"[    2.000000] WARNING: CPU: 0 PID: 7 at fs/x.c:10 f+0x1/0x2\n"	/* 3 */
	"[    2.000001] Call Trace:\n"				/* 4 */
	"[    2.000002] ---[ end trace 0000000000000000 ]---\n"	/* 5 */
	"rapido: test a: passed\n"				/* 6 */
	"[    9.000000] INFO: task dd:99 blocked for more than 1 seconds.\n"	/* 7 */
	"[    9.000001] Call Trace:\n"				/* 8 */
	"[    9.000002]  </TASK>\n";				/* 9 */

/* how many times NEEDLE is in HAY */
static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static char *junit(const struct rsuite *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	junit_write(f, s, 1);
	fclose(f);
	return buf;
}

static void apply(struct rsuite *s, const struct strv *recs)
{
	for (size_t i = 0; i < recs->n; i++)
		rsuite_record(s, recs->v[i], 1, 0);
}

static void test_allow(void)
{
	struct splat_allow a;
	char *err = NULL;
	const struct splat_allow_entry *e;

	TAP_EQ_INT(splat_allow_parse(&a, "allow", "# comment\n\n"
				     "^WARNING: CPU: [0-9]+ PID: [0-9]+ at fs/x\\.c # https://bugs/1\n"
				     "blocked for more # than # it looks\n", &err), 0,
		   "an allow file with comments and a '#' in a regex parses");
	TAP_EQ_INT(a.n, 2, "two entries");
	e = splat_allow_match(&a, "WARNING: CPU: 0 PID: 7 at fs/x.c:10 f+0x1/0x2");
	tap_ok(e && e->line == 3 && !strcmp(e->reason, "https://bugs/1"), "the WARNING matches line 3 with its reason");
	e = splat_allow_match(&a, "INFO: task dd:99 blocked for more than 1 seconds.");
	tap_ok(!e, "the last ' #' splits: 'blocked for more # than' is the regex, which the title lacks");
	tap_ok(strlen(a.sha256) == 64, "the file's sha256");
	splat_allow_free(&a);

	err = NULL;
	TAP_EQ_INT(splat_allow_parse(&a, "f", "ok # fine\nno reason here\n([ # bad regex\n", &err), -22,
		   "bad lines are refused");
	tap_ok(err && strstr(err, "f:2: no reason for 'no reason here'") &&
	       strstr(err, "f:3: bad regular expression '(['"), "each bad line named with FILE:LINE: %s",
	       err ? err : "(none)");
	free(err);
	err = NULL;
	TAP_EQ_INT(splat_allow_parse(&a, "f", "x #   \n", &err), -22, "an empty reason is no reason");
	free(err);
}

static void test_attribution(void)
{
	struct splat_scan sc;
	struct rsuite s;
	struct strv recs = STRV_INIT;
	struct splat_allow a;
	unsigned int counted;
	char *err, *x;

	splat_scan_init(&sc);
	splat_feed(&sc, console, sizeof(console) - 1);
	splat_finish(&sc);
	TAP_EQ_INT(sc.n, 2, "two reports");
	TAP_EQ_INT(sc.v[0].first_line, 3, "the WARNING starts on console line 3");
	TAP_EQ_INT(sc.v[0].last_line, 5, "and ends on line 5");

	rsuite_init(&s);
	rsuite_record(&s, "R1 plan a", 0, 0);
	rsuite_record(&s, "R1 plan b", 0, 0);
	rsuite_record(&s, "R1 start a", 0, 1);
	s.t[s.last - 1].con_from = 2;
	rsuite_record(&s, "R1 pass a 1.0 -", 0, 2);
	s.t[s.last - 1].con_to = 6;
	TAP_EQ_INT(s.plan.n, 2, "two planned tests");

	splat_records(&s, &sc, SPLAT_ALL, NULL, &recs, &counted, 0);
	TAP_EQ_INT(counted, 2, "both reports count");
	TAP_EQ_INT(recs.n, 3, "a splat record for test a, two run-level ones");
	apply(&s, &recs);
	TAP_EQ_INT(s.t[0].state, RT_FAIL, "test a failed for the WARNING it ran into");
	TAP_EQ_STR(s.t[0].reason, "kernel warning: WARNING: CPU: 0 PID: 7 at fs/x.c:10 f+0x1/0x2 "
		   "(console.log lines 3-5)", "named by the report's first line and its lines");
	tap_ok(s.t[0].output && strstr(s.t[0].output, "--- kernel warning report, console.log lines 3-5 ---\n"
				       "[    2.000000] WARNING"), "the report is in its output");
	tap_ok(s.n == 3 && s.t[2].kernel && s.t[2].state == RT_FAIL &&
	       !strcmp(s.t[2].name, "kernel: INFO: task dd:99 blocked for more than 1 seconds."),
	       "the hung task outside any test is a run-level testcase");
	rsuite_record(&s, "R1 splat a kernel%20hung-task:%20again second%20report", 1, 0);
	tap_ok(!strncmp(s.t[0].reason, "kernel warning: ", 16) && strstr(s.t[0].output, "\nsecond report"),
	       "a second report of the test: its reason stays the first's, its text is added");
	strv_free(&recs);

	/* allowed: fails nothing, listed as a skipped testcase with its FILE:LINE */
	rsuite_free(&s);
	rsuite_init(&s);
	rsuite_record(&s, "R1 start a", 0, 1);
	s.t[0].con_from = 1;
	TAP_EQ_INT(splat_allow_parse(&a, "al", "^WARNING: # bug 1\n", &err), 0, "allow file");
	splat_records(&s, &sc, SPLAT_ALL, &a, &recs, &counted, 0);
	TAP_EQ_INT(counted, 1, "the allowed WARNING does not count");
	apply(&s, &recs);
	rsuite_close_running(&s, 0, "the kernel panicked");
	tap_ok(s.t[0].state == RT_FAIL && !strcmp(s.t[0].reason, "kernel hung-task: INFO: task dd:99 blocked "
						  "for more than 1 seconds. (console.log lines 7-9)"),
	       "a test still running when the report came (a panic) fails with the report's line, "
	       "not 'did not finish': %s", s.t[0].reason);
	tap_ok(s.t[1].kernel && s.t[1].state == RT_SKIP &&
	       !strcmp(s.t[1].reason, "kernel warning, allowed by al:1: bug 1"), "the allowed report is listed");
	splat_allow_free(&a);
	strv_free(&recs);

	/* error records, JUnit <error>, properties */
	rsuite_record(&s, "R1 error b 0 not%20run:%20the%20VM%20was%20stopped%20during%20a -", 1, 0);
	rsuite_record(&s, "R1 error c 0 guest -", 0, 0);
	rsuite_record(&s, "R1 meta prov.kernel_release 6.1%20x", 1, 0);
	rsuite_record(&s, "R1 meta prov.kernel_release 6.1.0", 1, 0);
	TAP_EQ_INT(s.prop_keys.n, 1, "a property recorded twice is one");
	x = junit(&s);
	TAP_EQ_INT(count(x, "<property name=\"kernel_release\" "), 1,
		   "the provenance's release, once");
	free(x);
	rsuite_record(&s, "R1 meta kernel 6.1.0", 1, 0);
	x = junit(&s);
	TAP_EQ_INT(count(x, "<property name=\"kernel_release\" "), 1,
		   "a meta kernel record too: the release still once");
	TAP_EQ_INT(count(x, "<property name=\"kernel\" "), 0,
		   "  and no kernel property for it");
	free(x);
	rsuite_record(&s, "R1 meta prov.kernel /boot/vmlinuz-6.1.0", 1, 0);
	x = junit(&s);
	TAP_EQ_INT(count(x, "<property name=\"kernel\" "), 1,
		   "one kernel property, the provenance's kernel image");
	tap_ok(strstr(x, "<property name=\"kernel\" value=\"/boot/vmlinuz-6.1.0\"/>"),
	       "  which is the kernel image");
	tap_ok(strstr(x, "<error message=\"not run: the VM was stopped during a\" type=\"error\">"),
	       "an error record is a JUnit <error>");
	/* a test that reached no verdict in the guest (LTP's TBROK) is an error too */
	tap_ok(strstr(x, "name=\"c\""), "the guest writes an error record too");
	tap_ok(strstr(x, "failures=\"2\" errors=\"2\""), "errors counted apart from failures");
	tap_ok(strstr(x, "<property name=\"kernel_release\" value=\"6.1.0\"/>"), "provenance as a property");
	free(x);
	rsuite_free(&s);
	splat_scan_free(&sc);
}

/*
 * A test re-run (--rerun-failures) has a start record per run: a report in
 * its first run fails the first run, not the last, so the test is flaky.
 */
static void test_rerun(void)
{
	struct splat_scan sc;
	struct rsuite s;
	struct strv recs = STRV_INIT;
	unsigned int counted;
	char *text;

	splat_scan_init(&sc);
	splat_feed(&sc, console, sizeof(console) - 1);
	splat_finish(&sc);
	rsuite_init(&s);
	rsuite_record(&s, "R1 meta rerun 1", 1, 0);
	rsuite_record(&s, "R1 start a", 0, 1);
	s.t[s.last - 1].con_from = 2;
	rsuite_record(&s, "R1 fail a 1.0 broke -", 0, 2);
	s.t[s.last - 1].con_to = 6;
	rsuite_record(&s, "R1 rerun a 1", 0, 3);
	rsuite_record(&s, "R1 start a", 0, 3);
	s.t[s.last - 1].con_from = 10;
	rsuite_record(&s, "R1 pass a 1.0 -", 0, 4);
	s.t[s.last - 1].con_to = 11;
	splat_records(&s, &sc, SPLAT_ALL, NULL, &recs, &counted, 0);
	tap_ok(recs.n == 3 && !strncmp(recs.v[0], "R1 splat a ", 11) &&
	       !strcmp(recs.v[0] + strlen(recs.v[0]) - 2, " 1"),
	       "the WARNING's record names run 1 of test a: %s", recs.n ? recs.v[0] : "(none)");
	apply(&s, &recs);
	tap_ok(s.n == 4 && s.t[0].state == RT_FAIL && s.t[0].splats == 1 && s.t[1].state == RT_PASS &&
	       !s.t[1].splats, "the first run fails for it, the re-run that passed stays passed");
	TAP_EQ_STR(s.t[0].reason, "broke; kernel warning: WARNING: CPU: 0 PID: 7 at fs/x.c:10 "
		   "f+0x1/0x2 (console.log lines 3-5)", "  the first run's reason, then the report's");

	/* as results.txt is read again (--merge-results): the same, and RUN checked */
	text = xasprintf("R1 meta rerun 1\nR1 start a\nR1 fail a 1 broke -\nR1 rerun a 1\nR1 start a\n"
			 "R1 pass a 1 -\n%s\n", recs.v[0]);
	rsuite_free(&s);
	rsuite_init(&s);
	rsuite_parse(&s, text);
	tap_ok(s.n == 2 && s.t[0].splats == 1 && !s.t[1].splats && s.t[1].state == RT_PASS,
	       "read back from results.txt, the report stays in run 1");
	TAP_EQ_INT(rsuite_record(&s, "R1 splat a r t 3", 1, 0), -22, "a RUN the test never had is refused");
	TAP_EQ_INT(rsuite_record(&s, "R1 splat a r t 0", 1, 0), -22, "  and RUN 0");
	TAP_EQ_INT(rsuite_record(&s, "R1 splat a r t x", 1, 0), -22, "  and a RUN that is no number");
	TAP_EQ_INT(rsuite_record(&s, "R1 splat a r t", 1, 0), 0, "without RUN (an older ./vm's): taken");
	tap_ok(s.t[1].state == RT_FAIL && s.t[1].splats == 1, "  by the last run");
	free(text);
	strv_free(&recs);
	rsuite_free(&s);
	splat_scan_free(&sc);
}

static void test_json(void)
{
	struct prov p = { 0 };
	json_error_t je;
	json_t *o;
	char *j;

	prov_add(&p, "host", "a\"b\\c\n\x01\x7f\xff\xc3\xa9\xef\xbf\xbf");
	prov_add(&p, "empty", NULL);
	j = prov_json(&p);
	/* as strictly as QMP is read */
	o = json_loads(j, JSON_REJECT_DUPLICATES, &je);
	tap_ok(o != NULL, "run.json with quotes, controls and bytes that are not UTF-8 is valid JSON%s%s",
	       o ? "" : ": ", o ? "" : je.text);
	TAP_EQ_STR(json_string_value(json_object_get(o, "host")),
		   "a\"b\\c\n\x01\x7f\xef\xbf\xbd\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
		   "  each read back as it was, UTF-8 kept, each other byte (U+FFFF's too) as U+FFFD");
	TAP_EQ_STR(json_string_value(json_object_get(o, "empty")), "", "  NULL as \"\"");
	TAP_EQ_STR(j, "{\n  \"host\": \"a\\\"b\\\\c\\n\\u0001\x7f\xef\xbf\xbd\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\",\n"
		   "  \"empty\": \"\"\n}\n", "  two spaces a level, in the order added, a newline at the end");
	json_decref(o);
	free(j);
	prov_free(&p);
}

static const char run_a[] =
	"R1 meta exit 0\n"
	"R1 pass p1 1 -\nR1 pass p2 1 -\nR1 fail f1 1 x -\nR1 pass gone 1 -\nR1 pass fl 1 -\n"
	"R1 kernel kernel:%20WARNING:%20CPU:%200%20PID:%2012%20at%20a.c:3%20g+0x1a/0x40 warning -\n";
static const char run_b[] =
	"R1 meta exit 1\nR1 meta rerun 1\n"
	"R1 pass p1 1 -\nR1 fail p2 1 broke -\nR1 pass f1 1 -\nR1 fail fl 1 y -\nR1 rerun fl 1\n"
	"R1 pass fl 1 -\n"
	"R1 pass new 1 -\n"
	"R1 kernel kernel:%20WARNING:%20CPU:%201%20PID:%2099%20at%20a.c:3%20g+0x2b/0x40 warning -\n";

static unsigned int compare(const char *ta, const char *tb, char **out)
{
	struct rsuite a, b;
	struct abrun ra, rb;
	char *x = strdup(ta), *y = strdup(tb);
	size_t len = 0;
	FILE *f = open_memstream(out, &len);
	unsigned int r;

	rsuite_init(&a);
	rsuite_init(&b);
	rsuite_parse(&a, x);
	rsuite_parse(&b, y);
	abrun_of_suite(&ra, &a);
	abrun_of_suite(&rb, &b);
	r = ab_compare(&ra, &rb, f);
	fclose(f);
	abrun_free(&ra);
	abrun_free(&rb);
	rsuite_free(&a);
	rsuite_free(&b);
	free(x);
	free(y);
	return r;
}

static void test_compare(void)
{
	char *out;
	unsigned int r = compare(run_a, run_b, &out);

	TAP_EQ_INT(r, 3, "B regressed: a new failure, a vanished test, a failed run");
	tap_ok(strstr(out, "new failure: p2: pass -> fail: broke\n"), "the new failure with its reason");
	tap_ok(strstr(out, "fixed: f1: fail -> pass\n"), "the fix");
	tap_ok(strstr(out, "newly flaky: fl: pass -> flaky: y\n"), "failed and passed: newly flaky");
	tap_ok(strstr(out, "vanished: gone: pass -> absent\n"), "the vanished test");
	tap_ok(strstr(out, "appeared: new: absent -> pass\n"), "the new test");
	tap_ok(!strstr(out, "kernel:"), "a kernel report with other numbers is the same report");
	tap_ok(strstr(out, "compare: 1 new failure, 1 fixed, 1 newly flaky, 1 appeared, 1 vanished: regressed\n"),
	       "the summary: %s", out);
	free(out);
	TAP_EQ_INT(compare(run_b, run_b, &out), 0, "a run against itself: no regression");
	tap_ok(strstr(out, "no regression") && !strstr(out, "->"), "and nothing changed");
	free(out);
	TAP_EQ_INT(compare(run_b, run_a, &out), 2, "back again: the fixed test fails anew, new vanished");
	free(out);
}

int main(void)
{
	tap_plan(57);
	test_allow();
	test_attribution();
	test_rerun();
	test_json();
	test_compare();
	return tap_done();
}
