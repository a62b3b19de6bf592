// SPDX-License-Identifier: GPL-2.0
/* teardown.c: undo a spec in reverse order; safe to run again, or after a partial setup. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfs.h"
#include "err.h"

/* Equal but for one trailing newline on either side (show() adds one). */
static bool same_value(const char *a, size_t alen, const char *b, size_t blen)
{
	if (alen && a[alen - 1] == '\n')
		alen--;
	if (blen && b[blen - 1] == '\n')
		blen--;
	return alen == blen && !memcmp(a, b, alen);
}

/*
 * Write an undo value unless the attribute already holds it: some stores
 * refuse to undo twice (UDC: writing "\n" to an unbound gadget is ENODEV),
 * and teardown must be safe to repeat.
 */
static int undo_write(struct cfs_ctx *c, const struct cfs_op *op, struct cfs_fail *f)
{
	char cur[CFS_VALUE_MAX + 2];
	ssize_t n = fs_read(c, op->path, cur, sizeof(cur));

	if (n == -ENOENT)
		return -ENOENT;
	if (n >= 0 && same_value(cur, (size_t)n, op->undo, op->undo_len)) {
		cfs_trace(c, "teardown", op, "unchanged", op->undo, op->undo_len);
		return 1;
	}
	f->value = op->undo;
	f->value_len = op->undo_len;
	return fs_write(c, op->path, op->undo, op->undo_len, &f->wrote);
}

int cfs_teardown(struct cfs_ctx *c, const struct cfs_spec *s)
{
	struct cfs_fail *left = xcalloc(s->n ? s->n : 1, sizeof(*left));
	size_t i, nleft = 0;
	int status = CFS_EXIT_OK;

	if (c->rootfd < 0) {
		fprintf(c->err, "%s: configfs root %s does not exist: nothing to tear down\n",
			err_prog, c->root);
		free(left);
		return CFS_EXIT_OK;
	}
	for (i = s->n; i-- > 0;) {
		const struct cfs_op *op = &s->ops[i];
		struct cfs_fail *f = &left[nleft];
		const char *action;
		int rc;

		memset(f, 0, sizeof(*f));
		f->op = op;
		f->wrote = -1;
		switch (op->type) {
		case OP_LINK:
			action = "unlink";
			rc = fs_unlink(c, op->path);
			break;
		case OP_WRITE:
			if (!op->undo)
				continue;
			action = "write";
			rc = undo_write(c, op, f);
			if (rc == 1)
				continue;
			break;
		case OP_MKDIR:
		case OP_ENSURE:
			action = "rmdir";
			rc = fs_rmdir(c, op->path);
			/* A shared directory another setup still uses stays. */
			if (op->type == OP_ENSURE && (rc == -ENOTEMPTY || rc == -EBUSY)) {
				cfs_trace(c, "teardown", op, "kept", NULL, 0);
				continue;
			}
			break;
		default:
			continue;
		}
		f->action = action;
		if (rc == -ENOENT) {
			cfs_trace(c, "teardown", op, "gone", NULL, 0);
			continue;
		}
		if (!rc) {
			cfs_trace(c, "teardown", op, action, f->value, f->value_len);
			continue;
		}
		f->err = -rc;
		cfs_report(c, s, f, "teardown");
		nleft++;
	}
	if (nleft) {
		kmsg_dump(c->kmsg_fd, c->err, "  kernel log since start:", "    ");
		fprintf(c->err, "%s: teardown incomplete; left behind:\n", err_prog);
		for (i = 0; i < nleft; i++)
			cfs_report_left(c, s, &left[i]);
		status = CFS_EXIT_LEFT_BEHIND;
	}
	free(left);
	return status;
}
