// SPDX-License-Identifier: GPL-2.0
/*
 * hostdep.c: what a layer's bytes depend on in the host, as signatures:
 * stat lines in a key, and the "dep" lines of a record (a file's stat, a
 * symlink's target) that a lookup checks again, so that a library apt
 * upgraded invalidates a layer no key names it in.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "layer.h"
#include "layers.h"
#include "pct.h"

char *cut_stat_sig(const char *path, int with_ctime)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return NULL;
	if (with_ctime)
		return img_stat_sig(&st);
	return xasprintf("%llu %lld %lld.%09ld", (unsigned long long)st.st_ino,
			 (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

void cut_key_stat(struct sha256 *s, const char *path)
{
	char *sig = cut_stat_sig(path, 0);

	sha256_update(s, path, strlen(path) + 1);
	sha256_update(s, sig ? sig : "absent", strlen(sig ? sig : "absent") + 1);
	free(sig);
}

void cut_dep_note(FILE *f, const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return;		/* made by dracut (ld.so.cache's siblings), not copied */
	if (S_ISLNK(st.st_mode)) {
		char target[4096];
		ssize_t n = readlink(path, target, sizeof(target) - 1);

		if (n < 0)
			return;
		target[n] = '\0';
		fputs("dep l ", f);
		cut_meta_escape(f, path);
		fputc(' ', f);
		cut_meta_escape(f, target);
		fputc('\n', f);
		return;
	}
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	fprintf(f, "dep f %lld %lld.%09ld %llu %llu ", (long long)st.st_size,
		(long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, (unsigned long long)st.st_ino,
		(unsigned long long)st.st_dev);
	cut_meta_escape(f, path);
	fputc('\n', f);
}

/* Does the host file still match a "dep" line's record? */
static int dep_holds(char *line)
{
	char kind, *path, *rest;
	struct stat st;

	kind = line[4];
	path = line + 6;
	rest = strchr(path, ' ');
	if (kind == 'l') {
		char target[4096];
		ssize_t n;

		if (!rest)
			return 0;
		*rest++ = '\0';
		pct_unescape(path);
		pct_unescape(rest);
		n = readlink(path, target, sizeof(target) - 1);
		if (n < 0)
			return 0;
		target[n] = '\0';
		return !strcmp(target, rest);
	}
	if (kind == 'f') {
		long long size, sec;
		long nsec;
		unsigned long long ino, dev;
		int off = 0;

		if (sscanf(path, "%lld %lld.%ld %llu %llu %n", &size, &sec, &nsec, &ino, &dev, &off) != 5 ||
		    !off)
			return 0;
		path += off;
		pct_unescape(path);
		return stat(path, &st) == 0 && st.st_size == size && st.st_mtim.tv_sec == sec &&
		       st.st_mtim.tv_nsec == nsec && st.st_ino == ino && st.st_dev == dev;
	}
	return 0;
}

int cut_deps_hold(struct cut_meta *m)
{
	for (size_t i = 0; i < m->deps.n; i++)
		if (!dep_holds(m->deps.v[i]))
			return 0;
	if (m->ldcache) {
		char *now = cut_stat_sig("/etc/ld.so.cache", 0);
		int same = now && !strcmp(now, m->ldcache);

		free(now);
		if (!same)
			return 0;
	}
	return 1;
}
