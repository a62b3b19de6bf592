/* SPDX-License-Identifier: GPL-2.0 */
/*
 * splattest.h: kernel reports tied to the test that was running when the
 * console showed them, and the allow file of reports that fail nothing
 * (--splats-allow, VM_SPLATS_ALLOW).
 *
 * The allow file: one entry a line, "REGEX # REASON", REGEX a POSIX
 * extended regular expression matched against a report's first line (as
 * ./vm prints it, without the printk timestamp), REASON (a bug URL, why
 * it is harmless) required; the last whitespace-then-'#' splits them.
 * Blank lines and lines starting with '#' are comments.
 */
#ifndef RAPIDO_VM_SPLATTEST_H
#define RAPIDO_VM_SPLATTEST_H

#include <regex.h>
#include <stddef.h>

#include "results.h"
#include "strv.h"

struct splat_allow_entry {
	regex_t re;
	char *pattern, *reason;
	unsigned int line;
};

struct splat_allow {
	char *path;			/* as given, for FILE:LINE */
	struct splat_allow_entry *v;
	size_t n;
	char sha256[65];		/* of the file's bytes, for run.json */
};

/*
 * Parse the allow file text (path names it in messages). 0, or -EINVAL
 * with *err (malloc'd) naming FILE:LINE and every bad line, one a line.
 */
int splat_allow_parse(struct splat_allow *a, const char *path, const char *text, char **err);
/* Read and parse path: 0 or -errno/-EINVAL with *err. */
int splat_allow_load(struct splat_allow *a, const char *path, char **err);
/* The entry that allows a report with this first line, or NULL. */
const struct splat_allow_entry *splat_allow_match(const struct splat_allow *a, const char *title);
void splat_allow_free(struct splat_allow *a);

/*
 * The records (results.h) for the reports of sc: "R1 splat NAME REASON
 * TEXT RUN" for each test run that ran while one counted (mask, not allowed),
 * then a run-level "R1 kernel", "R1 tolerated" or "R1 allowed" line per
 * report, into out. *counted: the reports that count. warn_vm: the VM
 * number for the stderr lines, 0 for none.
 */
void splat_records(const struct rsuite *s, const struct splat_scan *sc, unsigned int mask,
		   const struct splat_allow *a, struct strv *out, unsigned int *counted,
		   unsigned int warn_vm);

#endif
