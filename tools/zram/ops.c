// SPDX-License-Identifier: GPL-2.0
/* ops.c: each sysfs write, mount and command of rapido-zram, logged and hookable. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "num.h"
#include "zram.h"

void zram_seterr(struct zram_ctx *z, const char *fmt, ...)
{
	char tmp[sizeof(z->msg)];
	va_list ap;

	/* Format into tmp first: the arguments may point into z->msg. */
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	memcpy(z->msg, tmp, sizeof(tmp));
}

static void log_line(FILE *f, const char *line)
{
	if (!f)
		return;
	fputs(line, f);
	fputc('\n', f);
	/* Flushed per line so a trace shows how far a failed run got. */
	fflush(f);
}

void zram_log(struct zram_ctx *z, const char *fmt, ...)
{
	va_list ap;
	char *line;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	if (z->dry_run)
		log_line(z->out, line);
	log_line(z->trace, line);
	free(line);
}

static int hook(struct zram_ctx *z, const char *op, const char *path, const char *arg)
{
	return z->hook ? z->hook(z, op, path, arg) : 0;
}

char *zram_path(const struct zram_ctx *z, const char *path)
{
	return xasprintf("%s%s", z->root, path);
}

void zram_dev_set(struct zram_dev *d, int idx)
{
	d->idx = idx;
	if (idx < 0)
		snprintf(d->name, sizeof(d->name), "zramN");
	else
		snprintf(d->name, sizeof(d->name), "zram%d", idx);
}

char *zram_attr(const struct zram_dev *d, const char *attr)
{
	return xasprintf("/sys/block/%s/%s", d->name, attr);
}

int zram_read(struct zram_ctx *z, const char *path, char **out)
{
	char *real = zram_path(z, path);
	size_t len;
	int rc;

	rc = read_file(real, out, &len);
	if (rc < 0) {
		zram_seterr(z, "read %s: %s", real, strerror(-rc));
	} else {
		while (len && ((*out)[len - 1] == '\n' || (*out)[len - 1] == ' '))
			(*out)[--len] = '\0';
	}
	free(real);
	return rc;
}

int zram_write(struct zram_ctx *z, const char *path, const char *val)
{
	size_t len = strlen(val);
	char *real = NULL;
	ssize_t n;
	int fd, rc;

	zram_log(z, "write %s %s", path, val);
	if (z->dry_run)
		return 0;
	rc = hook(z, "write", path, val);
	if (rc > 0)
		return 0;
	real = zram_path(z, path);
	if (rc < 0)
		goto fail;
	/*
	 * No O_CREAT: a missing attribute means an older kernel or a wrong
	 * device, never something to create. O_TRUNC is ignored by sysfs
	 * (as for "echo 1 > reset") and keeps a test's plain file exact.
	 */
	fd = open(real, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		goto fail;
	}
	/* A sysfs store takes the whole value in one write(2). */
	do {
		n = write(fd, val, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		rc = -errno;
	else if ((size_t)n != len)
		rc = -EIO;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (!rc) {
		free(real);
		return 0;
	}
fail:
	zram_seterr(z, "write '%s' to %s: %s", val, real, strerror(-rc));
	free(real);
	return rc;
}

int zram_hot_add(struct zram_ctx *z, struct zram_dev *d)
{
	static const char path[] = ZRAM_CONTROL "/hot_add";
	unsigned int v;
	char *s;
	int rc;

	/*
	 * Reading hot_add creates a device and returns its index (Linux >= 4.2),
	 * so it is read once, only when a device is really wanted, and never
	 * in a dry run.
	 */
	if (z->dry_run) {
		zram_dev_set(d, -1);
		zram_log(z, "read %s -> %s", path, d->name);
		return 0;
	}
	rc = hook(z, "read", path, NULL);
	if (rc < 0) {
		char *real = zram_path(z, path);

		zram_seterr(z, "read %s: %s", real, strerror(-rc));
		free(real);
		return rc;
	}
	rc = zram_read(z, path, &s);
	if (rc < 0)
		return rc;
	if (num_parse_uint(s, 0, 1000000, &v, NULL)) {
		char *real = zram_path(z, path);

		zram_seterr(z, "read %s: expected a device number, got '%s'", real, s);
		free(real);
		free(s);
		return -EIO;
	}
	free(s);
	zram_dev_set(d, (int)v);
	zram_log(z, "read %s -> %s", path, d->name);
	return 0;
}

int zram_wait_node(struct zram_ctx *z, const struct zram_dev *d)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	char *node = xasprintf("/dev/%s", d->name);
	char *real = NULL;
	struct stat st;
	int waited, rc = 0;

	zram_log(z, "wait %s", node);
	if (z->dry_run)
		goto out;
	/*
	 * devtmpfs makes the node when the disk is added (hot_add or module
	 * load); udev, if any, may still be renaming or chmod'ing it. Poll.
	 */
	real = zram_path(z, node);
	for (waited = 0;; waited += 10) {
		if (stat(real, &st) == 0)
			break;
		if (errno != ENOENT) {
			rc = -errno;
			zram_seterr(z, "stat %s: %s", real, strerror(errno));
			goto out;
		}
		if (waited >= z->wait_ms) {
			rc = -ETIMEDOUT;
			zram_seterr(z, "%s did not appear within %d ms (is devtmpfs mounted on %s/dev?)",
				    real, z->wait_ms, z->root);
			goto out;
		}
		nanosleep(&tick, NULL);
	}
	/* Under a test root the node is a plain file; on a real system it must be a disk. */
	if (!*z->root && !S_ISBLK(st.st_mode)) {
		rc = -ENOTBLK;
		zram_seterr(z, "%s exists but is not a block device", real);
	}
out:
	free(real);
	free(node);
	return rc;
}

static char *quote_argv(char *const argv[])
{
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);

	if (!f)
		die("out of memory");
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			fputc(' ', f);
		shell_quote(f, argv[i]);
	}
	if (fclose(f) != 0)
		die("out of memory");
	return line;
}

int zram_run(struct zram_ctx *z, char *const argv[], char *const shown[])
{
	char *line = quote_argv(shown);
	int pfd[2], status, child_err = 0, rc;
	ssize_t n;
	pid_t pid;

	zram_log(z, "exec %s", line);
	rc = z->dry_run ? 1 : hook(z, "exec", line, NULL);
	if (rc > 0) {
		rc = 0;
		goto out;
	}
	if (rc < 0) {
		zram_seterr(z, "cannot run %s: %s", argv[0], strerror(-rc));
		goto out;
	}
	/* The child reports a failed execvp() through this close-on-exec pipe. */
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		rc = -errno;
		zram_seterr(z, "pipe: %s", strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		zram_seterr(z, "fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		goto out;
	}
	if (pid == 0) {
		/* Our stdout carries the device path for scripts: keep mkfs chatter off it. */
		if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			child_err = errno;
		else
			execvp(argv[0], argv);
		if (!child_err)
			child_err = errno;
		if (write(pfd[1], &child_err, sizeof(child_err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	do {
		n = read(pfd[0], &child_err, sizeof(child_err));
	} while (n < 0 && errno == EINTR);
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			rc = -errno;
			zram_seterr(z, "waitpid %s: %s", argv[0], strerror(errno));
			goto out;
		}
	}
	if (n == (ssize_t)sizeof(child_err)) {
		rc = -child_err;
		zram_seterr(z, "cannot run %s: %s%s", argv[0], strerror(child_err),
			    child_err == ENOENT ? " (is it installed and in PATH?)" : "");
	} else if (WIFEXITED(status) && WEXITSTATUS(status)) {
		rc = -EIO;
		zram_seterr(z, "%s failed with exit status %d", line, WEXITSTATUS(status));
	} else if (WIFSIGNALED(status)) {
		rc = -EIO;
		zram_seterr(z, "%s was killed by signal %d (%s)", line, WTERMSIG(status),
			    strsignal(WTERMSIG(status)));
	}
out:
	free(line);
	return rc;
}

int zram_mkdir(struct zram_ctx *z, const char *dir)
{
	int rc;

	zram_log(z, "mkdir %s", dir);
	rc = z->dry_run ? 1 : hook(z, "mkdir", dir, NULL);
	if (rc == 0 && mkdir(dir, 0755) < 0)
		rc = -errno;
	if (rc < 0)
		zram_seterr(z, "mkdir %s: %s", dir, strerror(-rc));
	return rc < 0 ? rc : 0;
}

int zram_rmdir(struct zram_ctx *z, const char *dir)
{
	int rc;

	zram_log(z, "rmdir %s", dir);
	rc = z->dry_run ? 1 : hook(z, "rmdir", dir, NULL);
	if (rc == 0 && rmdir(dir) < 0)
		rc = -errno;
	if (rc < 0)
		zram_seterr(z, "rmdir %s: %s", dir, strerror(-rc));
	return rc < 0 ? rc : 0;
}

int zram_mount(struct zram_ctx *z, const struct zram_dev *d, const char *dir,
	       const char *fstype)
{
	char *node = xasprintf("/dev/%s", d->name);
	char *real = zram_path(z, node);
	int rc;

	zram_log(z, "mount %s %s %s", node, dir, fstype);
	rc = z->dry_run ? 1 : hook(z, "mount", dir, fstype);
	if (rc == 0 && mount(real, dir, fstype, 0, NULL) < 0)
		rc = -errno;
	if (rc < 0)
		zram_seterr(z, "mount %s on %s (type %s): %s%s", real, dir, fstype,
			    strerror(-rc),
			    rc == -ENODEV ? " (filesystem not in this kernel: load its module?)" : "");
	free(real);
	free(node);
	return rc < 0 ? rc : 0;
}

int zram_umount(struct zram_ctx *z, const char *dir)
{
	int rc;

	zram_log(z, "umount %s", dir);
	rc = z->dry_run ? 1 : hook(z, "umount", dir, NULL);
	if (rc == 0 && umount2(dir, 0) < 0)
		rc = -errno;
	if (rc < 0)
		zram_seterr(z, "umount %s: %s%s", dir, strerror(-rc),
			    rc == -EBUSY ? " (a process has files open or its cwd there?)" : "");
	return rc < 0 ? rc : 0;
}

int zram_swapoff(struct zram_ctx *z, const struct zram_dev *d)
{
	char *node = xasprintf("/dev/%s", d->name);
	char *real = zram_path(z, node);
	int rc;

	zram_log(z, "swapoff %s", node);
	rc = z->dry_run ? 1 : hook(z, "swapoff", node, NULL);
	if (rc == 0 && swapoff(real) < 0)
		rc = -errno;
	if (rc < 0)
		zram_seterr(z, "swapoff %s: %s", real, strerror(-rc));
	free(real);
	free(node);
	return rc < 0 ? rc : 0;
}
