/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktapread.h: a streaming reader of TAP 13/14 and KTAP (the kernel's
 * Documentation/dev-tools/ktap.rst) that turns a stream into per-test
 * records: pass, fail or skip, each named by its path of subtests.
 *
 * What counts as a failure, from the spec:
 *  - "not ok" unless the directive is SKIP, TODO or XFAIL; an unknown
 *    directive or a "#" not followed by one ("not ok 1 - fix #123") falls
 *    back to the result;
 *  - a parent's "not ok" even when all its subtests passed (the parent gets
 *    a record of its own then; a parent whose subtests failed adds none);
 *  - a plan not met: "1..5" with 2 results gives a failed record "plan"
 *    in that level, naming the results that never came;
 *  - "Bail out!": a failed record "bail-out"; what follows is not read;
 *  - subtests whose parent never reported: a failed record for the parent;
 *  - a stream with no version, plan or result line at all.
 * The lines before a result ("#" diagnostics and unknown lines) are its
 * output. Indentation opens and closes subtest levels (any width: KTAP
 * uses 2 spaces, KUnit and TAP 14 4).
 */
#ifndef RAPIDO_KTAPREAD_H
#define RAPIDO_KTAPREAD_H

#include <stddef.h>
#include <stdint.h>

enum ktap_verdict { KTAP_PASS, KTAP_FAIL, KTAP_SKIP };

struct ktap_record {
	enum ktap_verdict verdict;
	const char *name;	/* "SUBTEST/.../DESCRIPTION"; "" for the stream itself */
	const char *reason;	/* why it failed or was skipped; "" for a pass */
	const char *output;	/* the lines before its result, each ending in '\n' */
	uint64_t usecs;		/* from the previous result (or the start) to this one */
};

/* Called for each record, in order; a negative return stops the reader with it. */
typedef int (*ktap_emit_fn)(const struct ktap_record *rec, void *arg);

struct ktapread;

struct ktapread *ktapread_new(ktap_emit_fn emit, void *arg, uint64_t now_usecs);
/* One line, without its '\n' (a trailing '\r' is dropped); 0 or emit's error. */
int ktapread_line(struct ktapread *r, const char *line, size_t len, uint64_t now_usecs);
/* The end of the stream: what is still open is flushed and checked. */
int ktapread_end(struct ktapread *r, uint64_t now_usecs);
void ktapread_free(struct ktapread *r);

#endif
