// SPDX-License-Identifier: GPL-2.0
/* toolver.c: a host tool's version, asked of the tool (toolver.h). */
#include <stdlib.h>
#include <string.h>

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
