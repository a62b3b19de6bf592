// SPDX-License-Identifier: GPL-2.0
/* vm-results.c: records, splat scanning, VM_SPLATS, JUnit escaping, KTAP. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "known.h"
#include "pct.h"
#include "results.h"
#include "tap.h"

static const char console[] =
	"guest says WARNING: CPU: not a kernel line\r\n"
	"[   10.000001] ------------[ cut here ]------------\r\n"
	"[   10.000002] WARNING: CPU: 0 PID: 42 at fs/x.c:10 f+0x1/0x2\r\n"
	"[   10.000003] Call Trace:\r\n"
	"[   10.000004]  <TASK>\r\n"
	"[   10.000005]  </TASK>\r\n"
	"[   10.000006] ---[ end trace 0000000000000000 ]---\r\n"
	"[   11.000000] ==================================================================\n"
	"[   11.000001] BUG: KASAN: slab-out-of-bounds in g+0x1/0x2\n"
	"[   11.000002] Read of size 8\n"
	"[   11.000003] ==================================================================\n"
	"[   11.500000] unrelated line\n"
	"[   12.000000] ======================================================\n"
	"[   12.000001] WARNING: possible circular locking dependency detected\n"
	"[   12.000002] stack backtrace:\n"
	"[   12.000003] Call Trace:\n"
	"[   12.000004]  </TASK>\n"
	"prompt$ [   13.000000] BUG: kernel NULL pointer dereference, address: 0000000000000000\n"
	"[   13.000001] Oops: 0000 [#1] PREEMPT SMP NOPTI\n"
	"[   13.000002] ---[ end trace 0000000000000000 ]---\n"
	"[   13.000003] Kernel panic - not syncing: Fatal exception\n"
	"[   20.000000] INFO: task dd:99 blocked for more than 1 seconds.\n"
	"[   20.000001] Call Trace:\n"
	"[   25.000000] rcu: INFO: rcu_sched self-detected stall on CPU\n"
	"[   30.000000] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [x:1]\n"
	"[   40.000000] UBSAN: shift-out-of-bounds in a.c:1:2";

/* lines (NULL-ended) as the guest's, into a new s; how many were refused */
static int guest_lines(struct rsuite *s, const char *rerun, const char *const *lines)
{
	int bad = 0;

	rsuite_init(s);
	if (rerun) {
		char *m = xasprintf("R1 meta rerun %s", rerun);

		rsuite_record(s, m, 1, 0);
		free(m);
	}
	for (; *lines; lines++)
		bad += rsuite_record(s, *lines, 0, 1.0) == -EBADMSG;
	rsuite_close_running(s, 2.0, "the guest died");
	return bad;
}

/* The classes with no known failures: how many tests are problems */
static unsigned int problems(struct rsuite *s)
{
	struct known_opts o;

	memset(&o, 0, sizeof(o));
	known_set_init(&o.set);
	return known_classify(s, &o);
}

/* The guest's lines fmt with 0..n-1 (a "%u" in fmt): how many were refused (-EBADMSG). */
static int numbered(struct rsuite *s, const char *fmt, unsigned int n)
{
	int refused = 0;

	for (unsigned int i = 0; i < n; i++) {
		char l[64];

		snprintf(l, sizeof(l), fmt, i);
		refused += rsuite_record(s, l, 0, 1.0) == -EBADMSG;
	}
	return refused;
}

/* issue 40, items 1, 2 and 12: the record sequence the guest library writes, and no other */
static void test_sequence(void)
{
	static const char *const dup[] = { "R1 hello rapido-init", "R1 start dup",
		"R1 fail dup 0 exit%20status%201 -", "R1 start dup", "R1 pass dup 0 -", NULL };
	static const char *const forged[] = { "R1 hello rapido-init", "R1 start t",
		"R1 fail t 0 exit%20status%201 -", "R1 pass t 0 -", NULL };
	static const char *const rerun[] = { "R1 start t", "R1 fail t 0 x -", "R1 rerun t 1",
		"R1 start t", "R1 pass t 0 -", NULL };
	static const char *const named[] = { "R1 pass a 0 -", "R1 pass a#2 0 -", "R1 pass a 0 -",
		"R1 pass a#2 0 -", NULL };
	static const char *const refused[][4] = {
		{ "R1 start t", "R1 fail t 0 x -", "R1 rerun t 1", NULL },
		{ "R1 start t", "R1 pass t 0 -", "R1 rerun t 1", NULL },
		{ "R1 start t", "R1 fail t 0 x -", "R1 rerun t 2", NULL },
		{ "R1 start t", "R1 fail t 0 x -", "R1 rerun u 1", NULL },
		{ "R1 start t", "R1 hello rapido-init", NULL, NULL },
		{ "R1 failures tests", NULL, NULL, NULL },
		{ "R1 kernel forged x y", NULL, NULL, NULL },
		{ "R1 start t", "junk", NULL, NULL },
		/* an error is no failure a re-run may turn into a pass */
		{ "R1 start t", "R1 error t 0 x -", "R1 rerun t 1", NULL },
	};
	static const char *const why[] = { "no --rerun-failures", "did not fail", "1 to --rerun",
		"never ran", "only the guest init says hello", "status record", "guest library's",
		"guest library's", "did not fail" };
	struct rsuite s;
	char *big, *line, *text;
	int n;

	tap_ok(!guest_lines(&s, NULL, dup) && s.n == 2 && !strcmp(s.t[0].name, "dup") &&
	       !strcmp(s.t[1].name, "dup#2") && s.t[0].state == RT_FAIL && s.t[1].state == RT_PASS,
	       "a reused name without a re-run: two tests, the second dup#2");
	tap_ok(s.n == 2 && s.t[1].output && strstr(s.t[1].output, "an earlier test of this run is named dup"),
	       "  which says so in its output");
	TAP_EQ_INT((int)problems(&s), 1, "  the failure stays a failure, not flaky");
	rsuite_free(&s);
	tap_ok(!guest_lines(&s, NULL, forged) && s.n == 2 && s.t[0].state == RT_FAIL &&
	       !strcmp(s.t[1].name, "t#2"), "a pass after t failed (no start, no re-run): t#2");
	TAP_EQ_INT((int)problems(&s), 1, "  t still failed");
	rsuite_free(&s);
	tap_ok(!guest_lines(&s, "1", rerun) && s.n == 2 && !strcmp(s.t[1].name, "t") &&
	       s.t[1].rerun == 1, "a re-run said so, under --rerun-failures: a run of t");
	tap_ok(!problems(&s) && s.t[1].cls == OUTCOME_FLAKY, "  flaky");
	rsuite_free(&s);
	n = guest_lines(&s, NULL, named);
	tap_ok(!n && s.n == 4 && !strcmp(s.t[1].name, "a#2") && !strcmp(s.t[2].name, "a#3") &&
	       !strcmp(s.t[3].name, "a#2#2"), "a new name never takes one a test has: %s %s %s",
	       s.n > 1 ? s.t[1].name : "", s.n > 2 ? s.t[2].name : "", s.n > 3 ? s.t[3].name : "");
	rsuite_free(&s);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		n = guest_lines(&s, i ? "1" : NULL, refused[i]);
		tap_ok(n == 1 && s.bad && strstr(s.bad, why[i]) && strstr(s.bad, "the guest's record "),
		       "refused: %s: %s", refused[i][2] ? refused[i][2] : refused[i][1] ?
		       refused[i][1] : refused[i][0], s.bad ? s.bad : "(taken)");
		rsuite_free(&s);
	}
	text = strdup("R1 meta exit 0\nR1 failures tests\nR1 start t\nR1 pass t 0 -\n");
	rsuite_init(&s);
	rsuite_parse(&s, text);
	tap_ok(!s.bad && s.exit == 0, "an older results.txt's 'failures tests' is left alone");
	rsuite_free(&s);
	free(text);
	text = strdup("R1 meta exit 0\nR1 start t\nR1 fail t 0 x -\nR1 rerun t 1\nR1 pass t 0 -\n");
	rsuite_init(&s);
	rsuite_parse(&s, text);
	tap_ok(s.exit == -1 && s.cause && strstr(s.cause, "results.txt: the guest's record 3 ('R1 rerun t 1')"),
	       "a results.txt that breaks the sequence: an unknown status naming it: %s",
	       s.cause ? s.cause : "");
	rsuite_free(&s);
	free(text);

	/* the guest's own error record (rapido_test_error: LTP's TBROK) */
	{
		static const char *const err[] = { "R1 hello rapido-init", "R1 start b",
			"R1 error b 0.5 TBROK%3a%20no%20fd out", "R1 error e 0 why -", NULL };
		struct rcount c;
		char *sum;

		n = guest_lines(&s, NULL, err);
		tap_ok(!n && s.n == 2 && s.t[0].state == RT_FAIL && s.t[0].error && s.t[0].reason &&
		       !strcmp(s.t[0].reason, "TBROK: no fd") && s.t[1].error,
		       "the guest's error records taken, with and without a start: %s", s.bad ? s.bad : "");
		rsuite_count(&s, &c);
		tap_ok(c.fail == 2 && c.error == 2, "  counted as errors, among the failures");
		sum = results_summary(&c, 0);
		tap_ok(strstr(sum, "2 failed (2 errors)") != NULL, "  the summary says so: %s", sum);
		free(sum);
		TAP_EQ_INT((int)problems(&s), 2, "  both problems");
		rsuite_free(&s);
	}

	/* the watchdog's record of a renamed test that hangs: by the guest's name */
	rsuite_init(&s);
	rsuite_record(&s, "R1 start dup", 0, 1.0);
	rsuite_record(&s, "R1 pass dup 0 -", 0, 1.0);
	rsuite_record(&s, "R1 start dup", 0, 1.0);
	line = xasprintf("R1 error %s 1 no%%20progress -", rtest_guest_name(&s.t[1]));
	rsuite_record(&s, line, 1, 2.0);
	free(line);
	tap_ok(s.n == 2 && !s.running && s.t[1].error && !strcmp(s.t[1].name, "dup#2"),
	       "the watchdog's error record ends the running dup#2");
	rsuite_free(&s);

	/* the caps: bytes, then tests */
	rsuite_init(&s);
	big = malloc(RESULTS_RECORD_MAX - 64);
	memset(big, 'x', RESULTS_RECORD_MAX - 65);
	big[RESULTS_RECORD_MAX - 65] = '\0';
	n = 0;
	for (unsigned int i = 0; i < (RESULTS_VOLUME_MAX >> 20) + 2; i++) {
		line = xasprintf("R1 pass t%u 0 %s", i, big);
		n += rsuite_record(&s, line, 0, 1.0) == -EBADMSG;
		free(line);
	}
	tap_ok(n == 2 && s.n == (RESULTS_VOLUME_MAX >> 20) && s.bad &&
	       strstr(s.bad, "cap of 64 MiB a run (RESULTS_VOLUME_MAX)"),
	       "past 64 MiB of records: refused, named, the rest dropped: %s", s.bad ? s.bad : "");
	rsuite_free(&s);
	free(big);
	rsuite_init(&s);
	n = numbered(&s, "R1 pass t%u 0 -", RESULTS_TESTS_MAX + 5);
	tap_ok(n == 5 && s.n == RESULTS_TESTS_MAX && s.bad && strstr(s.bad, "RESULTS_TESTS_MAX"),
	       "past %u tests: refused, named", RESULTS_TESTS_MAX);
	/* ./vm's own records (not run, the results port) are never the guest's, never capped */
	tap_ok(rsuite_record(&s, "R1 error rapido:%20results%20port 0 why -", RSUITE_VM, 0) == 0 &&
	       s.n == RESULTS_TESTS_MAX + 1 && strstr(s.bad, "RESULTS_TESTS_MAX"),
	       "  ./vm's own error record after the cap: taken, the cause still the guest's");
	rsuite_free(&s);

	/*
	 * a guest that names its tests a#2..a#50001, then reuses a 50000
	 * times: each new a#K is found after the last one taken, not by a
	 * walk from a#2 each time (that took minutes, live and in a merge)
	 */
	rsuite_init(&s);
	n = 0;
	for (unsigned int i = 0; i < 2 * 50000; i++) {
		char l[64];

		if (i < 50000)
			snprintf(l, sizeof(l), "R1 pass a#%u 0 -", i + 2);
		else
			snprintf(l, sizeof(l), "R1 pass a 0 -");
		n += rsuite_record(&s, l, 0, 1.0) != 0;
	}
	tap_ok(!n && s.n == 100000 && !strcmp(s.t[50001].name, "a#50002") &&
	       !strcmp(s.t[99999].name, "a#100000"), "a#2..a#50001, then a 50000 times: a, a#50002 ... %s",
	       s.n ? s.t[s.n - 1].name : "");
	rsuite_free(&s);

	/*
	 * plan records: each name once, looked up in O(1) (200000 of them
	 * took 39 s, 64 MiB of them hours), at most RESULTS_TESTS_MAX names;
	 * a plan entry is no test, so a#2 planned is still a name to give
	 */
	rsuite_init(&s);
	n = numbered(&s, "R1 plan p%u", 3);
	n += numbered(&s, "R1 plan p%u", RESULTS_TESTS_MAX + 3);
	tap_ok(n == 3 && s.plan.n == RESULTS_TESTS_MAX && s.bad && strstr(s.bad, "RESULTS_TESTS_MAX"),
	       "past %u planned tests: refused, named; a name planned twice is one: %s",
	       RESULTS_TESTS_MAX, s.bad ? s.bad : "");
	rsuite_free(&s);
	rsuite_init(&s);
	rsuite_record(&s, "R1 plan a#2", 0, 1.0);
	rsuite_record(&s, "R1 plan a", 0, 1.0);
	rsuite_record(&s, "R1 pass a 0 -", 0, 1.0);
	rsuite_record(&s, "R1 pass a 0 -", 0, 1.0);
	tap_ok(s.n == 2 && !strcmp(s.t[1].name, "a#2") && rsuite_has_test(&s, "a") &&
	       rsuite_has_test(&s, "a#2") && !rsuite_has_test(&s, "b"),
	       "a planned a#2 that never ran leaves the name to the second a");
	rsuite_free(&s);
}

int main(void)
{
	struct splat_scan sc;
	struct rsuite s;
	struct rcount c;
	unsigned int mask;
	char *err = NULL, *buf = NULL, *e;
	size_t len = 0;
	FILE *f;

	tap_plan(37 + 22);
	test_sequence();
	splat_scan_init(&sc);
	/* byte by byte: a report split across reads is still one report */
	for (size_t i = 0; i < sizeof(console) - 1; i++)
		splat_feed(&sc, console + i, 1);
	splat_finish(&sc);
	TAP_EQ_INT(sc.n, 8, "eight reports, the guest's own WARNING line not one of them");
	if (sc.n == 8) {
		TAP_EQ_INT(sc.v[0].kind, SPLAT_WARNING, "WARNING: CPU:");
		TAP_EQ_STR(sc.v[0].title, "WARNING: CPU: 0 PID: 42 at fs/x.c:10 f+0x1/0x2", "title without timestamp");
		TAP_EQ_INT(sc.v[0].lines, 5, "the WARNING ends at its end-trace line");
		TAP_EQ_INT(sc.v[1].kind, SPLAT_KASAN, "KASAN, not BUG");
		TAP_EQ_INT(sc.v[1].lines, 3, "KASAN ends at its closing rule");
		TAP_EQ_INT(sc.v[2].kind, SPLAT_LOCKDEP, "lockdep, not WARNING");
		TAP_EQ_INT(sc.v[3].kind, SPLAT_BUG, "a BUG in the middle of a prompt line");
		tap_ok(strstr(sc.v[3].text, "Oops: 0000") && strstr(sc.v[3].text, "Fatal exception"),
		       "the Oops and the panic it caused stay in the BUG's report");
		TAP_EQ_INT(sc.v[4].kind, SPLAT_HUNG_TASK, "hung task");
		TAP_EQ_INT(sc.v[5].kind, SPLAT_RCU_STALL, "RCU stall");
		TAP_EQ_INT(sc.v[6].kind, SPLAT_SOFT_LOCKUP, "soft lockup, not BUG");
		TAP_EQ_INT(sc.v[7].kind, SPLAT_UBSAN, "UBSAN on a last line without newline");
	} else {
		for (int i = 0; i < 12; i++)
			tap_ok(0, "skipped: wrong count");
	}
	splat_scan_free(&sc);

	tap_ok(!splat_mask_parse("all,-warning", &mask, &err) && mask == (SPLAT_ALL & ~(1u << SPLAT_WARNING)),
	       "all,-warning");
	tap_ok(!splat_mask_parse("none oops", &mask, &err) && mask == 1u << SPLAT_OOPS, "none oops");
	tap_ok(splat_mask_parse("all,-oopses", &mask, &err) && strstr(err, "'oopses'"),
	       "an unknown kind is named");
	free(err);
	/* issue 40 #5: detection is turned off only by saying none */
	tap_ok(!splat_mask_parse("none", &mask, &err) && mask == 0, "none: no kind counts");
	for (size_t i = 0; i < 5; i++) {
		static const char *const bad[] = { "", ",", " , ", "-bug", "bug,-bug" };

		tap_ok(splat_mask_parse(bad[i], &mask, &err) && err && strstr(err, bad[i]),
		       "'%s' is refused, named", bad[i]);
		free(err);
	}

	rsuite_init(&s);
	e = pct_field("a b%c\n-");
	TAP_EQ_STR(e, "a%20b%25c%0a-", "escape");
	free(e);
	rsuite_record(&s, "R1 start t1", 0, 1.0);
	rsuite_record(&s, "R1 pass t1 0.5 -", 0, 2.0);
	rsuite_record(&s, "R1 start t2", 0, 3.0);
	rsuite_record(&s, "R1 fail t3 1 bad%20<&> out\x01put", 0, 3.0);
	tap_ok(rsuite_record(&s, "R1 kernel forged x y", 0, 3.0) && rsuite_record(&s, "junk", 0, 3.0) &&
	       !strcmp(s.bad, "the guest's record 5 ('R1 kernel forged x y'): no record of the guest "
		       "library's (autorun/lib/results.sh)"),
	       "the guest cannot add kernel records; junk is no record");
	rsuite_close_running(&s, 5.0, "the guest died");
	rsuite_count(&s, &c);
	tap_ok(c.tests == 3 && c.pass == 1 && c.fail == 2 && c.skip == 0, "counts: unfinished t2 failed");
	f = open_memstream(&buf, &len);
	junit_write(f, &s, 1);
	fclose(f);
	tap_ok(strstr(buf, "<failure message=\"bad &lt;&amp;&gt;\" type=\"failure\">out?put</failure>") != NULL,
	       "JUnit: escaped, control characters replaced");
	tap_ok(strstr(buf, "name=\"t2\" time=\"2.000\">\n      <failure message=\"did not finish: the guest died\"") != NULL,
	       "JUnit: the unfinished test with its time");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	ktap_write(f, &s, 1);
	fclose(f);
	tap_ok(strstr(buf, "KTAP version 1\n1..1\n") && strstr(buf, "    ok 1 t1\n") &&
	       strstr(buf, "    not ok 3 t3\n") && strstr(buf, "not ok 1 rapido\n"), "KTAP");
	free(buf);
	buf = NULL;
	rsuite_record(&s, "R1 error t4 1 TBROK -", 0, 6.0);
	f = open_memstream(&buf, &len);
	ktap_write(f, &s, 1);
	fclose(f);
	tap_ok(strstr(buf, "    # TBROK\n    not ok 4 t4\n") &&
	       strstr(buf, ": 1 passed, 3 failed (1 error), 0 skipped"), "KTAP: an error, not ok, counted");
	free(buf);
	rsuite_free(&s);
	return tap_done();
}
