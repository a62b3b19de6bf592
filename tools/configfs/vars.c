// SPDX-License-Identifier: GPL-2.0
/* vars.c: the variable table of a spec and the `set-first` directory lookup. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "expand.h"
#include "vars.h"

bool var_name_valid(const char *s, size_t len)
{
	return expand_name_valid(s, len);
}

const struct cfs_var *vars_get(const struct cfs_vars *vs, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < vs->n; i++)
		if (strlen(vs->v[i].name) == len && !memcmp(vs->v[i].name, name, len))
			return &vs->v[i];
	return NULL;
}

bool vars_set(struct cfs_vars *vs, const char *name, const char *value, unsigned int line)
{
	struct cfs_var *v = (struct cfs_var *)vars_get(vs, name, strlen(name));

	if (v) {
		if (v->line == 0 && line != 0)
			return false;
		free(v->value);
		v->value = xstrdup(value);
		v->line = line;
		return true;
	}
	vs->v = xrealloc(vs->v, (vs->n + 1) * sizeof(*vs->v));
	v = &vs->v[vs->n++];
	v->name = xstrdup(name);
	v->value = xstrdup(value);
	v->line = line;
	return true;
}

void vars_free(struct cfs_vars *vs)
{
	size_t i;

	for (i = 0; i < vs->n; i++) {
		free(vs->v[i].name);
		free(vs->v[i].value);
	}
	free(vs->v);
	vs->v = NULL;
	vs->n = 0;
}

int dir_first_entry(const char *dir, char **out)
{
	struct dirent *de;
	char *best = NULL;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return -errno;
	errno = 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (!best || strcmp(de->d_name, best) < 0) {
			free(best);
			best = xstrdup(de->d_name);
		}
	}
	if (errno) {
		int err = -errno;

		free(best);
		closedir(d);
		return err;
	}
	closedir(d);
	if (!best)
		return -ENODATA;
	*out = best;
	return 0;
}
