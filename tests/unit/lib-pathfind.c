// SPDX-License-Identifier: GPL-2.0
/*
 * lib-pathfind.c: find_in_path (run.c) against the plain search it
 * replaces (each PATH directory in turn, then /usr/sbin /sbin /usr/bin
 * /bin: the first regular file we may execute), on a PATH with an empty
 * directory, a non-executable file, a directory named twice, a symlink to
 * a later one, a missing one and a relative one. Every name is asked
 * among the first lookups, which stat, and after them, when each
 * directory that missed enough names has been listed; and again after
 * PATH changes. A program that a program it ran installed is found.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "run.h"
#include "tap.h"

static char *plain_search(const char *name)
{
	char *dirs = xasprintf("%s:/usr/sbin:/sbin:/usr/bin:/bin", getenv("PATH")), *save = NULL;

	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", d, name);
		struct stat st;

		if (!stat(p, &st) && S_ISREG(st.st_mode) && !access(p, X_OK)) {
			free(dirs);
			return p;
		}
		free(p);
	}
	free(dirs);
	return NULL;
}

static void put(const char *path, mode_t mode)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs("#!/bin/sh\n", f) < 0 || fclose(f) || chmod(path, mode))
		die_errno("%s", path);
}

/* names that differ from the plain search, as one line ("" if none) */
static char *differ(const char *const *names, size_t n)
{
	char *out = xstrdup("");

	for (size_t i = 0; i < n; i++) {
		char *got = find_in_path(names[i]), *want = plain_search(names[i]), *o;

		if ((got || want) && (!got || !want || strcmp(got, want))) {
			o = xasprintf("%s %s=%s (want %s)", out, names[i], got ? got : "none",
				      want ? want : "none");
			free(out);
			out = o;
		}
		free(got);
		free(want);
	}
	return out;
}

/* differ() until the directories that miss names have missed enough of them to be listed */
static char *many_rounds(const char *const *names, size_t n)
{
	char *all = xstrdup(""), *got, *o;

	for (int round = 0; round < 6; round++) {
		got = differ(names, n);
		o = xasprintf("%s%s", all, got);
		free(all);
		free(got);
		all = o;
	}
	return all;
}

int main(void)
{
	static const char *const names[] = { "prog", "other", "only-rel", "sh", "ls", "nowhere-at-all",
					     "noexec", "sub", "prog", "other", "sh", "" };
	size_t n = sizeof(names) / sizeof(names[0]);
	char tmpl[] = "/tmp/rapido-pathfind.XXXXXX", *d, *path, *got;

	tap_plan(7);
	d = mkdtemp(tmpl);
	if (!d || chdir(d))
		die_errno("%s", tmpl);
	if (mkdir("empty", 0755) || mkdir("noexec", 0755) || mkdir("real", 0755) || mkdir("rel", 0755) ||
	    mkdir("real/sub", 0755) || symlink("real", "link"))
		die_errno("%s: directories", d);
	put("noexec/prog", 0644);
	put("noexec/noexec", 0644);
	put("real/prog", 0755);
	put("real/other", 0755);
	put("rel/only-rel", 0755);
	put("rel/prog", 0755);
	path = xasprintf("%s/empty:%s/noexec:%s/empty:%s/link:%s/missing:%s/real:rel:%s", d, d, d, d, d,
			 d, getenv("PATH") ? getenv("PATH") : "");
	setenv("PATH", path, 1);

	got = differ(names, n);	/* the first lookups: each name stat'ed in each directory */
	TAP_EQ_STR(got, "", "the first lookups: as the plain search");
	free(got);
	got = many_rounds(names, n);	/* the directories that miss names get listed */
	TAP_EQ_STR(got, "", "after the directories are listed: as the plain search");
	free(got);
	got = find_in_path("prog");
	TAP_EQ_STR(got ? got + strlen(d) : "none", "/link/prog",
		   "the first executable one wins, through a symlinked directory");
	free(got);

	{
		/* a program this process runs installs another: found, though the directories were listed */
		char *argv[] = { "/bin/sh", "-c", "cp real/other empty/added", NULL };

		got = many_rounds(names, n);	/* listed again by now */
		free(got);
		run_wait(argv, -1);
		got = find_in_path("added");
		TAP_EQ_STR(got ? got + strlen(d) : "none", "/empty/added",
			   "a program installed by a program it ran is found");
		free(got);
	}
	setenv("PATH", "rel", 1);	/* another PATH: directories made anew */
	got = differ(names, n);
	TAP_EQ_STR(got, "", "after PATH changed: as the plain search");
	free(got);
	got = find_in_path("only-rel");
	TAP_EQ_STR(got ? got : "none", "rel/only-rel", "a relative directory, from the working directory");
	free(got);
	got = find_in_path("real/prog");
	TAP_EQ_STR(got ? got : "none", "real/prog", "a name with a slash is itself");
	free(got);

	chdir("/");
	tap_rm_tree(d);
	free(path);
	return tap_done();
}
