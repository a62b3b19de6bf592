// SPDX-License-Identifier: GPL-2.0
/*
 * lib-results-door.c: src/results is a library with no launcher in it
 * (issue 41): a run's results collected, decided and written through
 * the one door, struct results_ctx (resctx.h), with no src/vm object
 * linked (a lib-* test links the rooms only): the suite's meta records
 * and run.json come from the context, known failures excuse a failed
 * test, and the --jobs records of several VMs merge into one run; the
 * known-failure options' help is the room's own.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abcompare.h"
#include "collect.h"
#include "err.h"
#include "io.h"
#include "jobsres.h"
#include "known.h"
#include "rapido.h"
#include "resctx.h"
#include "results.h"
#include "splatkind.h"
#include "splattest.h"
#include "tap.h"

static char *slurp(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *text = NULL;

	if (read_file(path, &text, NULL))
		text = xstrdup("");
	free(path);
	return text;
}

/* One run through the door: records in, the exit status out. */
static int run(const struct results_ctx *c, const char *recs, int rc)
{
	struct results_run *r = results_open(c);
	struct splat_scan sc;
	char *cause;

	results_input(r, recs, strlen(recs), 1.0, 0);
	splat_scan_init(&sc);
	rc = results_finish(r, c, &sc, rc, NULL, 1.0, 2.0, &cause);
	free(cause);
	splat_scan_free(&sc);
	results_free(r);
	return rc;
}

int main(void)
{
	char dir[] = "/tmp/rapido-door.XXXXXX", *text, *sub[2], *known, *err;
	static const char recs[] = "R1 hello rapido-init\nR1 start t1\nR1 pass t1 0.1 -\n"
				   "R1 start t2\nR1 fail t2 0.1 broken -\n";
	static const char recs2[] = "R1 hello rapido-init\nR1 start t3\nR1 pass t3 0.1 -\n"
				    "R1 start t4\nR1 fail t4 0.1 tracked -\n";
	struct known_opts none = { 0 }, ko = { 0 };
	struct results_ctx c;
	struct results_job jobs[2];
	struct rsuite a, b;
	struct abrun ra, rb;
	FILE *devnull;
	int rc, saved, null;

	tap_plan(15);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	memset(&c, 0, sizeof(c));
	c.dir = sub[0] = xasprintf("%s/shard-1", dir);
	snprintf(c.dir_where, sizeof(c.dir_where), "--results");
	c.known = &none;
	c.splat_mask = SPLAT_ALL;
	c.shard_i = 1;
	c.shard_n = 2;
	c.vm = 7;
	c.profile = "prof";
	c.release = "6.1.0";
	c.accel = "tcg";

	/* a failed test: 1, the suite named from the context */
	rc = run(&c, recs, 0);
	TAP_EQ_INT(rc, VM_EXIT_TESTS_FAILED, "a failed test: exit status 1");
	text = slurp(c.dir, "results.txt");
	tap_ok(strstr(text, "R1 meta suite prof%20shard%201/2\n") != NULL,
	       "the suite is the context's profile and shard");
	tap_ok(strstr(text, "R1 meta kernel 6.1.0\n") != NULL, "  its kernel release");
	tap_ok(strstr(text, "R1 meta exit 1\n") != NULL, "  the exit status last");
	free(text);
	text = slurp(c.dir, "run.json");
	tap_ok(strstr(text, "\"accel\": \"tcg\"") != NULL, "run.json: the context's accelerator");
	tap_ok(strstr(text, "\"shard\": \"1/2\"") != NULL, "  its shard");
	tap_ok(strstr(text, "\"profile\": \"prof\"") != NULL, "  its profile");
	free(text);
	text = slurp(c.dir, "junit.xml");
	tap_ok(strstr(text, "broken") != NULL, "junit.xml written, with the failure");
	free(text);

	/* the same run with t2 a known failure: 0 */
	known_set_init(&ko.set);
	known = xasprintf("%s/known", dir);
	TAP_EQ_INT(write_file_atomic(known, "t4 # tracked\n", 13, 0644), 0, "a known-failures file");
	TAP_EQ_INT(known_parse(&ko.set, known, "t4 # tracked\n", &err), 0, "  parsed");
	c.known = &ko;
	c.dir = sub[1] = xasprintf("%s/shard-2", dir);
	c.shard_i = 2;
	rc = run(&c, recs2, 0);
	TAP_EQ_INT(rc, 0, "t4 known through the context's options: exit status 0");

	/* the two as one --jobs run: the merge fails on shard 1's new failure */
	jobs[0] = (struct results_job){ sub[0], 1, 1, 1 };
	jobs[1] = (struct results_job){ sub[1], 2, 1, 0 };
	c.dir = dir;
	c.jobs = 2;
	c.known = &none;
	/* its summary on stdout is not TAP */
	fflush(stdout);
	saved = dup(1);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved < 0 || null < 0 || dup2(null, 1) < 0) {
		perror("/dev/null");
		return 1;
	}
	rc = results_jobs_merge(dir, jobs, 2);
	fflush(stdout);
	if (dup2(saved, 1) < 0) {
		perror("dup2");
		return 1;
	}
	close(saved);
	close(null);
	TAP_EQ_INT(rc, 1, "the merge of both: 1 (shard 1's failure is new to it)");
	results_jobs_records(&c, jobs, 2, 1, 1, "2026-01-01T00:00:00Z", 3.0);

	/* that run's records are both shards' as one suite, compared as one */
	rsuite_init(&a);
	rsuite_init(&b);
	text = xasprintf("%s/results.txt", dir);
	TAP_EQ_INT(rsuite_load(&a, text, &err) | rsuite_load(&b, text, &err), 0,
		   "DIR/results.txt reads as one run");
	free(text);
	TAP_EQ_INT((int)a.n, 4, "  both shards' four tests");
	devnull = fopen("/dev/null", "w");
	abrun_of_suite(&ra, &a);
	abrun_of_suite(&rb, &b);
	TAP_EQ_INT(ab_compare(&ra, &rb, devnull), 0, "  compared with itself: no regression");
	fclose(devnull);
	abrun_free(&ra);
	abrun_free(&rb);
	rsuite_free(&a);
	rsuite_free(&b);
	known_set_free(&ko.set);

	tap_rm_tree(dir);
	free(sub[0]);
	free(sub[1]);
	free(known);
	return tap_done();
}
