/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verdict.h: the one rule for "the run failed", and the words for each of
 * ./vm's exit statuses. A run fails when the guest's status is not 0, a
 * counted kernel report was seen, a test record failed or never finished,
 * the results port asked for never worked, or (merging) its exit status
 * is unknown or a shard of its split is missing. ./vm's exit status,
 * results.txt's `meta exit`, junit.xml, results.tap and the merge's
 * status all come from here, as do the words for how the VM stopped.
 */
#ifndef RAPIDO_VM_VERDICT_H
#define RAPIDO_VM_VERDICT_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"

/* What is known when the VM has stopped. */
struct verdict_in {
	unsigned int vm;		/* for the messages */
	int rc;				/* the guest's status, or ./vm's 122-125, 128+SIG */
	const char *why;		/* what stopped it in words (the init's message), or NULL */
	unsigned int splats;		/* kernel reports that count (VM_SPLATS) */
	const struct rsuite *s;		/* --results: the records so far; NULL without */
};

/*
 * ./vm's exit status: rc when not 0; else 121 for counted kernel reports;
 * else 1 (VM_EXIT_TESTS_FAILED) when a test record failed or did not
 * finish; else 125 when --results was asked and no record (not even the
 * init's hello) came over the results port. Says on stderr which rule
 * turned a 0 into a failure. *cause (malloc'd) is the status in words.
 */
int verdict_decide(const struct verdict_in *in, char **cause);

/* How a qemu run ended, as launch saw it. */
enum verdict_end { VERDICT_EXITED, VERDICT_TIMEOUT, VERDICT_SIGNALLED };
struct verdict_stop {
	unsigned int vm;
	enum verdict_end end;
	int wstatus;			/* VERDICT_EXITED: qemu's wait status */
	int sig;			/* VERDICT_SIGNALLED: the signal ./vm got */
	unsigned int timeout;		/* VERDICT_TIMEOUT: --timeout, for the message */
	const char *console_log;
	const char *status;		/* what the status port held */
	size_t status_len;
	const char *nonce;		/* this boot's, framing its record */
	const char *console;		/* the console's tail, for the panic's line */
	size_t console_len;
	const char *shutdown_reason;	/* QMP SHUTDOWN's, "" if none */
	int panicked;			/* QMP GUEST_PANICKED */
	const char *vmcore;		/* the dump asked for, NULL if none */
	int vmcore_ok;
	const char *vmcore_err;		/* why not, "" for no answer */
	const char *vmcore_format;
	int interactive;		/* a console with a person at it and no --results:
					 * Ctrl-a x is a quit, no verdict */
};
/*
 * The exit status from how the VM stopped, before the records count: the
 * guest's own status from its record, else ./vm's 122-125 or 128+SIG, each
 * said on stderr with its cause. why (len bytes) gets the guest init's
 * message, "" if none; *tests_only the record's word that the guest's
 * failures were all failed tests (status.h), 0 if none.
 */
int verdict_stop(const struct verdict_stop *st, char *why, size_t len, int *tests_only);

/* Why a test that was running never finished, for VM status rc. */
const char *verdict_unfinished(int rc, char *buf, size_t len);

/*
 * The results of a run that passed could not be written whole (what, in
 * words): 125, with *cause (malloc'd, replaced) saying so; any other rc
 * is kept.
 */
int verdict_unwritten(int rc, const char *what, char **cause);

/*
 * The closing line for a person at a terminal: vm, status rc, its cause as
 * verdict_decide (or results_finish) gave it (NULL: the words for rc),
 * seconds, the log.
 */
void verdict_summary(unsigned int vm, int rc, const char *cause, double secs,
		     const char *console_log);

/* The "Exit status:" part of ./vm --help (and so of vm(1)). */
void verdict_help(FILE *f);

/*
 * ./vm's exit status rc in words: VERDICT_BRIEF a few ("timed out", "a test
 * failed"), as ./bisect says it; VERDICT_WHOLE ./vm's cause ("timeout:
 * --timeout expired and qemu was killed"). A static string, or buf (size
 * bytes) filled in (never for VERDICT_BRIEF: buf may be NULL).
 */
enum verdict_len { VERDICT_BRIEF, VERDICT_WHOLE };
const char *verdict_words(int rc, enum verdict_len len, char *buf, size_t size);

/* A suite failed: an exit status other than 0 (unknown too), or a failed test. */
int verdict_suite_failed(const struct rsuite *s);

/*
 * A failed suite with no failed test to show for it (a set-up failure, a
 * timeout between tests, an init error, a profile without records) gets a
 * failed testcase "rapido: exit status N: CAUSE" (or "exit status
 * unknown: CAUSE"), so junit.xml and KTAP say what the exit status says.
 * Idempotent.
 */
void verdict_add_case(struct rsuite *s);

/*
 * Merging: check that each split's shards (meta shard I/N) are all there,
 * once. Each problem is named on stderr; a missing shard becomes a suite
 * of its own with a failed testcase "rapido: shard I/N missing" (appended
 * to *v). Returns how many problems there were.
 */
unsigned int verdict_check_shards(struct rsuite **v, size_t *n, char *const *dirs);

#endif
