// SPDX-License-Identifier: GPL-2.0
/*
 * vm-results.c: fuzz the results.txt reader (rsuite_parse, as
 * --merge-results reads it) and the reports written from it. Properties:
 * the exit status is unknown (-1) or one meta exit's 0..255; no test is
 * left running; a failed suite has a failed testcase once the verdict
 * added one; junit.xml's times are plain decimals; results.tap is one
 * suite of KTAP lines only, `not ok` exactly when the suite failed. The
 * same lines from the guest (not ./vm's own file) add no kernel or meta
 * records, and follow the sequence rules (results.h): a refused line
 * sets s->bad, no two tests share a name but the runs of a re-run chain,
 * a re-run only under --rerun-failures (the first byte picks 0..2), and
 * without re-runs every failed record stays a failed test once
 * classified (no reused name or hand-written pass makes it flaky), and a
 * guest's error record stays an error (never known, never flaky).
 */
#include <errno.h>
#include <math.h>

#include "fuzz.h"
#include "known.h"
#include "results.h"
#include "verdict.h"

/* The guest's lines through the sequence rules, checked as said above. */
static void guest_sequence(char *guest, unsigned int rerun)
{
	struct known_opts o;
	struct rsuite g;
	char *save = NULL;
	int refused = 0;
	unsigned int failed = 0, problems;

	rsuite_init(&g);
	g.rerun_max = rerun;
	for (char *l = strtok_r(guest, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		int rc = rsuite_record(&g, l, 0, 1.0);

		fuzz_assert(rc == 0 || rc == -EINVAL || rc == -EBADMSG, "rc %d", rc);
		refused |= rc == -EBADMSG;
	}
	fuzz_assert(!refused == !g.bad, "refused %d, bad %s", refused, g.bad ? g.bad : "(none)");
	fuzz_assert(!g.exits && !g.name && !g.cause, "the guest set meta records");
	fuzz_assert(g.n <= RESULTS_TESTS_MAX, "%zu tests", g.n);
	rsuite_close_running(&g, 2.0, "the guest died");
	for (size_t i = 0; i < g.n; i++) {
		fuzz_assert(!g.t[i].kernel, "the guest added a kernel record");
		fuzz_assert(rerun || !g.t[i].rerun, "test %zu a re-run without --rerun-failures", i);
		fuzz_assert(g.t[i].rerun <= rerun, "re-run %u of %u", g.t[i].rerun, rerun);
		failed += g.t[i].state == RT_FAIL;
		for (size_t j = i + 1; j < g.n; j++)
			fuzz_assert(g.t[j].rerun || strcmp(g.t[i].name, g.t[j].name), "two tests named %s",
				    g.t[i].name);
	}
	memset(&o, 0, sizeof(o));
	known_set_init(&o.set);
	problems = known_classify(&g, &o);
	fuzz_assert(rerun || problems >= failed, "%u failed runs, %u problems", failed, problems);
	/* the guest's error (a test with no verdict) stays one: no re-run or name turns it */
	for (size_t i = 0; i < g.n; i++)
		fuzz_assert(g.t[i].hidden || !g.t[i].error ||
			    (g.t[i].cls == OUTCOME_ERROR && g.t[i].state == RT_FAIL),
			    "the error %s classed %d", g.t[i].name, (int)g.t[i].cls);
	rsuite_free(&g);
}

static char *report(const struct rsuite *s, void (*fn)(FILE *, const struct rsuite *, size_t))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	fn(f, s, 1);
	fclose(f);
	return buf;
}

static int ktap_line_ok(const char *l)
{
	while (*l == ' ')
		l++;
	return !strcmp(l, "KTAP version 1") || !strncmp(l, "1..", 3) || !strncmp(l, "# ", 2) ||
	       !strncmp(l, "ok ", 3) || !strncmp(l, "not ok ", 7);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), *guest = fuzz_cstr(data, size), *out, *p, *save = NULL;
	struct rsuite s;
	int failed, top = 0, top_not_ok = 0;

	rsuite_init(&s);
	rsuite_parse(&s, text);
	fuzz_assert(s.exit >= -1 && s.exit <= 255, "exit %d", s.exit);
	fuzz_assert(s.exit == -1 || s.exits == 1, "exit %d from %u meta exit records", s.exit, s.exits);
	fuzz_assert(s.exit != -1 || s.cause, "an unknown status without a cause");
	for (size_t i = 0; i < s.n; i++) {
		fuzz_assert(s.t[i].state != RT_RUNNING, "test %zu still running", i);
		fuzz_assert(isfinite(s.t[i].secs) && s.t[i].secs >= 0, "test %zu: %g s", i, s.t[i].secs);
	}
	failed = verdict_suite_failed(&s);
	verdict_add_case(&s);
	if (failed) {
		int any = 0;

		for (size_t i = 0; i < s.n; i++)
			any |= s.t[i].state == RT_FAIL;
		fuzz_assert(any, "a failed suite (exit %d) without a failed testcase", s.exit);
	}
	out = report(&s, junit_write);
	for (p = strstr(out, " time=\""); p; p = strstr(p + 1, " time=\"")) {
		const char *q = p + 7;
		size_t d = strspn(q, "0123456789");

		fuzz_assert(d > 0 && q[d] == '.' && strspn(q + d + 1, "0123456789") == 3 && q[d + 4] == '"',
			    "junit time %.20s", p);
	}
	free(out);
	out = report(&s, ktap_write);
	for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		fuzz_assert(ktap_line_ok(l), "not a KTAP line: \"%s\"", l);
		top += !strncmp(l, "ok ", 3) || !strncmp(l, "not ok ", 7);
		top_not_ok += !strncmp(l, "not ok ", 7);
	}
	fuzz_assert(top == 1, "%d top-level results for one suite", top);
	fuzz_assert(top_not_ok == failed, "suite failed %d, KTAP says %s", failed,
		    top_not_ok ? "not ok" : "ok");
	free(out);
	rsuite_free(&s);

	guest_sequence(guest, size ? data[0] % 3 : 0);
	free(guest);
	free(text);
	return 0;
}
