/* SPDX-License-Identifier: GPL-2.0 */
/*
 * results.h: per-test results of a run: the guest's test records (streamed
 * over a virtio serial port while the tests run, so a panic halfway loses
 * nothing already sent), kernel splats found on the console, and what CI
 * reads from them (JUnit XML, KTAP, a summary line).
 *
 * A record is one line of space-separated fields, each %-escaped (space,
 * '%', control characters as %XX; "-" for an empty field); its keywords
 * and caps are src/proto/protocol.h's (REC_*), described in
 * src/proto/PROTOCOL.md:
 *
 *	R1 start NAME
 *	R1 pass NAME SECS OUTPUT
 *	R1 fail NAME SECS REASON OUTPUT
 *	R1 skip NAME SECS REASON OUTPUT
 *	R1 error NAME SECS REASON OUTPUT	(a test that reached no verdict: LTP's
 *				 TBROK; a JUnit <error>, never a known failure nor
 *				 re-run, so it always fails the run)
 *	R1 hello FROM		(the guest init, once the port is open: it works)
 *	R1 plan NAME		(a test the guest means to run: one that never gets a
 *				 record is an error, "not run", so no test vanishes;
 *				 at most RESULTS_TESTS_MAX names)
 *	R1 rerun NAME N		(the next run of NAME, which just failed, is its
 *				 N-th re-run, as --rerun-failures asked)
 *
 * The sequence is the guest library's (autorun/lib/results.sh), and any
 * other is refused: hello only as the first record; rerun only under
 * ./vm --rerun-failures (meta rerun), N from 1 to its count, right after
 * a failed run of NAME or its re-run N-1. Each run of a name outside such
 * a chain is a test of its own: the second is named "NAME#2" (the third
 * "NAME#3"...), so a reused name never folds a failure into a later pass
 * (known.h: only a re-run chain is flaky). A line from the guest that is
 * no such record (one holding a NUL byte too: collect.c), is longer than
 * RESULTS_RECORD_MAX, or comes after the guest's records passed
 * RESULTS_VOLUME_MAX bytes or RESULTS_TESTS_MAX tests is a protocol error: the first one is kept in s->bad (naming the
 * record's number and the line), nothing after a cap is taken, and the run
 * fails (./vm: 125, a merge: an unknown status). Whether the autorun's
 * failures were all failed tests (which known failures may excuse) is no
 * record: the guest init says it in its framed status record (status.h),
 * after every other guest process is gone, where a test cannot write.
 *
 * and, written by ./vm itself into DIR/results.txt (never taken from the
 * guest): "R1 kernel TITLE KIND REPORT" (a counted splat, a failed
 * testcase), "R1 tolerated TITLE KIND REPORT" (a kind VM_SPLATS leaves
 * out: a skipped testcase), "R1 meta KEY VALUE" (suite, shard, kernel,
 * timestamp, time, cause, tests-only, exit, and prov.KEY: run.json's
 * provenance as JUnit properties; exit is written last, once the reports
 * are written, so it is ./vm's final status), "R1 error NAME SECS REASON
 * OUTPUT" (as the guest's: the watchdog stopped the test, the VM stopped
 * before it ran), "R1 meta rerun N" (--rerun-failures N:
 * the re-runs the guest may record) and "R1 splat NAME REASON TEXT RUN" (a
 * kernel report made while NAME ran: its RUN-th run, from 1, fails with
 * REASON, TEXT added to its output; so a report in the first run of a
 * re-run test stays there. Without RUN, as an older ./vm wrote it: the
 * last run).
 *
 * SECS is a plain decimal (anything else reads as 0); `meta exit` is a
 * decimal from 0 to 255 without sign or leading zeros, given once: a
 * garbled one, two of them or none is an unknown status (a failed run).
 */
#ifndef RAPIDO_VM_RESULTS_H
#define RAPIDO_VM_RESULTS_H

#include <stddef.h>
#include <stdio.h>

#include "outcome.h"
#include "protocol.h"
#include "splatkind.h"
#include "strv.h"

enum rtest_state { RT_RUNNING, RT_PASS, RT_FAIL, RT_SKIP };

struct rtest {
	char *name;
	enum rtest_state state;
	double secs;
	double started;		/* host clock at "start", for one that never ends */
	char *reason;		/* fail/skip, NULL if none */
	char *output;		/* NULL if none */
	int kernel;		/* a kernel splat, not a guest test */
	int error;		/* RT_FAIL without a verdict: watchdog, not run (JUnit <error>) */
	unsigned int splats;	/* kernel reports made while it ran (R1 splat) */
	/* console.log lines while it ran (splattest.c); 0 unknown, con_to 0 still running */
	unsigned long con_from, con_to;
	size_t run_next;	/* the next running test in its hash chain, + 1; 0 ends it */
	/* known.h: known failures and re-runs */
	enum outcome cls;
	int hidden;		/* an earlier run of a re-run test: counted in its last run */
	unsigned int runs, fails;	/* the runs of the test (re-runs), how many failed */
	unsigned int splat_runs;	/* of them, those a kernel report failed (R1 splat) */
	char *known;		/* the known-failure entry's reason (or FILE:LINE) */
	char *known_at;		/* its FILE:LINE */
	char *as;		/* the name the guest gave it when name is "NAME#K", else NULL */
	unsigned int rerun;	/* the re-run it is (R1 rerun), 0 for a first run */
};

/* A name the guest used: its last test, how many tests had it, a re-run announced. */
struct rname {
	char *name;
	size_t last;		/* the latest test of the name (or renamed to it), + 1 */
	unsigned int count;	/* tests named so (the K of "NAME#K") */
	unsigned int pending;	/* R1 rerun N seen, its test not yet: N */
	int planned;		/* in the suite's plan (R1 plan) */
};

struct rsuite {
	char *name;		/* the profile, with the shard if any */
	char *shard;		/* "I/N" or NULL */
	char *kernel;		/* release */
	char *timestamp;	/* ISO 8601, the run's start */
	double secs;		/* the whole run */
	int exit;		/* ./vm's exit status, -1 unknown */
	unsigned int exits;	/* meta exit records read: one, or the status is unknown */
	char *exit_bad;		/* a meta exit that was no status, as written */
	char *cause;		/* why the run failed, in words (meta cause) */
	int port_seen;		/* a guest record arrived: the results port worked */
	struct strv plan;	/* R1 plan: the tests the guest meant to run */
	struct strv prop_keys, prop_vals;	/* meta prov.KEY: provenance, for JUnit */
	size_t last;		/* the test the last start or end record was about, + 1 */
	int guest_tests_only;	/* the guest: its failures were all failed tests ("R1 failures tests") */
	int tests_only;		/* meta tests-only: the exit status is 1 for failed tests only */
	struct rtest *t;
	size_t n, cap;
	/* running tests by name (an end record finds its start in O(1), not O(n)) */
	size_t *run_hash, run_buckets, running;
	/* the sequence rules (above): every name used, open addressing */
	struct rname *names;
	size_t names_n, names_cap;
	unsigned int rerun_max;	/* meta rerun: --rerun-failures N */
	unsigned long guest_recs;	/* guest lines seen (the N of "record N") */
	unsigned long guest_ok;	/* of them, records taken */
	size_t guest_bytes;	/* their bytes */
	int capped;		/* a cap was passed: no more guest records */
	char *bad;		/* the first protocol error, in words; NULL if none */
};

struct rcount {
	unsigned int tests, pass, fail, skip, kernel, error;	/* error: of fail */
	unsigned int known, flaky, fixed;	/* of pass, skip: known.h's classes */
};

void rsuite_init(struct rsuite *s);
void rsuite_free(struct rsuite *s);
/* RESULTS_RECORD_MAX, RESULTS_VOLUME_MAX, RESULTS_TESTS_MAX: the caps, protocol.h */
/*
 * Apply one record line. host: the line comes from ./vm's own file, so
 * kernel, tolerated and meta records are taken (and junk between records
 * is skipped). now: the host clock. Returns 0; -EINVAL for a line that is
 * no valid record (ignored); -EBADMSG for a guest line that breaks the
 * sequence rules or a cap (s->bad says which, the first time).
 */
int rsuite_record(struct rsuite *s, const char *line, int host, double now);
/* host for a record ./vm makes as it runs: its own, never the guest's, never capped */
#define RSUITE_VM 2
/* A protocol error about the guest's next line (one longer than the cap, cut): s->bad. */
void rsuite_bad_line(struct rsuite *s, const char *line, const char *why);
/* A guest test (not a kernel report) is named name, or was renamed to it (NAME#K): O(1). */
int rsuite_has_test(const struct rsuite *s, const char *name);
/* The name the guest gave t, as its records say it ("dup" of "dup#2"): a record about t uses it. */
const char *rtest_guest_name(const struct rtest *t);
/* A new test NAME (RT_RUNNING), for the caller to fill in. */
struct rtest *rsuite_add_test(struct rsuite *s, const char *name);
/* A provenance property (meta prov.KEY), replacing one of that key. */
void rsuite_set_prop(struct rsuite *s, const char *key, const char *value);
/* Tests still running become failures: "did not finish: WHY". */
void rsuite_close_running(struct rsuite *s, double now, const char *why);
void rsuite_count(const struct rsuite *s, struct rcount *c);
/*
 * Apply every line of a results.txt (host records; junk lines skipped),
 * close the tests still running and settle the exit status (-1 unless
 * exactly one valid meta exit was read; then s->cause says why).
 */
void rsuite_parse(struct rsuite *s, char *text);
/* The most a results.txt may hold: the guest's records and ./vm's own (kernel reports). */
#define RESULTS_TXT_MAX (RESULTS_VOLUME_MAX + (32u << 20))
/*
 * Read DIR/results.txt into s: a regular file of at most RESULTS_TXT_MAX
 * bytes. 0 or -errno (*err set, naming the path and the cause).
 */
int rsuite_load(struct rsuite *s, const char *path, char **err);
/* s with every control character as '?': one line of a summary (malloc'd). */
char *text_oneline(const char *s);

/* junit.c: one <testsuites> with a <testsuite> per suite. */
void junit_write(FILE *f, const struct rsuite *v, size_t n);
/* ktap.c: KTAP version 1, a subtest per suite, a test per testcase. */
void ktap_write(FILE *f, const struct rsuite *v, size_t n);

/*
 * reports.c: write OUT/junit.xml, OUT/results.tap (each atomically) for suites v;
 * 0 or -errno with *err naming the file.
 */
int results_write_reports(const char *dir, const struct rsuite *v, size_t n, char **err);
/*
 * "N tests, P passed, F failed, S skipped, K kernel splats" (malloc'd);
 * with COLOUR (colour_wanted(): a terminal), passes green, failures and
 * splats red, each only when not 0.
 */
char *results_summary(const struct rcount *c, int colour);

/* splat.c: kernel reports on the console. */
struct splat {
	enum splat_kind kind;
	char *title;		/* the first line, without its timestamp */
	char *text;		/* the whole report, kernel lines as printed */
	size_t lines;
	unsigned long first_line, last_line;	/* in the console (console.log), from 1 */
	double first_ts, last_ts;
};

struct splat_scan {
	char line[4096];
	size_t len;
	struct splat *v;
	size_t n, cap;
	int open;		/* v[n - 1] still collects lines */
	int in_trace;		/* saw "Call Trace:" in the open report */
	int timestamps;		/* the kernel stamps its lines: others are not the kernel's */
	double last_closed_ts;
	unsigned long lineno;	/* console lines scanned so far */
	/*
	 * the kernel's first "Out of memory: Killed process N (NAME) ..."
	 * (or a memory cgroup's), "" if none: a guest status of signal 9
	 * is then the OOM killer's, and its verdict says so
	 */
	char oom[160];
};

void splat_scan_init(struct splat_scan *sc);
/* Feed console bytes; complete lines are scanned as they come. */
void splat_feed(struct splat_scan *sc, const char *p, size_t n);
/* The console ended: scan a last partial line, close an open report. */
void splat_finish(struct splat_scan *sc);
void splat_scan_free(struct splat_scan *sc);

#endif
