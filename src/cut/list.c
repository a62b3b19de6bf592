// SPDX-License-Identifier: GPL-2.0
/*
 * list.c: what the profiles say, printed: ./cut --list (every profile with
 * its one-line purpose, then upstream Rapido's names ./cut takes), ./cut --kconfig PROFILE (the kernel config
 * fragment make kernel-config merges for it) and ./cut --locate PROFILE (its file).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cut.h"
#include "err.h"
#include "profalias.h"
#include "rapido.h"

/*
 * Every profile of rapido_profile_dirs(), each name once: the first
 * directory's, as ./cut would use it. A user's profile says where it is.
 */
int cut_list(void)
{
	struct strv dirs = STRV_INIT, seen = STRV_INIT;
	int bad = 0;

	cut_rapido_dir();
	rapido_profile_dirs(&dirs);
	for (size_t d = 0; d < dirs.n; d++) {
		struct strv names = STRV_INIT;
		int rc = strv_list_dir(&names, dirs.v[d], ".sh");

		/* a user's directory that does not exist adds nothing; the shipped one must be there */
		if (rc && (d == dirs.n - 1 || rc != -ENOENT))
			die_err(rc, "cannot list profiles in %s", dirs.v[d]);
		for (size_t i = 0; i < names.n; i++) {
			char *name = xstrndup(names.v[i], strlen(names.v[i]) - 3);
			char *path = xasprintf("%s/%s", dirs.v[d], names.v[i]);
			struct profile p;
			char *err;
			int rc = 0;

			if (strv_contains(&seen, name)) {
				/* hidden by an earlier directory's */
			} else if (!profile_name_valid(name)) {
				warn("%s: not a profile name (letters, digits, '-' and '_' only)", path);
				bad = 1;
			} else if ((rc = profile_load(&p, name, path, &err)) == PROFILE_ENODESC) {
				/* a helper a user's profiles source: shown, for it hides a name */
				printf("%-16s (not a profile: no '#@ description:' in %s)\n", name, path);
				free(err);
			} else if (rc) {
				warn("%s", err);
				free(err);
				bad = 1;
			} else if (d == dirs.n - 1) {
				printf("%-16s %s\n", name, p.description);
				profile_free(&p);
			} else {
				printf("%-16s %s (%s)\n", name, p.description, dirs.v[d]);
				profile_free(&p);
			}
			strv_push(&seen, name);
			free(name);
			free(path);
		}
		strv_free(&names);
	}
	/* upstream Rapido's names, unless a profile of that name hides one */
	for (const struct profalias *a = profaliases; a->name; a++) {
		char *what;

		if (strv_contains(&seen, a->name))
			continue;
		what = profalias_describe(a);
		printf("%-16s upstream Rapido's name for %s\n", a->name, what);
		free(what);
	}
	strv_free(&seen);
	strv_free(&dirs);
	close_stdout();
	return bad;
}

/* "DIR/autorun/x.sh:3" -> "autorun/x.sh:3" when DIR is the rapido directory */
static const char *rel_to(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && path[n] == '/' ? path + n + 1 : path;
}

/*
 * One fragment line per entry, in the profile's reading order (a later
 * value wins, in merge_config.sh as in make kernel-config's check), each
 * group preceded by "# from FILE:LINE" so that a symbol that does not
 * survive is traced to the line asking for it. A bare CONFIG_X (y or m for
 * ./cut) is built in; "=n" is kconfig's "is not set" line.
 */
static void print_kconfig(const struct strv *syms, const struct strv *at, const char *dir,
			  const char **last)
{
	for (size_t i = 0; i < syms->n; i++) {
		const char *s = syms->v[i], *eq = strchr(s, '=');

		if (!*last || strcmp(*last, at->v[i]))
			printf("# from %s\n", rel_to(at->v[i], dir));
		*last = at->v[i];
		if (!eq)
			printf("%s=y\n", s);
		else if (!strcmp(eq, "=n"))
			printf("# %.*s is not set\n", (int)(eq - s), s);
		else
			printf("%s\n", s);
	}
}

int cut_kconfig(const char *profile)
{
	const char *dir = cut_rapido_dir(), *last = NULL;
	struct profile p;

	cut_profile_load_or_die(dir, profile, &p);
	printf("# kernel config for the rapido profile %s: the #@ kconfig and kconfig-optional\n"
	       "# lines of %s and what it includes (./cut --kconfig %s)\n",
	       p.name, rel_to(p.path, dir), p.name);
	print_kconfig(&p.kconfig, &p.kconfig_at, dir, &last);
	print_kconfig(&p.kconfig_opt, &p.kconfig_opt_at, dir, &last);
	profile_free(&p);
	close_stdout();
	return 0;
}

/*
 * host/install-deps reads a profile's #@ bins itself (it runs before
 * anything is built); which file a name means (a user's profile,
 * upstream Rapido's name) is ./cut's to say, with its "did you mean".
 */
int cut_locate(const char *profile)
{
	struct profile p;

	cut_profile_load_or_die(cut_rapido_dir(), profile, &p);
	printf("%s\n", p.path);
	profile_free(&p);
	close_stdout();
	return 0;
}
