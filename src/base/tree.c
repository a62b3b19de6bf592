// SPDX-License-Identifier: GPL-2.0
/* tree.c: make a directory path, remove a directory tree (see tree.h). */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "tree.h"

/* nftw() has no user pointer: the first error of the tree being removed */
static int remove_err;
static char *remove_failed;

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if ((type == FTW_DP ? rmdir(path) : unlink(path)) < 0 && errno != ENOENT && !remove_err) {
		remove_err = -errno;
		remove_failed = xstrdup(path);
	}
	return 0;
}

int remove_tree(const char *path, char **failed)
{
	int rc;

	remove_err = 0;
	remove_failed = NULL;
	if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) < 0 && errno != ENOENT &&
	    !remove_err) {
		remove_err = -errno;
		remove_failed = xstrdup(path);
	}
	rc = remove_err;
	if (failed)
		*failed = remove_failed;
	else
		free(remove_failed);
	return rc;
}

int mkdir_p(const char *path, char **failed)
{
	char *p, c;
	int rc = 0;

	if (failed)
		*failed = NULL;
	/* "" names no directory (and the walk below starts at its second byte) */
	if (!*path)
		return -ENOENT;
	p = xstrdup(path);
	for (char *q = p + 1; ; q++) {
		if (*q != '/' && *q)
			continue;
		c = *q;
		*q = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			rc = -errno;
			if (failed)
				*failed = xstrdup(p);
			break;
		}
		*q = c;
		if (!c)
			break;
	}
	free(p);
	return rc;
}
