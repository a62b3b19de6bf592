/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bisect.h: ./bisect: find the first bad kernel commit with git bisect,
 * each step configured, built, cut and booted as rapido does by hand, and
 * classified by classify.c; or compare two kernels test by test
 * (src/results' abcompare.h, as ./vm --compare-results does).
 */
#ifndef RAPIDO_BISECT_H
#define RAPIDO_BISECT_H

#include <regex.h>
#include <stddef.h>

#include "abcompare.h"
#include "classify.h"
#include "strv.h"

enum {
	BISECT_EXIT_FOUND = 0,
	BISECT_EXIT_UNDECIDED = 1,	/* only skipped commits left; or a difference held (--compare) */
	BISECT_EXIT_USAGE = 2,		/* usage, or input that cannot be bisected */
	BISECT_EXIT_FAILED = 3,		/* a step could not run at all (the bad commit passed...) */
};

enum bmode { BM_START, BM_CONTINUE, BM_RESET, BM_COMPARE };

struct bopts {
	enum bmode mode;
	const char *good, *bad;		/* BM_START; BM_COMPARE: A and B */
	const char *profile;
	struct strv cut_args, vm_args;
	unsigned int runs;
	enum flaky_policy flaky;	/* --flaky: fail (bad), skip or pass (good) */
	const char *match;		/* --match REGEX, or NULL */
	regex_t match_re;
	int results;			/* --results: compare failing test names */
	const char *build_cmd;		/* replaces configure + build */
	char *build_prog;		/* build_cmd resolved */
	unsigned int jobs;
	const char *build_dir;		/* O=, NULL: the tree itself */
	const char *base;		/* kernel-config --base */
	struct strv fragments;
	const char *state;		/* --state DIR, NULL: GIT_DIR/rapido-bisect */
	int allow_dirty;
	struct strv saved;		/* the arguments, as --continue reads them back */
};

/* The programs and paths a run uses, found once. */
struct bctx {
	struct bopts *o;
	char *src;			/* KERNEL_SRC, absolute: the git tree */
	char *obj;			/* the build directory (O=, or src) */
	char *gitdir;			/* its GIT_DIR, absolute */
	char *state;			/* the state directory */
	struct strv cut, vm;		/* how to run ./cut and ./vm: a program, or rapido CMD */
	char *kconfig;			/* host/kernel-config */
	char *kernel;			/* NULL, or where the built kernel is copied for
					   ./cut and ./vm (--compare: each side's own) */
	char *mods;			/* STATE/mods */
	char *image;			/* STATE/image */
	unsigned int nstep;		/* steps made so far, for directory names */
};

/* state.c: the state directory, marked (statedir.h) as a bisection's or a comparison's */
#define BISECT_MARKER "rapido-bisect.state"
#define COMPARE_MARKER "rapido-compare.state"
#define FAILED_MARKER "rapido-bisect.failed"	/* STATE-failed: a failed start's logs */
#define BISECT_STATE_MAX (16 << 20)	/* a state file: args, steps, ref, git.log */
#define BISECT_LOG_MAX (256 << 20)	/* a log read back: build.log, console.log */
/* statedir_kind() of c->state; dies (exit 2) when it cannot be told */
int state_kind_or_die(const struct bctx *c, const char *marker);
/* dies (exit 2): c->state is not a directory of ours (kind) */
__attribute__((noreturn)) void state_refuse_foreign(const struct bctx *c, const char *marker, int kind);
void state_make_or_die(const struct bctx *c, const char *marker);
void state_remove(const struct bctx *c);
/* DIR/NAME, a regular file of at most BISECT_STATE_MAX bytes; NULL when absent; dies otherwise */
char *state_read_or_die(const char *dir, const char *name, size_t *len);
/* a log (a regular file, at most BISECT_LOG_MAX bytes), NULL when it cannot be read */
char *log_read(const char *path, size_t *len);

/* args.c */
void bopts_parse_or_die(struct bopts *o, int argc, char **argv);
void bopts_free(struct bopts *o);
void bopts_save_or_die(const struct bopts *o, const char *state);
void bopts_load_or_die(struct bopts *o, const char *state);

/* git.c: git in ctx->src; output captured, stderr passed through */
#define GIT_HEAD "HEAD"	/* a name, not a rapido.conf key (lib-confkeys.c reads literals) */
int git_run(const struct bctx *c, int out_fd, const char *arg, ...) __attribute__((sentinel));
char *git_out(const struct bctx *c, const char *arg, ...) __attribute__((sentinel));
char *git_commit_or_null(const struct bctx *c, const char *rev);
char *git_subject(const struct bctx *c, const char *sha);

#define BUILD_ERRORS_MAX 8
/* step.c: one commit (HEAD) configured, built, cut and booted */
struct bstep_out {
	char *dir;			/* its logs */
	char *build_why;		/* NULL when built and cut */
	struct strv errors;		/* the log's first error lines, when not */
	const char *errors_log;		/* that log: "build.log" or "cut.log" */
	double build_secs, cut_secs, boot_secs;
	struct brun *runs;
	size_t nruns;
	struct abrun *ab;		/* per run, its tests' outcomes (--results; --compare) */
};
void step_run(struct bctx *c, const char *sha, const char *label, unsigned int runs,
	      int results, struct bstep_out *out);
/* runs more boots of the kernel and image already cut, into dir/run-N */
void step_boots(const struct bctx *c, const char *dir, unsigned int runs, int results,
		struct bstep_out *out);
void step_out_free(struct bstep_out *s);
/*
 * A run's results.txt at path, read as ./vm --compare-results reads it
 * (abrun_load): its tests' outcomes into ab, its failing tests (fail,
 * error) into r. 0, or -errno with *err (malloc'd); r then has no results.
 */
int brun_results(struct brun *r, struct abrun *ab, const char *path, char **err);
void bctx_init_or_die(struct bctx *c, struct bopts *o);
void bctx_free(struct bctx *c);
/* dies (exit 2) unless the profile, the fragments and (without --build-cmd) the
   kernel tree at good and bad are there: checked before git bisect starts */
void inputs_or_die(const struct bctx *c, const char *good, const char *bad);
void bctx_env(const struct bctx *c);

/* compare.c */
int cmd_compare(struct bctx *c);

int cmd_bisect(int argc, char **argv);

#endif
