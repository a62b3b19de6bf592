// SPDX-License-Identifier: GPL-2.0
/* ops.c: single filesystem operations under the configfs root (openat and friends). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cfs.h"
#include "err.h"
#include "io.h"
#include "mono.h"

/* In --emulate mode, marks a directory `wait` made, standing in for a default group. */
#define EMU_MARKER ".rapido-default-group"

int cfs_ctx_open(struct cfs_ctx *c, const char *root)
{
	char *real = realpath(root, NULL);
	size_t n;

	memset(c, 0, sizeof(*c));
	c->rootfd = -1;
	c->kmsg_fd = -1;
	c->err = stderr;
	if (!real) {
		char cwd[PATH_MAX];

		if (errno != ENOENT)
			return -errno;
		if (root[0] == '/')
			c->root = xstrdup(root);
		else if (getcwd(cwd, sizeof(cwd)))
			c->root = xasprintf("%s/%s", cwd, root);
		else
			return -errno;
	} else {
		c->rootfd = open(real, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (c->rootfd < 0) {
			int err = -errno;

			free(real);
			return err;
		}
		c->root = real;
	}
	n = strlen(c->root);
	while (n && c->root[n - 1] == '/')
		c->root[--n] = '\0';
	return 0;
}

void cfs_ctx_close(struct cfs_ctx *c)
{
	if (c->rootfd >= 0)
		close(c->rootfd);
	if (c->kmsg_fd >= 0)
		close(c->kmsg_fd);
	c->rootfd = c->kmsg_fd = -1;
	free(c->root);
	c->root = NULL;
}

char *cfs_abs(const struct cfs_ctx *c, const char *rel)
{
	return xasprintf("%s/%s", c->root, rel);
}

int fs_exists(struct cfs_ctx *c, const char *rel, bool follow)
{
	struct stat st;

	if (c->rootfd < 0)
		return -ENOENT;
	if (fstatat(c->rootfd, rel, &st, follow ? 0 : AT_SYMLINK_NOFOLLOW))
		return -errno;
	return 0;
}

bool fs_is_dir(struct cfs_ctx *c, const char *rel)
{
	struct stat st;

	return c->rootfd >= 0 && !fstatat(c->rootfd, rel, &st, 0) && S_ISDIR(st.st_mode);
}

int fs_mkdir(struct cfs_ctx *c, const char *rel)
{
	if (c->rootfd < 0)
		return -ENOENT;
	return mkdirat(c->rootfd, rel, 0755) ? -errno : 0;
}

/*
 * --emulate: what configfs does by itself on rmdir. Remove the attribute
 * files and the default groups (directories `wait` made) inside dfd; leave
 * anything else, so that rmdir fails with ENOTEMPTY as it would in configfs.
 */
static void emu_clear(int dfd)
{
	struct dirent *de;
	DIR *d;
	int fd = dup(dfd);

	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d))) {
		struct stat st;
		int sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISREG(st.st_mode)) {
			unlinkat(dfd, de->d_name, 0);
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			continue;
		sub = openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			continue;
		if (!faccessat(sub, EMU_MARKER, F_OK, AT_SYMLINK_NOFOLLOW)) {
			emu_clear(sub);
			unlinkat(dfd, de->d_name, AT_REMOVEDIR);
		}
		close(sub);
	}
	closedir(d);
}

int fs_rmdir(struct cfs_ctx *c, const char *rel)
{
	if (c->rootfd < 0)
		return -ENOENT;
	if (c->emulate) {
		int dfd = openat(c->rootfd, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

		if (dfd >= 0) {
			emu_clear(dfd);
			close(dfd);
		}
	}
	return unlinkat(c->rootfd, rel, AT_REMOVEDIR) ? -errno : 0;
}

int fs_write(struct cfs_ctx *c, const char *rel, const char *val, size_t len, ssize_t *wrote)
{
	int flags = O_WRONLY | O_CLOEXEC;
	int fd, err = 0;
	ssize_t n;

	*wrote = -1;
	if (c->rootfd < 0)
		return -ENOENT;
	/*
	 * configfs attributes exist once their directory does and ignore
	 * O_TRUNC; only the stand-in directory needs the file made.
	 */
	if (c->emulate)
		flags |= O_CREAT | O_TRUNC;
	fd = openat(c->rootfd, rel, flags, 0644);
	if (fd < 0)
		return -errno;
	/*
	 * One write(2) per value: configfs hands each write to the attribute's
	 * store() as a whole value. An EINTR transferred nothing, so retrying
	 * it is still the one write.
	 */
	do
		n = write(fd, val, len);
	while (n < 0 && errno == EINTR);
	*wrote = n;
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

ssize_t fs_read(struct cfs_ctx *c, const char *rel, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	if (c->rootfd < 0)
		return -ENOENT;
	fd = openat(c->rootfd, rel, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read_full(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return n;
	buf[n] = '\0';
	return n;
}

int fs_symlink(struct cfs_ctx *c, const char *target_rel, const char *rel)
{
	/* configfs resolves the target by path: always give it an absolute one. */
	char *target = cfs_abs(c, target_rel);
	int rc = 0;

	if (c->rootfd < 0)
		rc = -ENOENT;
	else if (symlinkat(target, c->rootfd, rel))
		rc = -errno;
	free(target);
	return rc;
}

int fs_unlink(struct cfs_ctx *c, const char *rel)
{
	if (c->rootfd < 0)
		return -ENOENT;
	return unlinkat(c->rootfd, rel, 0) ? -errno : 0;
}

/* --emulate: `mkdir -p` for a waited path, marking what it makes as a default group. */
static int emu_make_default(struct cfs_ctx *c, const char *rel)
{
	char *p = xstrdup(rel), *slash = p;
	int rc = 0;

	for (;;) {
		slash = strchr(slash, '/');
		if (slash)
			*slash = '\0';
		if (!mkdirat(c->rootfd, p, 0755)) {
			char *m = xasprintf("%s/%s", p, EMU_MARKER);
			int fd = openat(c->rootfd, m, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

			if (fd >= 0)
				close(fd);
			free(m);
		} else if (errno != EEXIST) {
			rc = -errno;
			break;
		}
		if (!slash)
			break;
		*slash++ = '/';
	}
	free(p);
	return rc;
}

int fs_wait(struct cfs_ctx *c, const char *rel, unsigned int timeout_ms)
{
	long long start = mono_ms();

	for (;;) {
		struct timespec tick = { 0, 50 * 1000 * 1000 };
		int rc = fs_exists(c, rel, true);

		if (!rc)
			return 0;
		if (rc == -ENOENT && c->emulate && c->rootfd >= 0)
			return emu_make_default(c, rel);
		if (rc != -ENOENT || mono_ms() - start >= timeout_ms)
			return rc;
		nanosleep(&tick, NULL);
	}
}

void cfs_trace(struct cfs_ctx *c, const char *phase, const struct cfs_op *op,
	       const char *action, const char *extra, size_t extra_len)
{
	char *abs;

	if (!c->trace)
		return;
	abs = cfs_abs(c, op->path);
	fprintf(c->trace, "%s %u %s %s", phase, op->line, action, abs);
	free(abs);
	if (op->type == OP_LINK) {
		abs = cfs_abs(c, op->target);
		fprintf(c->trace, " -> %s", abs);
		free(abs);
	} else if (extra) {
		fputc(' ', c->trace);
		spec_print_value(c->trace, extra, extra_len);
	}
	fputc('\n', c->trace);
	fflush(c->trace);
}
