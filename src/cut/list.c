// SPDX-License-Identifier: GPL-2.0
/* list.c: ./cut --list prints every profile with its one-line purpose. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cut.h"
#include "err.h"
#include "rapido.h"

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int cut_list(void)
{
	char *dir = xasprintf("%s/autorun", rapido_dir());
	struct strv names = STRV_INIT;
	struct dirent *de;
	DIR *d = opendir(dir);
	int bad = 0;

	if (!d)
		die_errno("cannot list profiles in %s", dir);
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l > 3 && !strcmp(de->d_name + l - 3, ".sh"))
			strv_push(&names, de->d_name);
	}
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), name_cmp);
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
