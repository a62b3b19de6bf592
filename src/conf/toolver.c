// SPDX-License-Identifier: GPL-2.0
/* toolver.c: a host tool's version, asked of the tool (toolver.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"

#include "run.h"
#include "toolver.h"

void toolver_ask(const char *name, const char *prefix, struct toolver *v)
{
	char *argv[] = { NULL, "--version", NULL };
	char *nl;

	memset(v, 0, sizeof(*v));
	v->path = find_in_path(name);
	if (!v->path)
		return;
	argv[0] = v->path;
	/* a hung tool must not hang the caller */
	if (run_capture(argv, -1, 10, &v->line) < 0 || !v->line || !*v->line) {
		free(v->line);
		v->line = NULL;
		return;
	}
	nl = strchr(v->line, '\n');
	if (nl) {
		*nl = '\0';
		v->more = nl + 1;
	}
	if (!strncmp(v->line, prefix, strlen(prefix)))
		v->version = v->line + strlen(prefix);
}

void toolver_free(struct toolver *v)
{
	free(v->path);
	free(v->line);
	memset(v, 0, sizeof(*v));
}

const struct toolver *toolver_kmod(void)
{
	static struct toolver kmod;
	static int asked;

	if (!asked) {
		toolver_ask("depmod", "kmod version ", &kmod);
		asked = 1;
	}
	return &kmod;
}

int toolver_virtiofsd(const char *name, struct virtiofsd_tool *t)
{
	static const char *const where[] = { "virtiofsd", "/usr/libexec/virtiofsd",
					     "/usr/lib/qemu/virtiofsd", NULL };
	char *argv[] = { NULL, "--help", NULL }, *help = NULL;

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; !t->path && (name ? i < 1 : where[i] != NULL); i++) {
		const char *n = name ? name : where[i];

		if (strchr(n, '/'))
			t->path = access(n, X_OK) ? NULL : xstrdup(n);
		else
			t->path = find_in_path(n);
	}
	if (!t->path)
		return -ENOENT;
	argv[0] = t->path;
	/* both print --help on stdout; a hung one must not hang ./vm */
	if (run_capture(argv, -1, 10, &help) >= 0 && help) {
		t->rust = strstr(help, "--shared-dir") != NULL;
		t->readonly = strstr(help, "--readonly") != NULL;
	}
	free(help);
	return 0;
}
