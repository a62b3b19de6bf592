// SPDX-License-Identifier: GPL-2.0
/*
 * bisect.c: ./bisect: git bisect driven step by step. The bad commit is
 * booted first: its failure is the one a bad step must show (classify.c).
 * State lives in one directory (GIT_DIR/rapido-bisect): the arguments, the
 * bad commit's failure, one line per decided step and each step's logs,
 * so --continue picks up where an interruption left off (a step not yet
 * told to git is made again) and --reset ends it. Input that cannot be
 * bisected is refused before git bisect starts, and a start that fails is
 * undone (git bisect reset): nothing is left half-bisected.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect.h"
#include "err.h"
#include "io.h"
#include "statedir.h"
#include "tree.h"

static char *state_file(const struct bctx *c, const char *name)
{
	return xasprintf("%s/%s", c->state, name);
}

static void write_state_or_die(const struct bctx *c, const char *name, const char *text, int append)
{
	char *path = state_file(c, name);
	struct stat st;
	int fd, rc;

	/* never through a link in the state dir: a new file renamed in, or a regular one appended to */
	if (!append) {
		rc = write_file_atomic(path, text, strlen(text), 0644);
		if (rc)
			die("%s: %s", path, err_str(rc));
		free(path);
		return;
	}
	fd = open_append(path, 0644, &st);
	if (fd < 0)
		die("%s: %s", path, file_strerror(fd, &st));
	rc = write_all(fd, text, strlen(text));
	if (rc || close(fd) < 0)
		die("%s: %s", path, err_str(rc ? rc : -errno));
	free(path);
}

/* the state file NAME's text, NULL when there is none */
static char *read_state(const struct bctx *c, const char *name)
{
	return state_read_or_die(c->state, name, NULL);
}

/*
 * A failed start's step logs outlive its undo: moved to STATE-failed/STEP
 * (marked; the next failed start replaces it). Where they went, or NULL.
 */
static char *keep_logs(const struct bctx *c, const char *dir)
{
	char *kept = xasprintf("%s-failed", c->state), *to = NULL, *failed = NULL;
	int kind = statedir_kind(kept, FAILED_MARKER), rc = kind < 0 ? kind : 0;

	if (kind == STATEDIR_OURS)
		rc = remove_tree(kept, &failed);
	else if (kind == STATEDIR_NOTDIR || kind == STATEDIR_UNMARKED)
		rc = -EEXIST;	/* not ours: left alone */
	if (!rc)
		rc = statedir_make(kept, FAILED_MARKER, "# the logs of ./bisect's last failed start\n",
				   &failed);
	if (!rc) {
		to = xasprintf("%s%s", kept, strrchr(dir, '/'));
		rc = rename(dir, to) < 0 ? -errno : 0;
	}
	if (rc) {
		warn_err(rc, "the logs in %s are not kept: %s", dir, failed ? failed : kept);
		free(to);
		to = NULL;
	}
	free(failed);
	free(kept);
	return to;
}

/* undo a start: git bisect reset and no state, the failed step's logs (keep) moved aside; exit */
static void undo_and_exit(const struct bctx *c, int status, const char *keep)
{
	char *kept = keep ? keep_logs(c, keep) : NULL;

	if (git_run(c, -1, "bisect", "reset", NULL) != 0)
		warn("git bisect reset failed in %s: run it by hand", c->src);
	state_remove(c);
	if (kept)
		fprintf(stderr, "bisect: the failed step's logs are kept in %s\n", kept);
	free(kept);
	exit(status);
}

static char *commit_or_die(const struct bctx *c, const char *rev, const char *what)
{
	char *sha = git_commit_or_null(c, rev);

	if (!sha) {
		err_exit_status = BISECT_EXIT_USAGE;
		die("%s %s: no such commit in %s", what, rev, c->src);
	}
	return sha;
}

/* everything that would make a bisection meaningless, before anything changes */
static void validate_or_die(const struct bctx *c, char **good, char **bad)
{
	struct stat st;
	char *dirty, *started = xasprintf("%s/BISECT_START", c->gitdir);
	int rc, bisecting, kind = state_kind_or_die(c, BISECT_MARKER);

	err_exit_status = BISECT_EXIT_USAGE;
	bisecting = stat(started, &st) == 0;
	free(started);
	if (kind == STATEDIR_OURS)
		die("a bisection is in progress (%s): ./bisect --continue resumes it, "
		    "./bisect --reset ends it", c->state);
	if (kind != STATEDIR_ABSENT && kind != STATEDIR_EMPTY)
		state_refuse_foreign(c, BISECT_MARKER, kind);
	if (bisecting)
		die("%s: git bisect is already running there (git bisect reset ends it)", c->src);
	*good = commit_or_die(c, c->o->good, "--good");
	*bad = commit_or_die(c, c->o->bad, "--bad");
	if (!strcmp(*good, *bad))
		die("--good %s and --bad %s are the same commit", c->o->good, c->o->bad);
	inputs_or_die(c, *good, *bad);
	rc = git_run(c, -1, "merge-base", "--is-ancestor", *good, *bad, NULL);
	if (rc == 1)
		die("--good %s is not an ancestor of --bad %s: git bisect needs good before bad "
		    "on one line of history", c->o->good, c->o->bad);
	if (rc != 0)
		die("git merge-base failed in %s", c->src);
	dirty = git_out(c, "status", "--porcelain", "--untracked-files=no", NULL);
	if (!dirty)
		die("git status failed in %s", c->src);
	if (*dirty && !c->o->allow_dirty)
		die("%s has uncommitted changes (%s...): commit or stash them, or --allow-dirty "
		    "(git bisect's checkouts may carry or refuse them)", c->src, dirty);
	free(dirty);
	err_exit_status = 1;
}

/* git bisect ARG... with its output in STATE/git.log, then shown; its exit status */
static int bisect_git(const struct bctx *c, const char *verb, const char *a1, const char *a2)
{
	char *path = state_file(c, "git.log"), *text;
	struct stat st;
	int fd = open_output(path, 0644, &st), rc;

	if (fd < 0)
		die("%s: %s", path, file_strerror(fd, &st));
	rc = git_run(c, fd, "bisect", verb, a1, a2, NULL);
	if (close(fd) < 0)
		die_errno("%s", path);
	text = read_state(c, "git.log");
	if (text) {
		/* git's own words: what it checked out next, or its conclusion */
		for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"))
			printf("  git: %s\n", l);
		free(text);
	}
	free(path);
	return rc;
}

enum gitend { GIT_GOING, GIT_FOUND, GIT_ONLY_SKIPPED };

static enum gitend git_end(const struct bctx *c)
{
	char *t = read_state(c, "git.log");
	enum gitend e = GIT_GOING;

	if (t && strstr(t, " is the first bad commit"))
		e = GIT_FOUND;
	else if (t && strstr(t, "only 'skip'ped commits left"))
		e = GIT_ONLY_SKIPPED;
	free(t);
	return e;
}

/* a failed build's or cut's first error lines, from its log */
static void print_errors(FILE *f, const struct bstep_out *s)
{
	if (s->errors.n)
		fprintf(f, "  the first error lines of %s/%s:\n", s->dir, s->errors_log);
	for (size_t i = 0; i < s->errors.n; i++)
		fprintf(f, "    %s\n", s->errors.v[i]);
}

static void print_step(const struct bctx *c, const char *sha, const char *what,
		       const struct bstep_out *s, const struct bstep *v)
{
	char *subj = git_subject(c, sha);

	printf("bisect: %s %s\n", what, subj);
	printf("  verdict: %s%s: %s\n", bverdict_name(v->verdict), v->flaky ? " (flaky)" : "", v->why);
	print_errors(stdout, s);
	printf("  times: build %.1f s, cut %.1f s, %zu boot%s %.1f s\n", s->build_secs, s->cut_secs,
	       s->nruns, s->nruns == 1 ? "" : "s", s->boot_secs);
	printf("  logs: %s (build.log, cut.log%s)\n", s->dir,
	       s->nruns ? c->o->results ? ", run-N/console.log, run-N/results/" : ", run-N/console.log" : "");
	fflush(stdout);
	free(subj);
}

static char *tabless(const char *s)
{
	char *t = xstrdup(s);

	for (char *p = t; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = ' ';
	return t;
}

/* one line of STATE/steps: SHA VERDICT FLAKY RUNS BUILD CUT BOOT DIR WHY, tab-separated */
static void record_step(const struct bctx *c, const char *kind, const char *sha,
			const struct bstep_out *s, const struct bstep *v)
{
	char *why = tabless(v->why);
	char *line = xasprintf("%s\t%s\t%s\t%d\t%u\t%.1f\t%.1f\t%.1f\t%s\t%s\n", kind, sha,
			       bverdict_name(v->verdict), v->flaky, v->runs, s->build_secs,
			       s->cut_secs, s->boot_secs, s->dir, why);

	write_state_or_die(c, "steps", line, 1);
	free(line);
	free(why);
}

static void ref_save(const struct bctx *c, const struct bref *r)
{
	char *t = xasprintf("rc %d\nresults %d\n", r->rc, r->have_results);

	if (r->panic) {
		char *p = tabless(r->panic), *u = xasprintf("%spanic %s\n", t, p);

		free(t);
		free(p);
		t = u;
	}

	for (size_t i = 0; i < r->fails.n; i++) {
		char *n = tabless(r->fails.v[i]), *u = xasprintf("%sfail %s\n", t, n);

		free(t);
		free(n);
		t = u;
	}
	write_state_or_die(c, "ref", t, 0);
	free(t);
}

static int ref_load(const struct bctx *c, struct bref *r)
{
	char *t = read_state(c, "ref"), *save = NULL;

	memset(r, 0, sizeof(*r));
	r->use_match = c->o->match != NULL;
	if (!t)
		return 0;
	for (char *l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(l, "rc ", 3))
			r->rc = atoi(l + 3);
		else if (!strncmp(l, "results ", 8))
			r->have_results = atoi(l + 8);
		else if (!strncmp(l, "fail ", 5))
			strv_push(&r->fails, l + 5);
		else if (!strncmp(l, "panic ", 6))
			r->panic = xstrdup(l + 6);
	}
	free(t);
	return 1;
}

/* the last lines of DIR/NAME on stderr: the state and its logs go with the undo */
static void show_tail(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *text;
	size_t len, at, lines = 0;

	text = log_read(path, &len);
	if (text) {
		for (at = len; at > 0 && lines <= 20; at--)
			lines += text[at - 1] == '\n';
		fprintf(stderr, "--- the end of %s:\n%s", name, text + at + (at > 0));
		free(text);
	}
	free(path);
}

/* boot the bad commit: its failure becomes the reference */
static void reference_or_die(struct bctx *c, const char *bad, struct bref *ref)
{
	struct bstep_out s;
	struct bstep v;
	char *err = NULL, *next = read_state(c, "next");

	if (git_run(c, -1, "checkout", "-q", "--detach", bad, NULL) != 0) {
		warn("git checkout %s failed in %s", bad, c->src);
		undo_and_exit(c, BISECT_EXIT_FAILED, NULL);
	}
	step_run(c, bad, "bad", c->o->runs, c->o->results, &s);
	if (s.build_why) {
		warn("the bad commit %.12s: %s; nothing to bisect against", bad, s.build_why);
		if (s.errors.n) {
			print_errors(stderr, &s);
		} else {
			show_tail(s.dir, "build.log");
			show_tail(s.dir, "cut.log");
		}
		undo_and_exit(c, BISECT_EXIT_FAILED, s.dir);
	}
	if (bref_from_runs(ref, s.runs, s.nruns, c->o->match != NULL, &err) < 0) {
		warn("the bad commit %.12s cannot serve as the reference: %s", bad, err);
		for (size_t i = 0; i < s.nruns; i++) {
			char *run = xasprintf("run-%zu/console.log", i + 1);

			show_tail(s.dir, run);
			free(run);
		}
		undo_and_exit(c, BISECT_EXIT_FAILED, s.dir);
	}
	bstep_classify(ref, s.runs, s.nruns, NULL, c->o->flaky, &v);
	print_step(c, bad, "the bad commit (its failure is the one bisected)", &s, &v);
	ref_save(c, ref);
	record_step(c, "ref", bad, &s, &v);
	bstep_free(&v);
	step_out_free(&s);
	if (next && git_run(c, -1, "checkout", "-q", "--detach", next, NULL) != 0)
		die("git checkout %s failed in %s", next, c->src);
	free(next);
}

struct steprec {
	char *f[10];	/* kind sha verdict flaky runs build cut boot dir why */
};

static size_t steps_load(const struct bctx *c, char **text, struct steprec **out)
{
	size_t n = 0;
	char *save = NULL;

	*out = NULL;
	*text = read_state(c, "steps");
	if (!*text)
		return 0;
	for (char *l = strtok_r(*text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		struct steprec r = { { NULL } };
		char *s2 = NULL;
		size_t k = 0;

		for (char *f = strtok_r(l, "\t", &s2); f && k < 10; f = strtok_r(NULL, "\t", &s2))
			r.f[k++] = f;
		if (k < 10)
			continue;
		*out = xrealloc(*out, (n + 1) * sizeof(**out));
		(*out)[n++] = r;
	}
	return n;
}

static void report(const struct bctx *c, enum gitend end)
{
	struct steprec *r;
	char *text, *sha = NULL;
	size_t n = steps_load(c, &text, &r), decisive = 0, skipped = 0, flaky_decided = 0;

	if (end == GIT_FOUND) {
		sha = git_out(c, "rev-parse", "refs/bisect/bad", NULL);
		printf("\nbisect: the first bad commit:\n");
		fflush(stdout);
		if (!sha || git_run(c, -1, "--no-pager", "show", "--stat", "--format=medium", sha, NULL))
			warn("git show %s failed", sha ? sha : "refs/bisect/bad");
	} else {
		printf("\nbisect: undecided: only skipped commits are left; the first bad commit "
		       "is one of those git named above\n");
	}
	printf("\nbisect: the decisive steps:\n");
	for (size_t i = 0; i < n; i++) {
		char *subj;

		if (!strcmp(r[i].f[2], "skip"))
			continue;
		subj = git_subject(c, r[i].f[1]);
		printf("  %-4s %s %s: %s run%s: %s (logs %s)\n", r[i].f[2], !strcmp(r[i].f[0], "ref") ?
		       "(the --bad commit)" : "", subj, r[i].f[4], strcmp(r[i].f[4], "1") ? "s" : "",
		       r[i].f[9], r[i].f[8]);
		free(subj);
		if (strcmp(r[i].f[0], "ref")) {
			decisive++;
			flaky_decided += !strcmp(r[i].f[3], "1");
		}
	}
	for (size_t i = 0; i < n; i++) {
		char *subj;

		if (strcmp(r[i].f[2], "skip"))
			continue;
		if (!skipped++)
			printf("\nbisect: skipped commits:\n");
		subj = git_subject(c, r[i].f[1]);
		printf("  %s: %s%s (logs %s)\n", subj, !strcmp(r[i].f[3], "1") ? "flaky: " : "",
		       r[i].f[9], r[i].f[8]);
		free(subj);
	}
	printf("\nbisect: confidence: ");
	if (end != GIT_FOUND)
		printf("none: no commit was isolated");
	else if (flaky_decided)
		printf("low: %zu of %zu decisive steps had runs that disagreed and were decided by "
		       "--flaky; re-run with --flaky=skip or more --runs", flaky_decided, decisive);
	else if (c->o->runs == 1)
		printf("moderate: %zu decisive steps, each booted once; a failure that shows in "
		       "only some runs could have made a bad commit look good (--runs N rules that "
		       "out with more certainty as N grows)", decisive);
	else
		printf("high: %zu decisive steps, each booted %u times, every run of each agreed; "
		       "a failure showing in half the runs would pass all %u runs of a bad commit "
		       "with probability %.2g%%", decisive, c->o->runs, c->o->runs,
		       100.0 / (double)(1ull << (c->o->runs > 60 ? 60 : c->o->runs)));
	if (skipped)
		printf("; %zu commit%s skipped (above)", skipped, skipped == 1 ? "" : "s");
	printf(".\nbisect: ./bisect --reset ends the bisection (and removes %s)\n", c->state);
	free(r);
	free(text);
	free(sha);
}

static int bisect_loop(struct bctx *c, const struct bref *ref)
{
	for (;;) {
		enum gitend end = git_end(c);
		struct bstep_out s;
		struct bstep v;
		char *head;
		int rc;

		if (end != GIT_GOING) {
			report(c, end);
			return end == GIT_FOUND ? BISECT_EXIT_FOUND : BISECT_EXIT_UNDECIDED;
		}
		head = git_out(c, "rev-parse", GIT_HEAD, NULL);
		if (!head)
			die("git rev-parse HEAD failed in %s", c->src);
		step_run(c, head, "step", c->o->runs, c->o->results, &s);
		bstep_classify(ref, s.runs, s.nruns, s.build_why, c->o->flaky, &v);
		print_step(c, head, "step", &s, &v);
		rc = bisect_git(c, bverdict_name(v.verdict), head, NULL);
		if (rc != 0 && git_end(c) == GIT_GOING)
			die("git bisect %s %s failed (exit %d; %s/git.log)", bverdict_name(v.verdict),
			    head, rc, c->state);
		record_step(c, "step", head, &s, &v);
		bstep_free(&v);
		step_out_free(&s);
		free(head);
	}
}

static unsigned int steps_made(const struct bctx *c)
{
	char *t = read_state(c, "steps");
	unsigned int n = 0;

	for (char *p = t; p && *p; p++)
		n += *p == '\n';
	free(t);
	return n;
}

static int start(struct bctx *c)
{
	/* static: what a die() in validate_or_die() leaves allocated stays reachable */
	static char *good, *bad;
	char *head;

	validate_or_die(c, &good, &bad);
	state_make_or_die(c, BISECT_MARKER);
	bopts_save_or_die(c->o, c->state);
	write_state_or_die(c, "bad", bad, 0);
	printf("bisect: %s: good %.12s, bad %.12s, %s, %u run%s a step, state in %s\n", c->src,
	       good, bad, c->o->profile, c->o->runs, c->o->runs == 1 ? "" : "s", c->state);
	if (bisect_git(c, "start", bad, good) != 0) {
		warn("git bisect start failed (its words above): undone");
		undo_and_exit(c, BISECT_EXIT_USAGE, NULL);
	}
	head = git_out(c, "rev-parse", GIT_HEAD, NULL);
	if (!head) {
		warn("git rev-parse HEAD failed after git bisect start: undone");
		undo_and_exit(c, BISECT_EXIT_FAILED, NULL);
	}
	write_state_or_die(c, "next", head, 0);
	free(head);
	free(good);
	free(bad);
	good = bad = NULL;
	return 0;
}

int cmd_bisect(int argc, char **argv)
{
	/* static: what a die() leaves allocated stays reachable (no leak reports) */
	static struct bopts o;
	static struct bctx c;
	static struct bref ref;
	char *bad;
	int rc;

	err_prog = "bisect";
	atexit(close_stdout);
	bopts_parse_or_die(&o, argc, argv);
	bctx_init_or_die(&c, &o);
	if (o.mode == BM_RESET || o.mode == BM_CONTINUE) {
		int kind = state_kind_or_die(&c, BISECT_MARKER);

		err_exit_status = BISECT_EXIT_USAGE;
		if (kind == STATEDIR_ABSENT || kind == STATEDIR_EMPTY)
			die("no bisection %shere (%s %s)", o.mode == BM_CONTINUE ? "to continue " : "",
			    c.state, kind == STATEDIR_ABSENT ? "does not exist" : "is empty");
		if (kind != STATEDIR_OURS)
			state_refuse_foreign(&c, BISECT_MARKER, kind);
		err_exit_status = 1;
	}
	if (o.mode == BM_RESET) {
		if (git_run(&c, -1, "bisect", "reset", NULL) != 0)
			die("git bisect reset failed in %s; %s is kept", c.src, c.state);
		state_remove(&c);
		printf("bisect: ended; %s removed\n", c.state);
		bctx_free(&c);
		bopts_free(&o);
		return 0;
	}
	if (o.mode == BM_COMPARE) {
		rc = cmd_compare(&c);
		bctx_free(&c);
		bopts_free(&o);
		return rc;
	}
	if (o.mode == BM_CONTINUE) {
		char *state = xstrdup(c.state);

		bctx_free(&c);
		bopts_load_or_die(&o, state);
		free(state);
		bctx_init_or_die(&c, &o);
		printf("bisect: continuing the bisection in %s\n", c.state);
	} else {
		start(&c);
	}
	c.nstep = steps_made(&c);
	if (!ref_load(&c, &ref)) {
		bad = read_state(&c, "bad");
		if (!bad)
			die("%s/bad is missing: ./bisect --reset and start again", c.state);
		reference_or_die(&c, bad, &ref);
		free(bad);
	}
	rc = bisect_loop(&c, &ref);
	bref_free(&ref);
	bctx_free(&c);
	bopts_free(&o);
	return rc;
}
