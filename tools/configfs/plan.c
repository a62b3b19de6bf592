// SPDX-License-Identifier: GPL-2.0
/* plan.c: --dry-run: check a spec's ordering against the root and print the plan. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfs.h"
#include "err.h"

struct plan {
	struct cfs_ctx *c;
	const struct cfs_spec *s;
	const struct cfs_op **known;	/* ops that make or wait for their path, in order */
	size_t nknown;
	int problems;
};

static void problem(struct plan *p, const struct cfs_op *op, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void problem(struct plan *p, const struct cfs_op *op, const char *fmt, ...)
{
	char *abs = cfs_abs(p->c, op->path);
	va_list ap;

	fprintf(p->c->err, "%s: %s:%u: %s %s: ", err_prog, p->s->file, op->line,
		spec_op_name(op->type), abs);
	va_start(ap, fmt);
	vfprintf(p->c->err, fmt, ap);
	va_end(ap);
	fputc('\n', p->c->err);
	free(abs);
	p->problems++;
}

/* The earlier op that makes (or waits for) rel, or NULL. */
static const struct cfs_op *made_by(const struct plan *p, const char *rel)
{
	size_t i;

	for (i = 0; i < p->nknown; i++)
		if (!strcmp(p->known[i]->path, rel))
			return p->known[i];
	return NULL;
}

/* Made or waited for earlier (or an ancestor of such a path), or under the root now. */
static bool known(struct plan *p, const char *rel)
{
	size_t i, n = strlen(rel);

	if (!n || made_by(p, rel) || !fs_exists(p->c, rel, true))
		return true;
	for (i = 0; i < p->nknown; i++)
		if (!strncmp(p->known[i]->path, rel, n) && p->known[i]->path[n] == '/')
			return true;
	return false;
}

static char *parent_of(const char *rel)
{
	const char *slash = strrchr(rel, '/');

	return slash ? xstrndup(rel, (size_t)(slash - rel)) : xstrdup("");
}

/* Returns true when the parent is there; reports it otherwise. */
static bool check_parent(struct plan *p, const struct cfs_op *op)
{
	char *parent = parent_of(op->path);
	bool ok = known(p, parent);

	if (!ok) {
		char *abs = cfs_abs(p->c, parent);

		problem(p, op, "parent %s is not made earlier in the spec (mkdir, ensure, "
			"wait) and does not exist under the root", abs);
		free(abs);
	}
	free(parent);
	return ok;
}

static void check_op(struct plan *p, const struct cfs_op *op)
{
	const struct cfs_op *prev;
	char *abs, *parent;

	switch (op->type) {
	case OP_WAIT:
		break;
	case OP_MKDIR:
		check_parent(p, op);
		if ((prev = made_by(p, op->path)))
			problem(p, op, "already made at line %u", prev->line);
		else if (!fs_exists(p->c, op->path, false))
			problem(p, op, "exists already: mkdir would fail with EEXIST (tear the "
				"old setup down first, or use ensure)");
		break;
	case OP_ENSURE:
		check_parent(p, op);
		break;
	case OP_WRITE:
		if (!check_parent(p, op) || p->c->emulate)
			break;
		/* A directory that exists already shows all its attributes. */
		parent = parent_of(op->path);
		if (fs_is_dir(p->c, parent) && fs_exists(p->c, op->path, true) == -ENOENT)
			problem(p, op, "no such attribute (misspelt, or the kernel is too old?)");
		free(parent);
		break;
	case OP_LINK:
		check_parent(p, op);
		if (!known(p, op->target)) {
			abs = cfs_abs(p->c, op->target);
			problem(p, op, "link target %s is not made earlier in the spec and does "
				"not exist under the root", abs);
			free(abs);
		}
		if (made_by(p, op->path) || !fs_exists(p->c, op->path, false))
			problem(p, op, "exists already: the link would fail with EEXIST");
		break;
	}
	if (op->type != OP_WRITE) {
		p->known = xrealloc(p->known, (p->nknown + 1) * sizeof(*p->known));
		p->known[p->nknown++] = op;
	}
}

static void print_step(struct cfs_ctx *c, const struct cfs_spec *s, const struct cfs_op *op,
		       const char *action, const char *value, size_t len, FILE *out)
{
	char *abs = cfs_abs(c, op->path);

	fprintf(out, "%s:%u: %s %s", s->file, op->line, action, abs);
	free(abs);
	if (op->type == OP_LINK && !strcmp(action, "link")) {
		abs = cfs_abs(c, op->target);
		fprintf(out, " -> %s", abs);
		free(abs);
	}
	if (value) {
		fputc(' ', out);
		spec_print_value(out, value, len);
	}
	if (op->type == OP_WAIT)
		fprintf(out, " %u.%03us", op->timeout_ms / 1000, op->timeout_ms % 1000);
	if (op->type == OP_WRITE && op->undo && value == op->value) {
		fputs(" undo ", out);
		spec_print_value(out, op->undo, op->undo_len);
	}
	fputc('\n', out);
}

static void print_plan(struct cfs_ctx *c, const struct cfs_spec *s, bool teardown, FILE *out)
{
	size_t i;

	fprintf(out, "# %s plan for %s under %s\n", teardown ? "teardown" : "apply", s->file,
		c->root[0] ? c->root : "/");
	for (i = 0; i < s->vars.n; i++) {
		const struct cfs_var *v = &s->vars.v[i];

		fprintf(out, "# %s = ", v->name);
		spec_print_value(out, v->value, strlen(v->value));
		if (v->line)
			fprintf(out, " (%s:%u)\n", s->file, v->line);
		else
			fputs(" (-D)\n", out);
	}
	if (!teardown) {
		for (i = 0; i < s->n; i++) {
			const struct cfs_op *op = &s->ops[i];

			print_step(c, s, op, spec_op_name(op->type), op->type == OP_WRITE ?
				   op->value : NULL, op->value_len, out);
		}
		return;
	}
	for (i = s->n; i-- > 0;) {
		const struct cfs_op *op = &s->ops[i];

		switch (op->type) {
		case OP_LINK:
			print_step(c, s, op, "unlink", NULL, 0, out);
			break;
		case OP_WRITE:
			if (op->undo)
				print_step(c, s, op, "write", op->undo, op->undo_len, out);
			break;
		case OP_MKDIR:
			print_step(c, s, op, "rmdir", NULL, 0, out);
			break;
		case OP_ENSURE:
			print_step(c, s, op, "rmdir-if-unused", NULL, 0, out);
			break;
		case OP_WAIT:
			break;
		}
	}
}

int cfs_plan(struct cfs_ctx *c, const struct cfs_spec *s, bool teardown, FILE *out)
{
	struct plan p = { c, s, NULL, 0, 0 };
	size_t i;

	if (!teardown) {
		if (c->rootfd < 0) {
			fprintf(c->err, "%s: configfs root %s does not exist (mount -t configfs "
				"none %s, or give --root)\n", err_prog, c->root, c->root);
			p.problems++;
		}
		for (i = 0; i < s->n; i++)
			check_op(&p, &s->ops[i]);
	}
	print_plan(c, s, teardown, out);
	free(p.known);
	if (p.problems)
		fprintf(c->err, "%s: %s: %d problem%s found; nothing was changed\n", err_prog,
			s->file, p.problems, p.problems == 1 ? "" : "s");
	return p.problems ? CFS_EXIT_USAGE : CFS_EXIT_OK;
}
