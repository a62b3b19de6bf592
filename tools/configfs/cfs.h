/* SPDX-License-Identifier: GPL-2.0 */
/* cfs.h: applying a parsed spec under a configfs root: apply, rollback, teardown, plan. */
#ifndef RAPIDO_CONFIGFS_CFS_H
#define RAPIDO_CONFIGFS_CFS_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "spec.h"

/* Exit statuses of rapido-configfs (documented in --help and tools/configfs/README.md). */
enum {
	CFS_EXIT_OK = 0,		/* done */
	CFS_EXIT_FAILED = 1,		/* an operation failed; all that was done is undone */
	CFS_EXIT_USAGE = 2,		/* usage or spec error (also --dry-run finding one): nothing touched */
	CFS_EXIT_LEFT_BEHIND = 3,	/* rollback or teardown could not undo everything (listed) */
};

struct cfs_ctx {
	char *root;		/* absolute, no trailing slash ("" for "/") */
	int rootfd;		/* O_PATH directory fd of root; -1 when it does not exist */
	/*
	 * root is a plain directory standing in for configfs (unit tests):
	 * writes create the attribute file, `wait` makes a missing directory
	 * (as the kernel makes default groups), and rmdir first removes the
	 * files and the `wait`-made directories inside, as configfs does.
	 */
	bool emulate;
	FILE *trace;		/* each operation as performed; NULL: none */
	FILE *err;		/* failure reports; stderr from main() */
	int kmsg_fd;		/* /dev/kmsg positioned at its end at start; -1: none */
	/* Called after a failure is reported, before rollback (tests only). */
	void (*on_failure)(void *arg, const struct cfs_op *op);
	void *on_failure_arg;
};

/*
 * Set up ctx for root: made absolute with realpath(3) and opened. A missing
 * root is no error here (rootfd = -1, root kept as given, made absolute);
 * apply and plan report it. Returns 0 or -errno.
 */
int cfs_ctx_open(struct cfs_ctx *c, const char *root);
void cfs_ctx_close(struct cfs_ctx *c);
/* root + "/" + rel, malloc'd. */
char *cfs_abs(const struct cfs_ctx *c, const char *rel);

/* Apply every operation in order; on failure report it and roll back. Returns CFS_EXIT_*. */
int cfs_apply(struct cfs_ctx *c, const struct cfs_spec *s);

/*
 * Undo the spec in reverse: unlink links, write undo values (skipped where
 * the attribute already holds them), rmdir directories; what is already gone
 * counts as done, and an `ensure` directory still in use is kept. Goes on
 * past failures and names each. Returns CFS_EXIT_OK or CFS_EXIT_LEFT_BEHIND.
 */
int cfs_teardown(struct cfs_ctx *c, const struct cfs_spec *s);

/*
 * --dry-run: check that every parent directory and link target is made
 * earlier in the spec (mkdir, ensure, wait) or exists under the root, and
 * that nothing mkdir or link makes exists yet; print the plan to out.
 * Problems go to c->err as "file:line: message". Returns CFS_EXIT_OK or
 * CFS_EXIT_USAGE.
 */
int cfs_plan(struct cfs_ctx *c, const struct cfs_spec *s, bool teardown, FILE *out);

/* --- ops.c: one filesystem operation each, relative to the root; 0 or -errno --- */

int fs_mkdir(struct cfs_ctx *c, const char *rel);
/* rmdir; in emulate mode first the files and `wait`-made directories inside. */
int fs_rmdir(struct cfs_ctx *c, const char *rel);
/*
 * Exactly one open(O_WRONLY), one write(2), one close. *wrote gets what
 * write(2) returned (-1 on error); a short write returns -EIO.
 */
int fs_write(struct cfs_ctx *c, const char *rel, const char *val, size_t len, ssize_t *wrote);
/* Read an attribute (up to size-1 bytes, NUL-terminated). Returns length or -errno. */
ssize_t fs_read(struct cfs_ctx *c, const char *rel, char *buf, size_t size);
int fs_symlink(struct cfs_ctx *c, const char *target_rel, const char *rel);
int fs_unlink(struct cfs_ctx *c, const char *rel);
/* Poll until rel exists, up to timeout_ms; -ENOENT (or the stat error) on timeout. */
int fs_wait(struct cfs_ctx *c, const char *rel, unsigned int timeout_ms);
/* 0 if rel exists (following links when follow), else -errno. */
int fs_exists(struct cfs_ctx *c, const char *rel, bool follow);
bool fs_is_dir(struct cfs_ctx *c, const char *rel);

/* One trace line: "PHASE LINE ACTION /abs/path [VALUE | -> /abs/target]". */
void cfs_trace(struct cfs_ctx *c, const char *phase, const struct cfs_op *op,
	       const char *action, const char *extra, size_t extra_len);

/* --- report.c --- */

struct cfs_fail {
	const struct cfs_op *op;
	const char *action;	/* mkdir, write, link, wait, rmdir, unlink, "write undo" */
	const char *value;	/* what was written, or NULL */
	size_t value_len;
	int err;		/* positive errno */
	ssize_t wrote;		/* write(2)'s return for a short write, else -1 */
};

/* "EBUSY" for EBUSY; "E<n>" for an unknown one. */
const char *errno_name(int err);
/* Advice for a failure whose cause is usually known; malloc'd or NULL. */
char *cfs_hint(const struct cfs_op *op, const char *action, int err);
/*
 * The full report of a failure: "prog: [PHASE: ]file:line: ACTION /abs/path
 * [-> /abs/target] [VALUE]: ENAME: message", then a hint line where the
 * usual cause is known.
 */
void cfs_report(struct cfs_ctx *c, const struct cfs_spec *s, const struct cfs_fail *f,
		const char *phase);
/* One line for a left-behind list: "  /abs/path (rmdir: EBUSY: ...)". */
void cfs_report_left(struct cfs_ctx *c, const struct cfs_spec *s, const struct cfs_fail *f);

/* --- kmsg.c --- */

/* Open a kernel log (/dev/kmsg) positioned at its end. Returns fd or -errno. */
int kmsg_open(const char *path);
/*
 * Print the records that appeared since kmsg_open() (or the last dump),
 * indented, after header (printed only when there is a record). Returns
 * how many there were.
 */
int kmsg_dump(int fd, FILE *out, const char *header, const char *indent);

#endif
