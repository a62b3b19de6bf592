/* SPDX-License-Identifier: GPL-2.0 */
/*
 * confenv.h: a unit test's environment without rapido.conf's keys. The
 * environment overrides rapido.conf (src/conf/confget.c), so a developer's
 * exported QEMU_ACCEL=tcg or VM_CPUS would change what a test of the
 * readers proves; each such test starts from none of them.
 */
#ifndef RAPIDO_TESTS_CONFENV_H
#define RAPIDO_TESTS_CONFENV_H

#include <stdlib.h>
#include <string.h>

#include "confkeys.h"
#include "err.h"

extern char **environ;

static inline void confenv_clear(void)
{
	char **e;

	for (e = environ; e && *e;) {
		const char *eq = strchr(*e, '=');
		char *name = eq ? xasprintf("%.*s", (int)(eq - *e), *e) : NULL;

		if (name && confkey_find(name)) {
			unsetenv(name);	/* environ changed: look again from its start */
			free(name);
			e = environ;
			continue;
		}
		free(name);
		e++;
	}
}

#endif
