// SPDX-License-Identifier: GPL-2.0
/*
 * collect.c: a run's --results DIR while the VM runs and after it stops
 * (collect.h), from what the launcher put in its results_ctx (resctx.h).
 * Records from the guest's results port are checked and appended to
 * DIR/results.txt as they arrive (a panic, a timeout or a killed ./vm
 * keeps what was sent), the console is copied to DIR/console.log, and at
 * the end the splats are added and junit.xml and results.tap written. The
 * splat summary is reported here too, with or without --results; what
 * it all means for the exit status is verdict.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "colour.h"
#include "err.h"
#include "io.h"
#include "known.h"
#include "pct.h"
#include "collect.h"
#include "protocol.h"
#include "provenance.h"
#include "rapido.h"
#include "resctx.h"
#include "results.h"
#include "splattest.h"
#include "verdict.h"

struct results_run {
	const struct results_ctx *c;
	char *dir, *txt_path, *con_path;
	int txt_fd, con_fd;
	int txt_failed, con_failed;
	char *line;
	size_t len;
	int overflow;
	struct rsuite suite;
	char ts[64];		/* the run's start, ISO 8601 */
	char *stopped_during;	/* the test the watchdog stopped the VM in */
};

static void out_write(struct results_run *r, int *fd, int *failed, const char *path, const char *p,
		      size_t n)
{
	int rc;

	if (*failed)
		return;
	rc = write_all(*fd, p, n);
	if (rc) {
		warn_err(rc, "%s: writing stopped; results after this point are lost", path);
		*failed = 1;
	}
	(void)r;
}

static void txt_line(struct results_run *r, const char *line)
{
	out_write(r, &r->txt_fd, &r->txt_failed, r->txt_path, line, strlen(line));
	out_write(r, &r->txt_fd, &r->txt_failed, r->txt_path, "\n", 1);
}

/* A meta record into results.txt; apply: into the suite too (the final ones are set directly). */
static void txt_meta(struct results_run *r, const char *key, const char *value, int apply)
{
	char *v = pct_field(value), *line = xasprintf(REC_PREFIX REC_META " %s %s", key, v);

	txt_line(r, line);
	if (apply)
		(void)rsuite_record(&r->suite, line, RSUITE_VM, 0);
	free(line);
	free(v);
}

static int open_out(const char *path, int *fd)
{
	struct stat st;

	/* never through a link someone left in DIR (a shared or restored one) */
	*fd = open_output(path, 0644, &st);
	if (*fd < 0)
		die("results: cannot write %s: %s", path, file_strerror(*fd, &st));
	return 0;
}

static void start(struct results_run *r)
{
	const struct results_ctx *c = r->c;
	char *ts = r->ts, *name, *err;
	time_t t = time(NULL);
	struct prov p;

	rsuite_init(&r->suite);
	open_out(r->txt_path, &r->txt_fd);
	open_out(r->con_path, &r->con_fd);
	r->txt_failed = r->con_failed = 0;
	r->len = 0;
	r->overflow = 0;
	strftime(ts, sizeof(r->ts), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	/* run.json from the start, so a run that never ends still says what it was */
	prov_collect(&p, c, ts);
	if (prov_write(&p, r->dir, &err)) {
		warn("results: %s", err);
		free(err);
	}
	prov_free(&p);
	/* --jobs: the VM of the tests that run alone is "PROFILE serial" */
	name = c->shard_n ? xasprintf("%s shard %u/%u", c->profile, c->shard_i, c->shard_n) :
	       c->serial_only ? xasprintf("%s serial", c->profile) : xstrdup(c->profile);
	txt_meta(r, "suite", name, 1);
	free(name);
	if (c->shard_n) {
		char shard[32];

		snprintf(shard, sizeof(shard), "%u/%u", c->shard_i, c->shard_n);
		txt_meta(r, "shard", shard, 1);
	}
	txt_meta(r, "kernel", c->release, 1);
	txt_meta(r, "timestamp", ts, 1);
	if (c->known->rerun) {
		char n[16];

		/* the re-runs the guest may record (results.h): a merge reads it too */
		snprintf(n, sizeof(n), "%u", c->known->rerun);
		txt_meta(r, "rerun", n, 1);
	}
}

struct results_run *results_open(const struct results_ctx *c)
{
	struct results_run *r;
	char *files;

	if (!c->dir)
		return NULL;
	/* resolving created nothing: DIR is made here, its files/ below */
	results_dir_fresh(c->dir, c->dir_where);
	r = xcalloc(1, sizeof(*r));
	r->c = c;
	r->dir = xstrdup(c->dir);
	r->txt_path = xasprintf("%s/results.txt", r->dir);
	r->con_path = xasprintf("%s/console.log", r->dir);
	r->line = xmalloc(RESULTS_RECORD_MAX + 1);
	/* DIR/files, empty: qemu shares it with the guest as /results */
	files = xasprintf("%s/files", r->dir);
	if (mkdir(files, 0755) < 0)
		die_errno("results: cannot create %s", files);
	free(files);
	start(r);
	return r;
}

void results_reset(struct results_run *r)
{
	if (!r)
		return;
	close(r->txt_fd);
	close(r->con_fd);
	rsuite_free(&r->suite);
	start(r);
}

/*
 * con_line: the console lines read so far. A test's kernel reports are
 * those from the line after its start record to the line its end record
 * came with (splattest.c).
 */
static void record_line(struct results_run *r, double now, unsigned long con_line)
{
	r->line[r->len] = '\0';
	r->suite.last = 0;
	if (r->overflow) {
		char *why = xasprintf("longer than the cap of %u MiB a record (RESULTS_RECORD_MAX)",
				      RESULTS_RECORD_MAX >> 20);

		r->suite.guest_recs++;
		rsuite_bad_line(&r->suite, r->line, why);
		free(why);
	} else if (memchr(r->line, '\0', r->len)) {
		/*
		 * the guest library writes text: a NUL would end the line for
		 * the parser there, and a test could so cut off the record the
		 * library glued after its own ("R1 pass t 0 -\0" + "R1 fail t")
		 */
		r->suite.guest_recs++;
		rsuite_bad_line(&r->suite, r->line, "a NUL byte in the record (records are text)");
	/* only what parses as a guest record is kept: no host-only kinds, no junk */
	} else if (!rsuite_record(&r->suite, r->line, 0, now)) {
		txt_line(r, r->line);
		if (r->suite.last) {
			struct rtest *t = &r->suite.t[r->suite.last - 1];

			if (!strncmp(r->line, REC_PREFIX REC_START " ", strlen(REC_PREFIX REC_START " ")))
				t->con_from = con_line + 1;
			else
				t->con_to = con_line + 1;
			/* an end without a start (rapido_test_time): its lines are unknown */
		}
	}
	r->len = 0;
	r->overflow = 0;
}

void results_tests_only(struct results_run *r, int tests_only)
{
	if (r)
		r->suite.guest_tests_only = tests_only;
}

void results_host_record(struct results_run *r, const char *line)
{
	if (!r)
		return;
	txt_line(r, line);
	(void)rsuite_record(&r->suite, line, RSUITE_VM, 0);
}

const struct rsuite *results_suite(const struct results_run *r)
{
	return r ? &r->suite : NULL;
}

void results_stopped_during(struct results_run *r, const char *test)
{
	if (r && !r->stopped_during)
		r->stopped_during = xstrdup(test);
}

void results_input(struct results_run *r, const char *p, size_t n, double now,
		      unsigned long con_line)
{
	for (size_t i = 0; r && i < n; i++) {
		if (p[i] == '\n')
			record_line(r, now, con_line);
		else if (r->len < RESULTS_RECORD_MAX)
			r->line[r->len++] = p[i];
		else if (!r->overflow)
			r->overflow = 1;
	}
}

void results_console(struct results_run *r, const char *p, size_t n)
{
	if (r)
		out_write(r, &r->con_fd, &r->con_failed, r->con_path, p, n);
}

/* Splats to stderr and into the suite, each tied to its test; returns how many count. */
static unsigned int report_splats(struct results_run *r, const struct results_ctx *c,
				  const struct splat_scan *sc)
{
	struct strv recs = STRV_INIT;
	struct rsuite none;
	unsigned int counted;

	rsuite_init(&none);
	splat_records(r ? &r->suite : &none, sc, c->splat_mask, c->splat_allow, &recs, &counted,
		      c->vm);
	for (size_t i = 0; r && i < recs.n; i++)
		results_host_record(r, recs.v[i]);
	strv_free(&recs);
	rsuite_free(&none);
	return counted;
}

/* "R1 error NAME 0 REASON -", a test that gave no verdict, among r's records. */
static void error_record(struct results_run *r, const char *name, const char *reason)
{
	char *f_name = pct_field(name), *f_reason = pct_field(reason);
	char *line = xasprintf(REC_PREFIX REC_ERROR " %s 0 %s -", f_name, f_reason);

	results_host_record(r, line);
	free(line);
	free(f_name);
	free(f_reason);
}

/* rc says the guest stopped before its autorun ended (see verdict_unfinished) */
static int stopped_early(int rc)
{
	return rc == VM_EXIT_NO_STATUS || rc == VM_EXIT_TIMEOUT || rc == VM_EXIT_HOST_STOPPED;
}

/*
 * The tests the guest planned (R1 plan) and gave no record of are errors:
 * a shard whose VM stopped halfway still names all its tests. A VM that
 * stopped halfway with no such test to name (no plan: a runner that cannot
 * list its tests, or -x scripts; or a plan run to its end, with more after
 * it) may have lost tests nobody can name: one failed testcase says so,
 * so that a run cut short never reads as complete.
 */
static void report_not_run(struct results_run *r, int rc)
{
	const struct rsuite *s = &r->suite;
	const char *during = r->stopped_during;
	char buf[128], *reason;
	size_t missing = 0;

	for (size_t i = 0; !during && i < s->n; i++)
		if (s->t[i].state == RT_RUNNING)
			during = s->t[i].name;
	if (during)
		reason = xasprintf("not run: the VM was stopped during %s", during);
	else if (rc)
		reason = xasprintf("not run: the VM stopped before it ran (%s)",
				   verdict_unfinished(rc, buf, sizeof(buf)));
	else
		reason = xstrdup("not run: the guest planned it and recorded no result for it");
	for (size_t p = 0; p < s->plan.n; p++) {
		const char *name = s->plan.v[p];

		/* by the names table: a plan and tests of 200000 each are no n^2 */
		if (rsuite_has_test(s, name))
			continue;
		/* s->plan does not move: records add tests, not plan entries */
		error_record(r, name, reason);
		missing++;
	}
	free(reason);
	/* a guest that ended on its own ran what it meant to (a test left
	 * open is its own failure, "did not finish") */
	if (missing || !(r->stopped_during || stopped_early(rc)))
		return;
	if (during)
		reason = xasprintf("not run: the VM was stopped during %s, and the guest planned no "
				   "test after it (R1 plan): the tests after it may not have run", during);
	else
		reason = xasprintf("not run: the VM stopped before the autorun ended (%s), and the "
				   "guest planned no test after the last result (R1 plan): later tests "
				   "may not have run", verdict_unfinished(rc, buf, sizeof(buf)));
	error_record(r, "rapido: tests not run", reason);
	free(reason);
}

/* run.json again (the accelerator is known by now), and its fields as meta prov.KEY */
static void report_provenance(struct results_run *r, const struct results_ctx *c)
{
	struct prov p;
	char *err, *key;

	prov_collect(&p, c, r->ts);
	if (prov_write(&p, r->dir, &err)) {
		warn("results: %s", err);
		free(err);
	}
	for (size_t i = 0; i < p.keys.n; i++) {
		key = xasprintf("prov.%s", p.keys.v[i]);
		txt_meta(r, key, p.vals.v[i], 1);
		free(key);
	}
	prov_free(&p);
}

/*
 * The guest broke the record protocol (results.h: a record the guest
 * library never writes, out of sequence, past a cap): a failed testcase
 * "rapido: results port" naming the record, and a run that records could
 * have passed (0, or 1 for failed tests, which known failures may lower)
 * fails with 125: what the records say cannot be trusted.
 */
static int records_refused(struct results_run *r, const struct results_ctx *c, int rc, char **cause)
{
	char *f = pct_field(r->suite.bad);
	char *line = xasprintf(REC_PREFIX REC_ERROR " rapido:%%20results%%20port 0 %s -", f);

	warn("vm%u: --results: %s", c->vm, r->suite.bad);
	results_host_record(r, line);
	free(line);
	free(f);
	if (rc && rc != VM_EXIT_TESTS_FAILED)
		return rc;
	free(*cause);
	*cause = xasprintf("--results: %s", r->suite.bad);
	warn("vm%u: the records cannot be trusted (exit status %d)", c->vm, VM_EXIT_FAILED);
	return VM_EXIT_FAILED;
}

/*
 * The known failures and re-runs (known.h) over the run's records: guest
 * is the guest's status, rc ./vm's so far. A 1 that failed tests alone
 * made (the guest exited 0, or 1 saying all its failures were tests')
 * may become 0; *tests_only says so, for results.txt's meta tests-only
 * (--merge-results classifies again). --write-known-failures too.
 */
static int known_finish(struct results_run *r, const struct results_ctx *c, int guest, int rc,
			char **cause, int *tests_only)
{
	const struct known_opts *o = c->known;
	char who[32], *err;
	int k;

	*tests_only = (rc == 0 || rc == VM_EXIT_TESTS_FAILED) &&
		      (guest == 0 || (guest == VM_EXIT_TESTS_FAILED && r->suite.guest_tests_only));
	snprintf(who, sizeof(who), "vm%u", c->vm);
	k = known_exit(&r->suite, o, rc, *tests_only, who);
	if (k != rc) {
		free(*cause);
		*cause = k ? xstrdup("a test failed that no known failure excuses, or --strict "
				     "found a fixed test or an expired entry") :
			xstrdup("passed: every failed test is a known failure or flaky");
	}
	if (o->write) {
		if (known_write(o->write, &r->suite, 1, o->today, &err)) {
			warn("--write-known-failures: %s", err);
			free(err);
			k = verdict_unwritten(k, "--write-known-failures: the file could not be written",
					      cause);
		} else {
			fprintf(stderr, "vm%u: known failures written to %s\n", c->vm, o->write);
		}
	}
	return k;
}

/* results.txt could not be written whole: a passing run is 125, saying so */
static int txt_unwritten(const struct results_run *r, int rc, char **cause)
{
	char *what;

	if (!r->txt_failed)
		return rc;
	what = xasprintf("--results: %s could not be written whole", r->txt_path);
	rc = verdict_unwritten(rc, what, cause);
	free(what);
	return rc;
}

int results_finish(struct results_run *r, const struct results_ctx *c, struct splat_scan *sc,
		   int rc, const char *why, double secs, double now, char **cause_out)
{
	struct verdict_in in = { .vm = c->vm, .rc = rc, .why = why };
	char buf[256], *err, *sum, *cause, *oom = NULL;
	const char *unfinished;
	struct rcount n;
	int tests_only = 0;

	splat_finish(sc);
	/*
	 * the guest's scripts killed by SIGKILL after the kernel's OOM killer
	 * struck: named as such; any other end (a timeout, a panic) keeps its cause
	 */
	if (rc == 128 + SIGKILL && sc->oom[0]) {
		oom = xasprintf("killed by the OOM killer (%s)%s%s", sc->oom, why ? ": " : "",
				why ? why : "");
		in.why = oom;
	}
	if (r && r->len)
		record_line(r, now, sc->lineno);
	if (r)
		report_not_run(r, rc);
	in.splats = report_splats(r, c, sc);
	if (r) {
		/* the cause ./vm decided (a panic, a power-off) is more precise than rc's words */
		unfinished = in.why ? in.why : verdict_unfinished(rc, buf, sizeof(buf));
		rsuite_close_running(&r->suite, now, unfinished);
		in.s = &r->suite;
	}
	rc = verdict_decide(&in, &cause);
	free(oom);
	if (!r) {
		*cause_out = cause;
		return rc;
	}
	if (r->suite.bad)
		rc = records_refused(r, c, rc, &cause);
	rc = known_finish(r, c, in.rc, rc, &cause, &tests_only);
	rc = txt_unwritten(r, rc, &cause);
	r->suite.exit = rc;
	r->suite.exits = 1;
	free(r->suite.cause);
	r->suite.cause = rc ? xstrdup(cause) : NULL;
	r->suite.secs = secs;
	report_provenance(r, c);
	verdict_add_case(&r->suite);
	if (results_write_reports(r->dir, &r->suite, 1, &err)) {
		char *what = xasprintf("results: %s", err);

		warn("%s", what);
		rc = verdict_unwritten(rc, what, &cause);
		free(what);
		free(err);
	}
	/* the exit status last, once it is final: --merge-results reads it */
	snprintf(buf, sizeof(buf), "%.3f", secs);
	txt_meta(r, "time", buf, 0);
	if (rc)
		txt_meta(r, "cause", cause, 0);
	if (tests_only && rc == VM_EXIT_TESTS_FAILED)
		txt_meta(r, "tests-only", "1", 0);
	snprintf(buf, sizeof(buf), "%d", rc);
	txt_meta(r, "exit", buf, 0);
	/* the final records themselves may be what could not be written */
	rc = txt_unwritten(r, rc, &cause);
	*cause_out = cause;
	rsuite_count(&r->suite, &n);
	/* the one line a person reads at a terminal: pass and fail in colour there */
	sum = results_summary(&n, colour_wanted(STDERR_FILENO));
	fprintf(stderr, "vm%u: results: %s (%s)\n", c->vm, sum, r->dir);
	free(sum);
	return rc;
}

void results_free(struct results_run *r)
{
	if (!r)
		return;
	if (close(r->txt_fd) < 0 && !r->txt_failed)
		warn_errno("%s", r->txt_path);
	if (close(r->con_fd) < 0 && !r->con_failed)
		warn_errno("%s", r->con_path);
	rsuite_free(&r->suite);
	free(r->stopped_during);
	free(r->dir);
	free(r->txt_path);
	free(r->con_path);
	free(r->line);
	free(r);
}
