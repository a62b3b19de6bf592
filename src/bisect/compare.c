// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c: ./bisect --compare REV_A REV_B PROFILE: both kernels built,
 * cut and booted once with --results; every test whose verdict differs
 * (the exit status where a run has no test records), as ./vm
 * --compare-results would say (abcompare.h), is re-run --runs times on
 * both, and only the differences that held in every re-run are printed.
 * Each side's kernel is copied aside (bctx.kernel), so the re-runs boot it
 * again without building it again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "abcompare.h"
#include "bisect.h"
#include "err.h"
#include "statedir.h"
#include "tree.h"

struct side {
	const char *label, *rev;
	char *sha, *dir;
	struct bstep_out s;	/* s.ab: each run's outcomes */
};

static void side_use(struct bctx *c, struct side *sd)
{
	free(c->kernel);
	free(c->mods);
	free(c->image);
	c->kernel = xasprintf("%s/kernel", sd->dir);
	c->mods = xasprintf("%s/mods", sd->dir);
	c->image = xasprintf("%s/image", sd->dir);
}

static int side_build(struct bctx *c, struct side *sd)
{
	char *failed = NULL;

	sd->dir = xasprintf("%s/%s", c->state, sd->label);
	if (mkdir_p(sd->dir, &failed) < 0)
		die_errno("cannot create %s", failed ? failed : sd->dir);
	free(failed);
	side_use(c, sd);
	if (git_run(c, -1, "checkout", "-q", "--detach", sd->sha, NULL) != 0) {
		warn("git checkout %s failed in %s", sd->rev, c->src);
		return -1;
	}
	step_run(c, sd->sha, sd->label, 1, 1, &sd->s);
	printf("bisect: %s = %s: build %.1f s, cut %.1f s, boot %.1f s; logs %s\n", sd->label,
	       sd->rev, sd->s.build_secs, sd->s.cut_secs, sd->s.boot_secs, sd->s.dir);
	if (sd->s.build_why) {
		warn("%s (%s): %s", sd->label, sd->rev, sd->s.build_why);
		return -1;
	}
	return 0;
}

static void side_free(struct side *sd)
{
	step_out_free(&sd->s);
	free(sd->sha);
	free(sd->dir);
}

/* back to the branch or commit the tree was on */
static void restore(const struct bctx *c, const char *orig)
{
	if (orig && git_run(c, -1, "checkout", "-q", orig, NULL) != 0)
		warn("git checkout %s failed in %s: the tree is left detached", orig, c->src);
}

int cmd_compare(struct bctx *c)
{
	/* static: what an exit leaves allocated stays reachable */
	static struct side a, b;
	struct strv diff = STRV_INIT;
	char *orig, *dirty, *failed = NULL, *started = xasprintf("%s/BISECT_START", c->gitdir);
	struct stat st;
	size_t held = 0;
	int rc = 0, kind;

	a.label = "A";
	a.rev = c->o->good;
	b.label = "B";
	b.rev = c->o->bad;
	err_exit_status = BISECT_EXIT_USAGE;
	rc = stat(started, &st);
	free(started);
	if (rc == 0)
		die("%s: git bisect is running there; --compare would move its HEAD", c->src);
	a.sha = git_commit_or_null(c, a.rev);
	b.sha = git_commit_or_null(c, b.rev);
	if (!a.sha || !b.sha)
		die("%s: no such commit in %s", !a.sha ? a.rev : b.rev, c->src);
	dirty = git_out(c, "status", "--porcelain", "--untracked-files=no", NULL);
	if (!dirty)
		die("git status failed in %s", c->src);
	if (*dirty && !c->o->allow_dirty)
		die("%s has uncommitted changes (%s...): commit or stash them, or --allow-dirty",
		    c->src, dirty);
	free(dirty);
	orig = git_out(c, "symbolic-ref", "-q", "--short", GIT_HEAD, NULL);
	if (!orig)
		orig = git_out(c, "rev-parse", GIT_HEAD, NULL);
	inputs_or_die(c, a.sha, b.sha);
	kind = state_kind_or_die(c, COMPARE_MARKER);
	if (kind == STATEDIR_NOTDIR || kind == STATEDIR_UNMARKED)
		state_refuse_foreign(c, COMPARE_MARKER, kind);
	err_exit_status = BISECT_EXIT_FAILED;
	/* the last comparison's logs make way */
	if (kind == STATEDIR_OURS && (kind = remove_tree(c->state, &failed)) < 0)
		die_err(kind, "cannot remove %s", failed ? failed : c->state);
	free(failed);
	state_make_or_die(c, COMPARE_MARKER);
	if (side_build(c, &a) || side_build(c, &b)) {
		restore(c, orig);
		exit(BISECT_EXIT_FAILED);
	}
	ab_differs(&a.s.ab[0], &b.s.ab[0], &diff);
	if (!diff.n) {
		printf("bisect: no test differs between A (%s) and B (%s)\n", a.rev, b.rev);
		restore(c, orig);
		free(orig);
		side_free(&a);
		side_free(&b);
		return 0;
	}
	printf("bisect: %zu test%s differ%s in the first runs:", diff.n, diff.n == 1 ? "" : "s",
	       diff.n == 1 ? "s" : "");
	for (size_t i = 0; i < diff.n; i++) {
		char wa[32], wb[32];

		printf(" %s (A %s, B %s)", diff.v[i], abrun_word(&a.s.ab[0], diff.v[i], wa, sizeof(wa)),
		       abrun_word(&b.s.ab[0], diff.v[i], wb, sizeof(wb)));
	}
	printf("\nbisect: re-running both kernels %u time%s\n", c->o->runs,
	       c->o->runs == 1 ? "" : "s");
	fflush(stdout);
	/* the whole profile again: a test cannot be picked out of a profile's run */
	side_use(c, &a);
	step_boots(c, a.s.dir, c->o->runs, 1, &a.s);
	side_use(c, &b);
	step_boots(c, b.s.dir, c->o->runs, 1, &b.s);
	for (size_t i = 0; i < diff.n; i++) {
		char sa[32], sb[32], *why;

		/* the re-runs only: the first runs picked the tests */
		if (ab_holds(diff.v[i], a.s.ab + 1, a.s.nruns - 1, b.s.ab + 1, b.s.nruns - 1, sa, sb,
			     sizeof(sa), &why)) {
			if (!held++)
				printf("bisect: the differences that held over %u re-run%s of each:\n",
				       c->o->runs, c->o->runs == 1 ? "" : "s");
			printf("  %s: A %s, B %s\n", diff.v[i], sa, sb);
		} else {
			printf("bisect: did not hold: %s\n", why);
		}
		free(why);
	}
	if (!held)
		printf("bisect: no difference held over the re-runs\n");
	printf("bisect: logs in %s (A/, B/)\n", c->state);
	rc = held ? BISECT_EXIT_UNDECIDED : 0;
	restore(c, orig);
	free(orig);
	strv_free(&diff);
	side_free(&a);
	side_free(&b);
	return rc;
}
