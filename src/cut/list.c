// SPDX-License-Identifier: GPL-2.0
/* list.c: ./cut --list prints every profile with its one-line purpose. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cut.h"
#include "err.h"
#include "rapido.h"

const char *cut_rapido_dir(void)
{
	const char *dir = rapido_dir();

	if (!dir)
		die_errno("cannot find the profiles: readlink /proc/self/exe (set RAPIDO_DIR)");
	return dir;
}

int cut_list(void)
{
	char *dir = xasprintf("%s/autorun", cut_rapido_dir());
	struct strv names = STRV_INIT;
	int bad = 0, rc;

	rc = strv_list_dir(&names, dir, ".sh");
	if (rc)
		die_err(rc, "cannot list profiles in %s", dir);
	for (size_t i = 0; i < names.n; i++) {
		char *name = xstrndup(names.v[i], strlen(names.v[i]) - 3);
		char *path = xasprintf("%s/%s", dir, names.v[i]);
		struct profile p;
		char *err;

		if (profile_load(&p, name, path, &err)) {
			warn("%s", err);
			free(err);
			bad = 1;
		} else {
			printf("%-16s %s\n", name, p.description);
			profile_free(&p);
		}
		free(name);
		free(path);
	}
	strv_free(&names);
	free(dir);
	close_stdout();
	return bad;
}
