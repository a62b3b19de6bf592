/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jobsres.h: the results of a --jobs run (jobsres.c): N shards' VMs and a
 * serial VM after them, each with its own results dir under DIR, merged
 * into DIR as one run. The launcher forks and waits (src/vm/jobs.c); what
 * their results say is decided here.
 */
#ifndef RAPIDO_RESULTS_JOBSRES_H
#define RAPIDO_RESULTS_JOBSRES_H

#include <stddef.h>

struct results_ctx;

/*
 * What a shard's guest left to the serial VM: one test name a line, as a
 * record field (pct.h), in its $RAPIDO_RESULTS_DIR (autorun/lib/results.sh).
 */
#define JOBS_DEFERRED_FILE "rapido-deferred.txt"
/* The serial VM's results, in DIR; the shards' are DIR/shard-I. */
#define JOBS_SERIAL_DIR "serial"

/* One VM of the run, as its results see it. */
struct results_job {
	const char *dir;	/* its --results */
	unsigned int shard;	/* I of N; 0: the serial VM */
	int ran;		/* it was started */
	int code;		/* its exit status, 128+SIG if killed */
};

/* A test a shard left to the serial VM. */
struct results_deferred {
	char *name;
	unsigned int shard;
};

/*
 * c->dir made as fresh as one VM's (results_dir_fresh), without the
 * shard and serial dirs of an earlier run; dies naming c->dir_where.
 */
void results_jobs_prepare(const struct results_ctx *c);
/* c->dir/run.json: what the run was, as one VM's says it, and "jobs": c->jobs. */
void results_jobs_provenance(const struct results_ctx *c, const char *ts);
/* Append what the guest of shard's VM (results in dir) left to the serial VM to *v. */
void results_deferred_read(const char *dir, unsigned int shard, struct results_deferred **v,
			   size_t *n);
/* Each deferred test is in the serial VM's results (in dir); how many are not (named). */
unsigned int results_deferred_check(const char *dir, const struct results_deferred *v, size_t n,
				    unsigned int shards);
void results_deferred_free(struct results_deferred *v, size_t n);
/* The merge into dir of the VMs that ran, as rapido results merge does; its exit status. */
int results_jobs_merge(const char *dir, const struct results_job *v, size_t n);
/*
 * c->dir/results.txt, so that DIR is a results dir like one VM's: every
 * VM's records as one suite, then the run's time, tests-only (clean: nothing
 * lost or stopped), exit status rc.
 */
void results_jobs_records(const struct results_ctx *c, const struct results_job *v, size_t n,
			  int rc, int clean, const char *ts, double secs);

#endif
