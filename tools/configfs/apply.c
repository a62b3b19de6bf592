// SPDX-License-Identifier: GPL-2.0
/* apply.c: perform a spec in order; on the first failure undo what was done, in reverse. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfs.h"
#include "err.h"

enum undo_kind {
	UNDO_RMDIR,	/* mkdir, or ensure that made the directory */
	UNDO_UNLINK,	/* link */
	UNDO_WRITE,	/* write ... undo VALUE */
};

struct done {
	const struct cfs_op *op;
	enum undo_kind kind;
};

static void fail_init(struct cfs_fail *f, const struct cfs_op *op, const char *action)
{
	memset(f, 0, sizeof(*f));
	f->op = op;
	f->action = action;
	f->wrote = -1;
}

/* Perform one operation; on success note how to undo it. Returns 0 or -errno (f set). */
static int apply_one(struct cfs_ctx *c, const struct cfs_op *op, struct cfs_fail *f,
		     struct done *d, size_t *nd)
{
	int rc = 0;

	switch (op->type) {
	case OP_WAIT:
		fail_init(f, op, "wait");
		rc = fs_wait(c, op->path, op->timeout_ms);
		if (!rc)
			cfs_trace(c, "apply", op, "wait", NULL, 0);
		break;
	case OP_MKDIR:
	case OP_ENSURE:
		fail_init(f, op, "mkdir");
		rc = fs_mkdir(c, op->path);
		if (rc == -EEXIST && op->type == OP_ENSURE && fs_is_dir(c, op->path)) {
			/* Not ours: rollback leaves it alone. */
			cfs_trace(c, "apply", op, "exists", NULL, 0);
			return 0;
		}
		if (!rc) {
			cfs_trace(c, "apply", op, "mkdir", NULL, 0);
			d[(*nd)++] = (struct done){ op, UNDO_RMDIR };
		}
		break;
	case OP_WRITE:
		fail_init(f, op, "write");
		f->value = op->value;
		f->value_len = op->value_len;
		rc = fs_write(c, op->path, op->value, op->value_len, &f->wrote);
		if (!rc) {
			cfs_trace(c, "apply", op, "write", op->value, op->value_len);
			if (op->undo)
				d[(*nd)++] = (struct done){ op, UNDO_WRITE };
		}
		break;
	case OP_LINK:
		fail_init(f, op, "link");
		rc = fs_symlink(c, op->target, op->path);
		if (!rc) {
			cfs_trace(c, "apply", op, "link", NULL, 0);
			d[(*nd)++] = (struct done){ op, UNDO_UNLINK };
		}
		break;
	}
	if (rc)
		f->err = -rc;
	return rc;
}

/* Undo one done operation. Something already gone counts as undone. */
static int undo_one(struct cfs_ctx *c, const struct done *d, struct cfs_fail *f)
{
	const struct cfs_op *op = d->op;
	const char *action = "rmdir";
	int rc;

	switch (d->kind) {
	case UNDO_RMDIR:
		fail_init(f, op, action);
		rc = fs_rmdir(c, op->path);
		break;
	case UNDO_UNLINK:
		fail_init(f, op, action = "unlink");
		rc = fs_unlink(c, op->path);
		break;
	default:
		fail_init(f, op, action = "write");
		f->value = op->undo;
		f->value_len = op->undo_len;
		rc = fs_write(c, op->path, op->undo, op->undo_len, &f->wrote);
		break;
	}
	if (rc == -ENOENT)
		rc = 0;
	if (rc)
		f->err = -rc;
	else
		cfs_trace(c, "rollback", op, action, f->value, f->value_len);
	return rc;
}

int cfs_apply(struct cfs_ctx *c, const struct cfs_spec *s)
{
	struct done *done = xcalloc(s->n ? s->n : 1, sizeof(*done));
	struct cfs_fail *left = NULL, f;
	size_t i, nd = 0, nleft = 0;
	int status = CFS_EXIT_OK;

	if (c->rootfd < 0 && s->n) {
		fprintf(c->err, "%s: configfs root %s: %s\n  hint: mount it (mount -t configfs none "
			"%s) or give --root\n", err_prog, c->root, strerror(ENOENT), c->root);
		free(done);
		return CFS_EXIT_FAILED;
	}
	for (i = 0; i < s->n; i++)
		if (apply_one(c, &s->ops[i], &f, done, &nd))
			break;
	if (i == s->n)
		goto out;

	cfs_report(c, s, &f, NULL);
	kmsg_dump(c->kmsg_fd, c->err, "  kernel log since start:", "    ");
	if (c->on_failure)
		c->on_failure(c->on_failure_arg, &s->ops[i]);

	left = xcalloc(nd ? nd : 1, sizeof(*left));
	for (i = nd; i-- > 0;) {
		if (!undo_one(c, &done[i], &left[nleft]))
			continue;
		cfs_report(c, s, &left[nleft], "rollback");
		nleft++;
	}
	kmsg_dump(c->kmsg_fd, c->err, "  kernel log during rollback:", "    ");
	if (!nd) {
		fprintf(c->err, "%s: it was the first change; nothing to roll back\n", err_prog);
		status = CFS_EXIT_FAILED;
	} else if (!nleft) {
		fprintf(c->err, "%s: rolled back %zu operation%s; nothing is left behind\n",
			err_prog, nd, nd == 1 ? "" : "s");
		status = CFS_EXIT_FAILED;
	} else {
		fprintf(c->err, "%s: rollback incomplete; left behind:\n", err_prog);
		for (i = 0; i < nleft; i++)
			cfs_report_left(c, s, &left[i]);
		status = CFS_EXIT_LEFT_BEHIND;
	}
out:
	free(left);
	free(done);
	return status;
}
