// SPDX-License-Identifier: GPL-2.0
/* version.c: what --version prints, the same for every program. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "confget.h"
#include "err.h"
#include "io.h"
#include "rapido.h"
#include "toolver.h"
#include "version.h"

#ifndef RAPIDO_VERSION
#define RAPIDO_VERSION "unknown"
#endif
const char rapido_version[] = RAPIDO_VERSION;

/* "WHAT VERSION (PATH)" of the program NAME (a name or a path), from the line it prints */
static void tool_version(const char *what, const char *key, const char *name, const char *drop)
{
	struct toolver v;

	toolver_ask(name, drop, &v);
	if (!v.path)
		printf("%s: not found (%s=%s)\n", what, key, name);
	else if (!v.line)
		printf("%s: %s --version printed nothing\n", what, v.path);
	else	/* "dracut 059-4" and "QEMU emulator version 7.2.22 (...)": the version alone */
		printf("%s %s (%s)\n", what, v.version ? v.version : v.line, v.path);
	toolver_free(&v);
}

void version_print(const char *prog)
{
	const struct arch *a = arch_host();
	struct conf c = { 0 };
	const char *qemu;
	char *path = rapido_conf_path(), *err = NULL;

	c.env_override = 1;
	if (path && conf_load(&c, path, &err))
		free(err);
	if (arch_from_conf(&c, &a, &err)) {
		free(err);
		a = arch_host();
	}
	qemu = conf_str(&c, "QEMU_BIN", NULL);
	printf("%s (rapido) %s\n", prog, rapido_version);
	tool_version("dracut", "DRACUT", conf_str(&c, "DRACUT", NULL), "dracut ");
	tool_version("qemu", qemu && *qemu ? "QEMU_BIN" : "ARCH's qemu", qemu && *qemu ? qemu : a->qemu,
		     "QEMU emulator version ");
	conf_free(&c);
	free(path);
	close_stdout();
}
