// SPDX-License-Identifier: GPL-2.0
/* results.c: the per-test results model: records in, counts and report files out (see results.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "colour.h"
#include "err.h"
#include "io.h"
#include "num.h"
#include "pct.h"
#include "results.h"

/* a record's output field is bounded on the guest side too; this guards ./vm */
#define FIELDS_MAX 8

void rsuite_init(struct rsuite *s)
{
	memset(s, 0, sizeof(*s));
	s->exit = -1;
}

static void rtest_free(struct rtest *t)
{
	free(t->name);
	free(t->reason);
	free(t->output);
	free(t->known);
	free(t->known_at);
	free(t->as);
}

void rsuite_free(struct rsuite *s)
{
	for (size_t i = 0; i < s->n; i++)
		rtest_free(&s->t[i]);
	free(s->t);
	free(s->run_hash);
	for (size_t i = 0; i < s->names_cap; i++)
		free(s->names[i].name);
	free(s->names);
	free(s->bad);
	free(s->name);
	free(s->shard);
	free(s->kernel);
	free(s->timestamp);
	free(s->exit_bad);
	free(s->cause);
	strv_free(&s->plan);
	strv_free(&s->prop_keys);
	strv_free(&s->prop_vals);
	memset(s, 0, sizeof(*s));
}

struct rtest *rsuite_add_test(struct rsuite *s, const char *name)
{
	struct rtest *t;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->t = xrealloc(s->t, s->cap * sizeof(*s->t));
	}
	t = &s->t[s->n++];
	memset(t, 0, sizeof(*t));
	t->name = xstrdup(name);
	return t;
}

static size_t name_hash(const char *name, size_t buckets)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h & (buckets - 1);
}

const char *rtest_guest_name(const struct rtest *t)
{
	return t->as ? t->as : t->name;
}

/* Put test i at the head of its chain: the latest start of a name is found first. */
static void run_link(struct rsuite *s, size_t i)
{
	size_t b = name_hash(rtest_guest_name(&s->t[i]), s->run_buckets);

	s->t[i].run_next = s->run_hash[b];
	s->run_hash[b] = i + 1;
}

/* Test i (just added) is running: into the hash, which grows with the running tests. */
static void run_add(struct rsuite *s, size_t i)
{
	if (s->running + 1 > s->run_buckets) {
		s->run_buckets = s->run_buckets ? 2 * s->run_buckets : 64;
		free(s->run_hash);
		s->run_hash = xcalloc(s->run_buckets, sizeof(*s->run_hash));
		/* oldest first, so the latest of a name stays at its chain's head */
		for (size_t k = 0; k < i; k++)
			if (s->t[k].state == RT_RUNNING)
				run_link(s, k);
	}
	run_link(s, i);
	s->running++;
}

/* The entry of name in the table of names used (a free slot if none). */
static struct rname *name_slot(const struct rsuite *s, const char *name)
{
	size_t i = name_hash(name, s->names_cap);

	while (s->names[i].name && strcmp(s->names[i].name, name))
		i = (i + 1) & (s->names_cap - 1);
	return &s->names[i];
}

/* name's entry, made if new (the table grows at half full). */
static struct rname *name_get(struct rsuite *s, const char *name)
{
	struct rname *e;

	if (2 * (s->names_n + 1) > s->names_cap) {
		struct rname *old = s->names;
		size_t n = s->names_cap;

		s->names_cap = n ? 2 * n : 64;
		s->names = xcalloc(s->names_cap, sizeof(*s->names));
		for (size_t i = 0; i < n; i++)
			if (old[i].name)
				*name_slot(s, old[i].name) = old[i];
		free(old);
	}
	e = name_slot(s, name);
	if (!e->name) {
		e->name = xstrdup(name);
		s->names_n++;
	}
	return e;
}

static struct rname *name_find(const struct rsuite *s, const char *name)
{
	struct rname *e = s->names_cap ? name_slot(s, name) : NULL;

	return e && e->name ? e : NULL;
}

int rsuite_has_test(const struct rsuite *s, const char *name)
{
	const struct rname *e = name_find(s, name);

	return e && e->count;
}

/*
 * A new test of the guest's name: a re-run announced (R1 rerun) joins its
 * chain under the chain's name; else the K-th test of the name is
 * "NAME#K" (a K no other test has), said in its output once it ends.
 */
static struct rtest *rtest_new(struct rsuite *s, const char *name)
{
	struct rname *e = name_get(s, name);
	unsigned int rerun = e->pending;
	char *shown = NULL;
	struct rtest *t;

	if (rerun) {
		shown = xstrdup(s->t[e->last - 1].name);
	} else if (e->count++) {
		unsigned int k = e->count;

		for (;; k++) {
			const struct rname *x;

			shown = xasprintf("%s#%u", name, k);
			/* a name only planned (R1 plan) is no test's yet */
			x = name_find(s, shown);
			if (!x || !x->count)
				break;
			free(shown);
		}
		/* taken: a test the guest itself names "NAME#K" becomes NAME#K#2 */
		name_get(s, shown)->count = 1;
		/*
		 * the next search starts after this K (the table may have
		 * grown: looked up again), or a guest that named its tests
		 * NAME#2..NAME#N made each reuse of NAME walk them all
		 */
		name_find(s, name)->count = k;
	}
	t = rsuite_add_test(s, shown ? shown : name);
	if (shown && strcmp(shown, name))
		t->as = xstrdup(name);
	t->rerun = rerun;
	free(shown);
	/* the table may have grown: e is looked up again */
	e = name_find(s, name);
	e->pending = 0;
	e->last = s->n;
	return t;
}

/* The test an end record is about: the last one of that name still running, else a new one. */
static struct rtest *rtest_for_end(struct rsuite *s, const char *name)
{
	size_t *link = s->running ? &s->run_hash[name_hash(name, s->run_buckets)] : NULL;

	for (; link && *link; link = &s->t[*link - 1].run_next) {
		struct rtest *t = &s->t[*link - 1];

		if (!strcmp(rtest_guest_name(t), name)) {
			*link = t->run_next;
			t->run_next = 0;
			s->running--;
			return t;
		}
	}
	return rtest_new(s, name);
}

/* "R1 rerun NAME N": the guest library's, right after a failed run of NAME. */
static const char *rerun_check(struct rsuite *s, const char *name, const char *n)
{
	struct rname *e = name_find(s, name);
	const struct rtest *last;
	uint64_t v;

	if (!s->rerun_max)
		return "a re-run that ./vm did not ask for (no --rerun-failures)";
	if (num_parse(n, 1, s->rerun_max, &v, NULL))
		return "its re-run number is not from 1 to --rerun-failures";
	if (!e || !e->last)
		return "a re-run of a test that never ran";
	last = &s->t[e->last - 1];
	/* a re-run that skipped, or recorded nothing, may be run again */
	if (last->state == RT_PASS || last->state == RT_RUNNING || last->error ||
	    (last->state == RT_SKIP && !last->rerun))
		return "a re-run of a test whose last run did not fail";
	if (v <= (e->pending ? e->pending : last->rerun))
		return "a re-run out of turn";
	e->pending = (unsigned int)v;
	return NULL;
}

static char *nonempty(const char *s)
{
	return *s ? xstrdup(s) : NULL;
}

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = nonempty(v);
}

/*
 * Seconds as ./vm and the guest write them: digits, optionally '.' and
 * digits. strtod() alone also takes "nan", "inf", "-5", hex and
 * exponents, which JUnit readers choke on; those read as 0.
 */
static double secs_parse(const char *v)
{
	size_t i = strspn(v, "0123456789"), f = 0;

	if (i == 0 || i > 12)
		return 0;
	if (v[i] == '.') {
		f = strspn(v + i + 1, "0123456789");
		if (f == 0 || f > 9)
			return 0;
		f++;
	}
	return v[i + f] ? 0 : strtod(v, NULL);
}

/* An exit status as ./vm writes it ("%d" of 0..255), else -1. */
static int exit_parse(const char *raw)
{
	size_t n = strspn(raw, "0123456789");
	int v;

	if (n == 0 || n > 3 || raw[n] || (raw[0] == '0' && n > 1))
		return -1;
	v = atoi(raw);
	return v <= 255 ? v : -1;
}

void rsuite_set_prop(struct rsuite *s, const char *key, const char *value)
{
	for (size_t i = 0; i < s->prop_keys.n; i++)
		if (!strcmp(s->prop_keys.v[i], key)) {
			free(s->prop_vals.v[i]);
			s->prop_vals.v[i] = xstrdup(value);
			return;
		}
	strv_push(&s->prop_keys, key);
	strv_push(&s->prop_vals, value);
}

/*
 * The test a splat record is about (one that has ended): run is its RUN
 * field, which run of the name (from 1; a re-run test has several), or
 * NULL for a record without one (the last run). NULL if there is none.
 */
static struct rtest *rtest_run(struct rsuite *s, const char *name, const char *run)
{
	uint64_t want = 0, seen = 0;

	if (run && num_parse(run, 1, SIZE_MAX, &want, NULL))
		return NULL;
	for (size_t i = s->n; !run && i > 0; i--)
		if (!s->t[i - 1].kernel && !strcmp(s->t[i - 1].name, name))
			return &s->t[i - 1];
	for (size_t i = 0; run && i < s->n; i++)
		if (!s->t[i].kernel && !strcmp(s->t[i].name, name) && ++seen == want)
			return &s->t[i];
	return NULL;
}

/*
 * A kernel report made while t ran: t fails with the first report's
 * reason, a failure's own reason kept before it, "did not finish" (a
 * panic) replaced; each report's text added to its output.
 */
static void rtest_splat(struct rtest *t, const char *reason, const char *text)
{
	char *r, *o;

	/* the first report names the failure; the later ones (a hung task
	 * is reported again each check) are in the output */
	if (!t->splats++) {
		if (t->state == RT_FAIL && t->reason && strncmp(t->reason, "did not finish", 14))
			r = xasprintf("%s; %s", t->reason, reason);
		else
			r = xstrdup(reason);
		free(t->reason);
		t->reason = r;
	}
	t->state = RT_FAIL;
	o = t->output ? xasprintf("%s\n%s", t->output, text) : xstrdup(text);
	free(t->output);
	t->output = o;
}

static int meta(struct rsuite *s, const char *key, const char *v, const char *raw)
{
	if (!strcmp(key, "suite"))
		set_str(&s->name, v);
	else if (!strcmp(key, "shard"))
		set_str(&s->shard, v);
	else if (!strcmp(key, "kernel"))
		set_str(&s->kernel, v);
	else if (!strcmp(key, "timestamp"))
		set_str(&s->timestamp, v);
	else if (!strcmp(key, "time"))
		s->secs = secs_parse(v);
	else if (!strcmp(key, "cause"))
		set_str(&s->cause, v);
	else if (!strncmp(key, "prov.", 5) && key[5])
		rsuite_set_prop(s, key + 5, v);
	else if (!strcmp(key, "tests-only"))
		s->tests_only = !strcmp(v, "1");
	else if (!strcmp(key, "exit")) {
		/* the escaped field: "%30" is no way ./vm writes 0 */
		int e = exit_parse(raw);

		s->exits++;
		s->exit = s->exits == 1 ? e : -1;
		if (e < 0 && !s->exit_bad)
			s->exit_bad = xstrdup(v);
	}
	/* unknown keys: a newer ./vm wrote them; not an error */
	return 0;
}

/* A test that took a name another test had (rtest_new) says so in its output. */
static void note_renamed(struct rtest *t)
{
	char *o;

	if (!t->as || t->rerun)
		return;
	o = xasprintf("rapido: an earlier test of this run is named %s too, and this is no re-run "
		      "that --rerun-failures asked for: a test of its own, %s%s%s", t->as, t->name,
		      t->output ? "\n" : "", t->output ? t->output : "");
	free(t->output);
	t->output = o;
}

/* The records the guest writes (the others are ./vm's own, or junk). */
static int guest_kind(const char *ev)
{
	static const char *const kinds[] = { REC_START, REC_PASS, REC_FAIL, REC_SKIP, REC_ERROR,
					     REC_HELLO, REC_PLAN, REC_RERUN, REC_FAILURES };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(ev, kinds[i]))
			return 1;
	return 0;
}

void rsuite_bad_line(struct rsuite *s, const char *line, const char *why)
{
	char *shown;

	if (s->bad)
		return;
	/* the line as a person reads it: one line, cut */
	shown = text_oneline(line);
	if (strlen(shown) > 120)
		strcpy(shown + 117, "...");
	s->bad = xasprintf("the guest's record %lu ('%s'): %s", s->guest_recs, shown, why);
	free(shown);
}

/* A guest line counted against the caps; the cap it passes, or NULL. */
static const char *guest_cap(struct rsuite *s, const char *line)
{
	static char why[160];

	s->guest_recs++;
	s->guest_bytes += strlen(line) + 1;
	if (s->guest_bytes > RESULTS_VOLUME_MAX)
		snprintf(why, sizeof(why), "the guest's records pass the cap of %u MiB a run "
			 "(RESULTS_VOLUME_MAX); the records after it are dropped",
			 RESULTS_VOLUME_MAX >> 20);
	else if (s->n >= RESULTS_TESTS_MAX)
		snprintf(why, sizeof(why), "the guest's records pass the cap of %u tests a run "
			 "(RESULTS_TESTS_MAX); the records after it are dropped", RESULTS_TESTS_MAX);
	else
		return NULL;
	return why;
}

/* The record of fields f[0..nf), the guest's or (host) ./vm's; NULL, or why it is refused. */
static const char *apply(struct rsuite *s, char **f, size_t nf, const char *raw2, int host,
			 double now, int *rc)
{
	const char *ev = nf ? f[0] : "", *why;
	struct rtest *t;

	if (nf < 2 || !*f[1]) {
		*rc = -EINVAL;
	} else if (!strcmp(ev, REC_HELLO) && nf == 2) {
		/* the init's, before the autorun starts: the first record */
		if (s->guest_ok)
			return "a hello after the first record (only the guest init says hello, once)";
		s->port_seen = 1;
	} else if (!strcmp(ev, REC_PLAN) && nf == 2) {
		const struct rname *e = name_find(s, f[1]);

		/* each name once, found in O(1): a flood of plan records costs no n^2 */
		if (!e || !e->planned) {
			static char why[160];

			if (s->plan.n >= RESULTS_TESTS_MAX) {
				snprintf(why, sizeof(why), "the guest's plan passes the cap of %u tests a "
					 "run (RESULTS_TESTS_MAX); the plan records after it are dropped",
					 RESULTS_TESTS_MAX);
				return why;
			}
			name_get(s, f[1])->planned = 1;
			strv_push(&s->plan, f[1]);
		}
	} else if (!strcmp(ev, REC_FAILURES) && nf == 2) {
		/* an older guest's (now the init's status record says it): never taken */
		if (!host)
			return "'failures' is the guest init's to say, in its status record, not a "
			       "record";
	} else if (!strcmp(ev, REC_RERUN) && nf == 3) {
		why = rerun_check(s, f[1], f[2]);
		if (why)
			return why;
	} else if (!strcmp(ev, REC_START) && nf == 2) {
		t = rtest_new(s, f[1]);
		t->started = now;
		run_add(s, s->n - 1);
		s->last = s->n;
	} else if (!strcmp(ev, REC_PASS) && nf == 4) {
		t = rtest_for_end(s, f[1]);
		t->state = RT_PASS;
		t->secs = secs_parse(f[2]);
		set_str(&t->output, f[3]);
		note_renamed(t);
		s->last = (size_t)(t - s->t) + 1;
	} else if ((!strcmp(ev, REC_FAIL) || !strcmp(ev, REC_SKIP) || !strcmp(ev, REC_ERROR)) &&
		   nf == 5) {
		/* error: ./vm's (watchdog, not run) or the guest's (a test that reached no verdict) */
		t = rtest_for_end(s, f[1]);
		t->state = !strcmp(ev, REC_SKIP) ? RT_SKIP : RT_FAIL;
		t->error = !strcmp(ev, REC_ERROR);
		t->secs = secs_parse(f[2]);
		set_str(&t->reason, f[3]);
		set_str(&t->output, f[4]);
		note_renamed(t);
		s->last = (size_t)(t - s->t) + 1;
	} else if (host && !strcmp(ev, REC_SPLAT) && (nf == 4 || nf == 5)) {
		t = rtest_run(s, f[1], nf == 5 ? f[4] : NULL);
		if (t)
			rtest_splat(t, f[2], f[3]);
		else
			*rc = -EINVAL;
	} else if (host && (!strcmp(ev, REC_KERNEL) || !strcmp(ev, REC_TOLERATED)) && nf == 4) {
		t = rsuite_add_test(s, f[1]);
		t->kernel = 1;
		t->state = !strcmp(ev, REC_KERNEL) ? RT_FAIL : RT_SKIP;
		t->reason = t->state == RT_FAIL ? xasprintf("kernel %s", f[2]) :
			xasprintf("kernel %s, tolerated (VM_SPLATS)", f[2]);
		set_str(&t->output, f[3]);
	} else if (host && !strcmp(ev, REC_ALLOWED) && nf == 4) {
		/* a report the allow file names: listed, fails nothing */
		t = rsuite_add_test(s, f[1]);
		t->kernel = 1;
		t->state = RT_SKIP;
		set_str(&t->reason, f[2]);
		set_str(&t->output, f[3]);
	} else if (host && !strcmp(ev, REC_META) && nf == 3) {
		uint64_t v;


		if (!strcmp(f[1], "rerun"))
			s->rerun_max = num_parse(raw2, 0, 1000, &v, NULL) ? 0 : (unsigned int)v;
		else
			*rc = meta(s, f[1], f[2], raw2);
	} else {
		*rc = -EINVAL;
	}
	if (!host && *rc)
		return "no record of the guest library's (autorun/lib/results.sh)";
	return NULL;
}

int rsuite_record(struct rsuite *s, const char *line, int host, double now)
{
	char *copy, *f[FIELDS_MAX], *save = NULL, *raw2;
	const char *why;
	size_t nf = 0;
	int rc = 0, guest;

	copy = xstrdup(strncmp(line, REC_PREFIX, strlen(REC_PREFIX)) ? "" : line + strlen(REC_PREFIX));
	for (char *w = strtok_r(copy, " \r", &save); w && nf < FIELDS_MAX; w = strtok_r(NULL, " \r", &save))
		f[nf++] = w;
	/*
	 * in ./vm's own file, its own records and junk lines were never the
	 * guest's; a record ./vm makes as it runs (RSUITE_VM) is its own,
	 * whatever its kind (an error of its own after a capped guest)
	 */
	guest = !host || (host != RSUITE_VM && nf && guest_kind(f[0]));
	if (guest && (s->capped || (why = guest_cap(s, line)))) {
		if (!s->capped)
			rsuite_bad_line(s, line, why);
		s->capped = 1;
		free(copy);
		return -EBADMSG;
	}
	raw2 = nf > 2 ? xstrdup(f[2]) : NULL;
	for (size_t i = 1; i < nf; i++)
		pct_unescape_field(f[i]);
	why = apply(s, f, nf, raw2, host, now, &rc);
	free(copy);
	free(raw2);
	if (why) {
		rsuite_bad_line(s, line, why);
		return -EBADMSG;
	}
	if (!rc && guest)
		s->guest_ok++;
	if (!rc && !host)
		s->port_seen = 1;
	return rc;
}

void rsuite_close_running(struct rsuite *s, double now, const char *why)
{
	for (size_t i = 0; i < s->n; i++) {
		struct rtest *t = &s->t[i];

		if (t->state != RT_RUNNING)
			continue;
		t->state = RT_FAIL;
		t->secs = t->started && now > t->started ? now - t->started : 0;
		free(t->reason);
		t->reason = xasprintf("did not finish: %s", why);
		t->run_next = 0;
	}
	if (s->run_hash)
		memset(s->run_hash, 0, s->run_buckets * sizeof(*s->run_hash));
	s->running = 0;
}

void rsuite_count(const struct rsuite *s, struct rcount *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < s->n; i++) {
		const struct rtest *t = &s->t[i];

		if (t->hidden)
			continue;
		c->tests++;
		c->known += t->cls == OUTCOME_KNOWN && t->state == RT_SKIP;
		c->flaky += t->cls == OUTCOME_FLAKY;
		c->fixed += t->cls == OUTCOME_FIXED;
		if (t->kernel && t->state == RT_FAIL)
			c->kernel++;
		if (t->error && t->state == RT_FAIL)
			c->error++;
		if (t->state == RT_PASS)
			c->pass++;
		else if (t->state == RT_SKIP)
			c->skip++;
		else
			c->fail++;
	}
}

void rsuite_parse(struct rsuite *s, char *text)
{
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		/* junk between records (a guest that wrote half a line) is skipped */
		(void)rsuite_record(s, line, 1, 0);
		line = nl ? nl + 1 : NULL;
	}
	rsuite_close_running(s, 0, "no result was recorded");
	if (s->exits == 1 && s->exit >= 0 && !s->bad)
		return;
	s->exit = -1;
	free(s->cause);
	if (s->bad)
		s->cause = xasprintf("results.txt: %s", s->bad);
	else if (!s->exits)
		s->cause = xstrdup("results.txt has no meta exit (the run did not finish)");
	else if (s->exits > 1)
		s->cause = xasprintf("results.txt has %u meta exit records", s->exits);
	else
		s->cause = xasprintf("results.txt has meta exit '%s', which is no exit status",
				     s->exit_bad ? s->exit_bad : "");
}

int rsuite_load(struct rsuite *s, const char *path, char **err)
{
	char *text;
	struct stat st;
	int rc = read_regular_file(path, 0, RESULTS_TXT_MAX, &text, NULL, &st);

	if (rc == -ENOTREG)
		*err = xasprintf("%s: %s", path, file_strerror(rc, &st));
	else if (rc == -EFBIG)
		*err = xasprintf("%s: larger than %u MiB, more than any run writes", path,
				 RESULTS_TXT_MAX >> 20);
	else if (rc)
		*err = xasprintf("%s: %s", path, strerror(-rc));
	if (rc)
		return rc;
	rsuite_parse(s, text);
	free(text);
	return 0;
}

char *text_oneline(const char *s)
{
	char *out = xstrdup(s ? s : "");

	for (char *p = out; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			*p = '?';
	return out;
}

char *results_summary(const struct rcount *c, int colour)
{
	char extra[128] = "", *pass, *fail, *splats, *line;

	/* known.h's classes, only when there are any: the plain line stays as it was */
	if (c->known || c->flaky || c->fixed)
		snprintf(extra, sizeof(extra), " (%u known failures, %u flaky, %u fixed)", c->known,
			 c->flaky, c->fixed);
	pass = colourf(colour && c->pass, COLOUR_GREEN, "%u passed", c->pass);
	/* errors are failures that reached no verdict: said only when there are any */
	fail = c->error ? colourf(colour, COLOUR_RED, "%u failed (%u error%s)", c->fail, c->error,
				  c->error == 1 ? "" : "s") :
		colourf(colour && c->fail, COLOUR_RED, "%u failed", c->fail);
	splats = colourf(colour && c->kernel, COLOUR_RED, "%u kernel splats", c->kernel);
	line = xasprintf("%u tests, %s, %s, %u skipped%s, %s", c->tests, pass, fail, c->skip, extra,
			 splats);
	free(pass);
	free(fail);
	free(splats);
	return line;
}
