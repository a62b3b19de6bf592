// SPDX-License-Identifier: GPL-2.0
/* statedir.c: a directory a tool made for its state, known by a marker file in it (statedir.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "statedir.h"
#include "tree.h"

/* DIR's fd, opened without following a link: -ENOTDIR for anything but a directory */
static int open_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return errno == ELOOP ? -ENOTDIR : -errno;
	return fd;
}

static int dir_is_empty(int fd)
{
	int dup_fd = dup(fd), empty = 1;
	struct dirent *e;
	DIR *d;

	if (dup_fd < 0)
		return -errno;
	d = fdopendir(dup_fd);
	if (!d) {
		close(dup_fd);
		return -errno;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}

int statedir_kind(const char *dir, const char *marker)
{
	struct stat st;
	int fd, kind;

	if (lstat(dir, &st) < 0)
		return errno == ENOENT ? STATEDIR_ABSENT : -errno;
	if (!S_ISDIR(st.st_mode))
		return STATEDIR_NOTDIR;
	fd = open_dir(dir);
	if (fd == -ENOTDIR)
		return STATEDIR_NOTDIR;
	if (fd < 0)
		return fd;
	if (fstatat(fd, marker, &st, AT_SYMLINK_NOFOLLOW) == 0)
		kind = S_ISREG(st.st_mode) ? STATEDIR_OURS : STATEDIR_UNMARKED;
	else if (errno != ENOENT)
		kind = -errno;
	else if ((kind = dir_is_empty(fd)) >= 0)
		kind = kind ? STATEDIR_EMPTY : STATEDIR_UNMARKED;
	close(fd);
	return kind;
}

const char *statedir_kind_words(int kind)
{
	switch (kind) {
	case STATEDIR_ABSENT:
		return "absent";
	case STATEDIR_OURS:
		return "marked";
	case STATEDIR_EMPTY:
		return "an empty directory";
	case STATEDIR_NOTDIR:
		return "not a directory";
	}
	return "a directory with other things in it";
}

int statedir_make(const char *dir, const char *marker, const char *text, char **failed)
{
	int kind = statedir_kind(dir, marker), rc;
	char *path;

	if (kind < 0)
		return kind;
	if (kind != STATEDIR_ABSENT && kind != STATEDIR_EMPTY)
		return -EEXIST;
	if (kind == STATEDIR_ABSENT) {
		rc = mkdir_p(dir, failed);
		if (rc < 0)
			return rc;
	}
	path = xasprintf("%s/%s", dir, marker);
	rc = write_file_atomic(path, text, strlen(text), 0644);
	if (rc && failed) {
		free(*failed);
		*failed = path;
		return rc;
	}
	free(path);
	return rc;
}
