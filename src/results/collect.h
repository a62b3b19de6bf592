/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect.h: a run's results while its VM runs and after it stops
 * (collect.c), through the door of resctx.h; and its results dir made
 * fresh (resdir.c). Every call takes NULL (no --results).
 */
#ifndef RAPIDO_RESULTS_COLLECT_H
#define RAPIDO_RESULTS_COLLECT_H

#include <stddef.h>

struct results_ctx;
struct results_run;
struct rsuite;
struct splat_scan;

/*
 * DIR made (mkdir -p) for a run's results, with no file an earlier run
 * wrote there (reports, records, run.json, console.log, vmcore, files/);
 * dies naming where (the option or key) on an error.
 */
void results_dir_fresh(const char *dir, const char *where);

/*
 * NULL without c->dir; dies if DIR's files cannot be written. c is kept
 * (not copied) until results_free: the launcher may update it (the
 * accelerator, once decided) before results_reset or results_finish.
 */
struct results_run *results_open(const struct results_ctx *c);
/* Start over (a KVM run that fell back to TCG). */
void results_reset(struct results_run *r);
/* con_line: the console lines read so far, ties kernel reports to tests (splattest.h) */
void results_input(struct results_run *r, const char *p, size_t n, double now,
		   unsigned long con_line);
/* A record of the launcher's own (results.h): into results.txt and the suite. */
void results_host_record(struct results_run *r, const char *line);
/* The records so far; NULL without --results. */
const struct rsuite *results_suite(const struct results_run *r);
/* The watchdog stopped the VM while test ran: the tests not run say so. */
void results_stopped_during(struct results_run *r, const char *test);
void results_console(struct results_run *r, const char *p, size_t n);
/* The guest init's status record said its failures were all failed tests (status.h). */
void results_tests_only(struct results_run *r, int tests_only);
/*
 * After the VM: report the splats (stderr, and as testcases), decide the
 * exit status from rc (the guest's, or the launcher's own; why: its cause
 * in words, or NULL) and the records (verdict.h), write the reports, then
 * results.txt's final `meta exit`. Returns the exit status; *cause
 * (malloc'd) its cause in words, as results.txt's `meta cause` says it.
 * c: the context (NULL without --results: the splats alone are reported).
 */
int results_finish(struct results_run *r, const struct results_ctx *c, struct splat_scan *sc,
		   int rc, const char *why, double secs, double now, char **cause);
void results_free(struct results_run *r);

#endif
