/* SPDX-License-Identifier: GPL-2.0 */
/*
 * known.h: known failures (./vm --known-failures FILE, VM_KNOWN_FAILURES)
 * and re-run failures (--rerun-failures N): which failed test is not new.
 *
 * A file holds one entry a line:
 *
 *	TEST [KERNEL] [until=YYYY-MM-DD] [# REASON]
 *
 * TEST is a test name or a glob (fnmatch, '*' also crosses '/'); a test
 * named SECTION:TEST (fstests sections) matches on TEST too. KERNEL is a
 * glob on the kernel release (6.1.*) or a version range MIN..MAX, either
 * end optional, each a prefix (5.10..6.1 holds 5.10.0 and 6.1.99). until=
 * ends the entry after that day (UTC): from then on a failure it names is
 * new again, named with its FILE:LINE. REASON (a bug URL) is what JUnit and
 * KTAP say. xfstests exclude files (check -E: a test a line, '#' comments)
 * and kdevops expunge lists ("generic/475 # korg#218224 ...") are read as
 * they are. A bad line is a FILE:LINE error before anything boots.
 *
 * Each test then ends as one of enum known_class; see known_classify().
 */
#ifndef RAPIDO_VM_KNOWN_H
#define RAPIDO_VM_KNOWN_H

#include <stddef.h>
#include <stdio.h>

#include "conf.h"
#include "results.h"
#include "strv.h"

struct known_entry {
	char *test;		/* name or glob */
	char *kernel;		/* release glob, NULL if none (or a range) */
	unsigned int min[4], max[4];	/* range bounds, min_n/max_n components (0: open) */
	unsigned int min_n, max_n;
	int range;
	int until;		/* days since 1970-01-01 of until=, -1 if none */
	char *reason;		/* after '#', NULL if none */
	char *file;		/* as given */
	unsigned int line;
};

struct known_set {
	struct known_entry *v;
	size_t n, cap;
	char **files;		/* every file read, for --write-known-failures and messages */
	char (*sha256)[65];	/* each file's sha256 (hex) as read, for the provenance */
	size_t n_files;
};

/* What ./vm was asked to do with failures (settings). */
struct known_opts {
	struct known_set set;
	unsigned int rerun;	/* --rerun-failures N */
	int strict;		/* --strict: fixed tests and expired entries fail the run */
	enum flaky_policy flaky;	/* --flaky=pass|fail (outcome.h) */
	const char *write;	/* --write-known-failures FILE, NULL if none */
	int today;		/* days since 1970-01-01 (UTC), for until= */
};

/* The options as given (./vm and ./vm --merge-results). */
struct known_cli {
	struct strv files;	/* --known-failures FILE, repeatable */
	const char *rerun;	/* --rerun-failures N */
	const char *flaky;	/* --flaky=pass|fail */
	const char *write;	/* --write-known-failures FILE */
	int strict;		/* --strict */
};

/* The long options of known_cli, numbered from base (getopt_long's val). */
#define KNOWN_LONGOPTS(base) \
	{ "known-failures", required_argument, NULL, (base) }, \
	{ "rerun-failures", required_argument, NULL, (base) + 1 }, \
	{ "flaky", required_argument, NULL, (base) + 2 }, \
	{ "write-known-failures", required_argument, NULL, (base) + 3 }, \
	{ "strict", no_argument, NULL, (base) + 4 }
#define KNOWN_NOPTS 5
/* Option c (base + 0..4 as above) with arg into cli. */
void known_cli_opt(struct known_cli *cli, int c, int base, const char *arg);
/*
 * The settings from cli alone (no rapido.conf, no --rerun-failures: see
 * knownopt.c): every file read and checked; a bad line, date or range
 * dies naming its FILE:LINE, before anything boots.
 */
void known_opts_init_or_die(struct known_opts *o, const struct known_cli *cli);
/* One more file into o, or die naming its FILE:LINE. */
void known_load_or_die(struct known_opts *o, const char *path);
void known_opts_free(struct known_opts *o);
void known_cli_free(struct known_cli *cli);

void known_set_init(struct known_set *ks);
void known_set_free(struct known_set *ks);
/*
 * Add the entries of text (a file's contents, name for the messages).
 * 0, or -EINVAL with *err "FILE:LINE: what is wrong" (malloc'd); nothing
 * of a bad text is kept.
 */
int known_parse(struct known_set *ks, const char *name, const char *text, char **err);
/* known_parse() of the file at path; 0 or -errno with *err. */
int known_load(struct known_set *ks, const char *path, char **err);

/* YYYY-MM-DD as days since 1970-01-01; -1 if it is no real date. */
int known_date_parse(const char *s, size_t len);
/* Days since 1970-01-01 as YYYY-MM-DD in buf (16 bytes do). */
void known_date_str(int days, char *buf, size_t len);
/* Today (UTC) in days since 1970-01-01. */
int known_today(void);
/* The entry applies to test name on kernel release (NULL: unknown, no KERNEL entry matches). */
int known_entry_matches(const struct known_entry *e, const char *name, const char *release);
/* The first entry of ks for name on release, NULL if none. */
const struct known_entry *known_find(const struct known_set *ks, const char *name,
				     const char *release);
/* "FILE:LINE" of e (malloc'd). */
char *known_where(const struct known_entry *e);

/*
 * Classify the tests of s (knownrun.c): the runs of a re-run test folded
 * into its last (the earlier ones hidden), each test's class set, and the
 * state changed to what the reports and the verdict read: a known failure
 * becomes RT_SKIP ("known failure: REASON"), a flaky test RT_PASS (RT_FAIL
 * with --flaky=fail), a fixed one RT_FAIL with strict, an expired entry's
 * failure stays RT_FAIL with the entry's FILE:LINE in its reason. Kernel
 * reports and ./vm's own testcases ("rapido: ...") are never known.
 * Returns how many tests are new problems: fail or error, and with strict
 * fixed, with --flaky=fail flaky. Idempotent.
 */
unsigned int known_classify(struct rsuite *s, const struct known_opts *o);

/*
 * The exit status after classifying s: rc (./vm's status before it) when
 * it is neither 0 nor a status that only failed tests made (tests_only);
 * else 1 if known_classify() found a new problem or (strict) an entry has
 * expired, rc if it is not 0 and no known failure or flaky test accounts
 * for it (a failure the records lost), else 0. Writes the reasons on stderr, prefixed by who.
 */
int known_exit(struct rsuite *s, const struct known_opts *o, int rc, int tests_only,
	       const char *who);

/*
 * --write-known-failures FILE from the classified suites v: FILE's lines
 * kept, its entries whose tests all passed now commented out as fixed, a
 * line appended for each failed test no entry of FILE names. 0 or -errno
 * with *err.
 */
int known_write(const char *path, const struct rsuite *v, size_t n, int today, char **err);

#endif
