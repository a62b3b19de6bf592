// SPDX-License-Identifier: GPL-2.0
/*
 * work.c: the one private directory a cut writes in, IMAGE.cut-XXXXXX next
 * to the image (mode 0700): rapido's archive, dracut's archive and dracut's
 * own temporaries (--tmpdir) all live there, so one removal cleans up a
 * run, and a full disk is the image's disk.
 *
 * The directory is flock()ed by the cut that made it, and the lock is
 * inherited by dracut and everything it starts (the descriptor is not
 * close-on-exec): while any process of that run lives, the lock is held.
 * A later cut of the same image removes only directories whose lock it can
 * take, so it never touches what a live run is writing, and always
 * removes what a killed run left once the last of its processes is gone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cut.h"
#include "err.h"
#include "fsinfo.h"

#define WORK_SUFFIX ".cut-"
#define WORK_RANDOM 6	/* mkdtemp's XXXXXX */

/* Remove everything inside the directory fd (not fd itself). */
static int empty_dir(int fd)
{
	int removed, err = 0;

	/* removing while reading may skip entries: read again until a pass removes nothing */
	do {
		int rfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		struct dirent *e;
		DIR *d;

		removed = 0;
		if (rfd < 0)
			return -errno;
		d = fdopendir(rfd);
		if (!d) {
			err = -errno;
			close(rfd);
			return err;
		}
		while ((e = readdir(d))) {
			int sub, rc;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if (!unlinkat(fd, e->d_name, 0)) {
				removed = 1;
				continue;
			}
			if (errno != EISDIR && errno != EPERM) {
				err = err ? err : -errno;
				continue;
			}
			sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0) {
				err = err ? err : -errno;
				continue;
			}
			rc = empty_dir(sub);
			err = err ? err : rc;
			close(sub);
			if (!unlinkat(fd, e->d_name, AT_REMOVEDIR))
				removed = 1;
			else
				err = err ? err : -errno;
		}
		closedir(d);
	} while (removed);
	return err;
}

int cut_work_create(struct cut_work *w, const char *image)
{
	struct stat a, b;
	int err;

	/*
	 * A cut cleaning up may lock and remove a directory in the moment
	 * between our mkdtemp() and flock(): once we hold the lock, the name
	 * must still be ours, or we start again.
	 */
	for (int tries = 0; tries < 16; tries++) {
		w->dir = xasprintf("%s" WORK_SUFFIX "XXXXXX", image);
		if (!mkdtemp(w->dir)) {
			err = -errno;
			goto fail;
		}
		w->fd = open(w->dir, O_RDONLY | O_DIRECTORY);	/* inherited on purpose */
		if (w->fd < 0) {
			err = -errno;
			rmdir(w->dir);
			goto fail;
		}
		while (flock(w->fd, LOCK_EX) < 0) {
			if (errno != EINTR) {
				err = -errno;
				goto fail_close;
			}
		}
		if (fstat(w->fd, &a) == 0 && stat(w->dir, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return 0;
		close(w->fd);
		free(w->dir);
	}
	w->dir = NULL;
	w->fd = -1;
	return -EAGAIN;

fail_close:
	close(w->fd);
	rmdir(w->dir);
fail:
	free(w->dir);
	w->dir = NULL;
	w->fd = -1;
	return err;
}

char *cut_work_path(const struct cut_work *w, const char *name)
{
	return xasprintf("%s/%s", w->dir, name);
}

const char *cut_space_text(int err)
{
	return err == ENOSPC ? "no space left on device" : "disk quota exceeded";
}

noreturn void cut_die_write(int err, const char *what, const char *path)
{
	if (err == -ENOSPC || err == -EDQUOT) {
		char *copy = xstrdup(path);

		die("%s %s: %s on %s; no image written", what, path, cut_space_text(-err),
		    fs_describe(dirname(copy)));
	}
	die_err(err, "%s %s", what, path);
}

char *cut_work_file_or_die(const struct cut_work *w, const char *what, int *fd)
{
	char *path = xasprintf("%s/%s.XXXXXX", w->dir, what);

	*fd = mkostemp(path, O_CLOEXEC);
	if (*fd < 0)
		cut_die_write(-errno, "cannot create a file in", w->dir);
	return path;
}

int cut_work_remove(struct cut_work *w)
{
	int err;

	if (!w->dir)
		return 0;
	err = empty_dir(w->fd);
	if (rmdir(w->dir) < 0 && !err)
		err = -errno;
	close(w->fd);	/* only now: the lock kept other cuts out while we removed */
	free(w->dir);
	w->dir = NULL;
	w->fd = -1;
	return err;
}

void cut_work_reap_stale(const char *image)
{
	char *copy_d = xstrdup(image), *copy_b = xstrdup(image);
	const char *dir = dirname(copy_d), *base = basename(copy_b);
	char *prefix = xasprintf("%s" WORK_SUFFIX, base);
	size_t plen = strlen(prefix);
	struct dirent *e;
	int dfd;
	DIR *d;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = dfd < 0 ? NULL : fdopendir(dfd);
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		goto out;
	}
	while ((e = readdir(d))) {
		struct stat a, b;
		int fd, err;

		if (strncmp(e->d_name, prefix, plen) || strlen(e->d_name) != plen + WORK_RANDOM)
			continue;
		fd = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		/* held: some process of that run is alive; not ours to touch */
		if (flock(fd, LOCK_EX | LOCK_NB) < 0 || fstat(fd, &a) < 0 ||
		    fstatat(dfd, e->d_name, &b, AT_SYMLINK_NOFOLLOW) < 0 ||
		    a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
			close(fd);
			continue;
		}
		err = empty_dir(fd);
		if (!err && unlinkat(dfd, e->d_name, AT_REMOVEDIR) < 0)
			err = -errno;
		if (err)
			warn_err(err, "cannot remove %s/%s, left by a cut that is no longer running",
				 dir, e->d_name);
		else
			warn("removed %s/%s, left by a cut that is no longer running", dir, e->d_name);
		close(fd);
	}
	closedir(d);
out:
	free(prefix);
	free(copy_d);
	free(copy_b);
}
