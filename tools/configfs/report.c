// SPDX-License-Identifier: GPL-2.0
/* report.c: failure reports for configfs operations, with errno names and advice. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfs.h"
#include "err.h"

const char *errno_name(int err)
{
	static char buf[16];
	const char *n = strerrorname_np(err);	/* glibc >= 2.32 */

	if (n)
		return n;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

/* The module that makes rel appear, from the configfs layout of each subsystem; or NULL. */
static char *module_for(const char *rel)
{
	static const struct {
		const char *prefix;
		const char *module;
	} map[] = {
		{ "target/core/fileio_", "target_core_file" },
		{ "target/core/iblock_", "target_core_iblock" },
		{ "target/core/pscsi_", "target_core_pscsi" },
		{ "target/core/user_", "target_core_user" },
		{ "target/loopback", "tcm_loop" },
		{ "target/iscsi", "iscsi_target_mod" },
		{ "target/vhost", "vhost_scsi" },
		{ "target", "target_core_mod" },
		{ "nvmet", "nvmet" },
	};
	const char *f = strstr(rel, "/functions/");
	size_t i;

	/* usb_gadget/G/functions/NAME.INSTANCE comes from usb_f_NAME. */
	if (!strncmp(rel, "usb_gadget/", 11) && f) {
		f += strlen("/functions/");
		return xasprintf("usb_f_%.*s", (int)strcspn(f, "./"), f);
	}
	if (!strncmp(rel, "usb_gadget", 10))
		return xstrdup("libcomposite");
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strncmp(rel, map[i].prefix, strlen(map[i].prefix)))
			return xstrdup(map[i].module);
	return NULL;
}

static const char *base_name(const char *rel)
{
	const char *s = strrchr(rel, '/');

	return s ? s + 1 : rel;
}

char *cfs_hint(const struct cfs_op *op, const char *action, int err)
{
	bool write = !strncmp(action, "write", 5);
	bool link = !strcmp(action, "link");
	bool mk = !strcmp(action, "mkdir");
	const char *rel = op->path;
	char *mod, *h;

	switch (err) {
	case ENOENT:
		if (!strcmp(action, "rmdir") || !strcmp(action, "unlink"))
			return NULL;
		mod = module_for(link ? op->target : rel);
		h = xasprintf("module or configfs missing: mount configfs (mount -t configfs none "
			      "/sys/kernel/config) and load the module (%s%s)%s",
			      mod ? "modprobe " : "the one that provides this path",
			      mod ? mod : "",
			      write ? "; or the attribute name is misspelt" :
			      link ? "; or the link target is not made yet" : "");
		free(mod);
		return h;
	case ENODEV:
		if (link && strstr(rel, "/lun/"))
			return xstrdup("backstore not enabled: write 1 to the backstore's enable "
				       "before linking it into a LUN");
		if (write && !strcmp(base_name(rel), "UDC"))
			return xstrdup("no such UDC: see /sys/class/udc (modprobe dummy_hcd for a "
				       "virtual one); or the gadget was not bound (unbinding twice)");
		return xstrdup("device missing or not set up yet");
	case EBUSY:
		if (!strcmp(action, "rmdir"))
			return xstrdup("still in use: something links to it or it is still enabled; "
				       "undo those first");
		return xstrdup("already bound or enabled: a UDC used by another gadget, a device "
			       "enabled or exported twice, or an item still in use; tear the old "
			       "setup down first (--teardown)");
	case EACCES:
		if (write && !strncmp(rel, "nvmet/ports/", 12))
			return xstrdup("port already enabled: nvmet refuses changes to a port's "
				       "addr_* while subsystems are linked into it; write them before "
				       "the link");
		return xstrdup("permission denied: not root, or a read-only attribute");
	case EEXIST:
		if (mk || link)
			return xstrdup("already exists: left over from an earlier run (run with "
				       "--teardown), or use `ensure` for a shared directory");
		return xstrdup("already set up (e.g. a backstore enabled twice)");
	case EINVAL:
		if (write)
			return xstrdup("the kernel refused the value; the kernel log usually says why");
		if (mk)
			return xstrdup("the kernel refused the name (a malformed IQN, NQN or WWN, "
				       "or an unknown function or fabric)");
		if (link && !strncmp(rel, "nvmet/ports/", 12))
			return xstrdup("the port could not be enabled: transport module missing "
				       "(modprobe nvmet-tcp), or a bad or busy address; see the "
				       "kernel log");
		if (link)
			return xstrdup("the kernel refused the link: wrong kind of target for this "
				       "directory");
		return NULL;
	case EISDIR:
		return xstrdup("that is a directory, not an attribute");
	case ENOTDIR:
		return xstrdup("a component of the path is not a directory");
	case ENOTEMPTY:
		return xstrdup("it holds items the spec did not make (by hand or by another "
			       "spec); remove them first");
	case EPERM:
		return xstrdup("not allowed here: configfs makes no items in this directory, "
			       "or this is not a link");
	case EADDRINUSE:
		return xstrdup("the address is in use: another target or service listens there");
	}
	return NULL;
}

/* "file:line: ACTION /abs/path [-> /abs/target] [VALUE]" without a newline. */
static void print_op(struct cfs_ctx *c, const struct cfs_spec *s, const struct cfs_fail *f)
{
	char *abs = cfs_abs(c, f->op->path);

	fprintf(c->err, "%s:%u: %s %s", s->file, f->op->line, f->action, abs);
	free(abs);
	if (f->op->type == OP_LINK) {
		abs = cfs_abs(c, f->op->target);
		fprintf(c->err, " -> %s", abs);
		free(abs);
	}
	if (f->value) {
		fputc(' ', c->err);
		spec_print_value(c->err, f->value, f->value_len);
	}
}

static void print_error(struct cfs_ctx *c, const struct cfs_fail *f)
{
	if (f->wrote >= 0 && (size_t)f->wrote < f->value_len)
		fprintf(c->err, "short write: %zd of %zu bytes taken", f->wrote, f->value_len);
	else
		fprintf(c->err, "%s: %s", errno_name(f->err), strerror(f->err));
}

void cfs_report(struct cfs_ctx *c, const struct cfs_spec *s, const struct cfs_fail *f,
		const char *phase)
{
	char *hint = cfs_hint(f->op, f->action, f->err);

	fprintf(c->err, "%s: %s%s", err_prog, phase ? phase : "", phase ? ": " : "");
	print_op(c, s, f);
	fputs(": ", c->err);
	print_error(c, f);
	if (f->op->type == OP_WAIT && f->err == ENOENT)
		fprintf(c->err, " (waited %u.%03us)", f->op->timeout_ms / 1000,
			f->op->timeout_ms % 1000);
	fputc('\n', c->err);
	if (hint)
		fprintf(c->err, "  hint: %s\n", hint);
	free(hint);
}

void cfs_report_left(struct cfs_ctx *c, const struct cfs_spec *s, const struct cfs_fail *f)
{
	char *abs = cfs_abs(c, f->op->path);

	fprintf(c->err, "  %s (%s:%u %s: ", abs, s->file, f->op->line, f->action);
	free(abs);
	print_error(c, f);
	fputs(")\n", c->err);
}
