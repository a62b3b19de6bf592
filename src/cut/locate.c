// SPDX-License-Identifier: GPL-2.0
/*
 * locate.c: where ./cut finds what it reads besides rapido.conf: the
 * rapido directory and a profile (rapido_profile_find(): the user's
 * profile directories, then its autorun/; else upstream Rapido's name for
 * one, profalias.c). One place, so that the cut, --list, --kconfig and
 * --check-conf find them alike.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cut.h"
#include "err.h"
#include "nearest.h"
#include "profalias.h"
#include "rapido.h"

const char *cut_rapido_dir(void)
{
	const char *dir = rapido_dir();

	if (!dir)
		die_errno("cannot find the profiles: readlink /proc/self/exe (set RAPIDO_DIR)");
	return dir;
}

/* the '_' spelling of a '-' name, which the run uses as its profile to the
 * end: held here (volatile, so the store is kept) rather than freed */
static char *volatile resolved_name;

const char *cut_profile_resolve(const char *name, int quiet)
{
	const struct profalias *a;
	char *path, *what;

	if (!profile_name_valid(name))
		return name;	/* cut_profile_load_or_die() says why */
	path = rapido_profile_find(name);
	if (!path && strchr(name, '-')) {
		/* upstream Rapido lists its profiles with '-' for '_' (lio-local) */
		char *u = xstrdup(name), *found;

		for (char *c = u; *c; c++)
			if (*c == '-')
				*c = '_';
		found = rapido_profile_find(u);
		if (found) {
			free(found);
			if (!quiet)
				fprintf(stderr, "cut: %s is upstream Rapido's spelling: cutting %s\n",
					name, u);
			/* o->profile for the whole run: kept here, so it is ours to hold */
			resolved_name = u;
			return u;
		}
		free(u);
	}
	a = path ? NULL : profalias_find(name);
	free(path);
	if (!a)
		return name;
	what = profalias_describe(a);
	for (size_t i = 0; i < PROFALIAS_SETS && a->set[i]; i++) {
		const char *eq = strchr(a->set[i], '=');
		char *key = xstrndup(a->set[i], eq - a->set[i]);
		const char *env = getenv(key);

		/* the name says which; an environment that says otherwise is a contradiction */
		if (env && strcmp(env, eq + 1))
			die("%s is %s, but the environment sets %s=%s: cut %s to choose yourself",
			    name, what, key, env, a->profile);
		if (setenv(key, eq + 1, 1))
			die_errno("setenv %s", key);
		free(key);
	}
	if (!quiet)
		fprintf(stderr, "cut: %s is upstream Rapido's name: cutting %s\n", name, what);
	free(what);
	return a->profile;
}

/* Every profile name ./cut takes: the profile directories' and the aliases. */
static void profile_names(struct strv *out)
{
	struct strv dirs = STRV_INIT;

	rapido_profile_dirs(&dirs);
	for (size_t d = 0; d < dirs.n; d++) {
		struct strv names = STRV_INIT;

		/* an unreadable directory only costs a suggestion */
		strv_list_dir(&names, dirs.v[d], ".sh");
		for (size_t i = 0; i < names.n; i++) {
			char *n = xstrndup(names.v[i], strlen(names.v[i]) - 3);

			strv_push(out, n);
			free(n);
		}
		strv_free(&names);
	}
	for (const struct profalias *a = profaliases; a->name; a++)
		strv_push(out, a->name);
	strv_free(&dirs);
}

void cut_profile_load_or_die(const char *dir, const char *name, struct profile *prof)
{
	char *path, *err;

	if (!profile_name_valid(name))
		die("invalid profile name '%s' (letters, digits, '-' and '_' only)", name);
	path = rapido_profile_find(name);
	if (!path) {
		struct strv names = STRV_INIT;
		const char *near;

		profile_names(&names);
		near = nearest_word(name, &names);
		die("unknown profile '%s'%s%s%s: no %s.sh in %s/autorun, $RAPIDO_PROFILE_PATH or "
		    "~/.config/rapido/profiles (%scut --list shows the profiles)", name,
		    near ? " (did you mean " : "", near ? near : "", near ? "?)" : "",
		    name, dir, rapido_cmd_prefix());
	}
	if (profile_load(prof, name, path, &err))
		die("%s", err);
	free(path);
}
