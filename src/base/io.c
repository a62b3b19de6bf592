// SPDX-License-Identifier: GPL-2.0
/* io.c: I/O loops that never lose a short write or an EINTR. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "err.h"
#include "io.h"

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* read(2), or pread(2) from off when off >= 0, until len bytes, the end or an error */
static ssize_t read_loop(int fd, void *buf, size_t len, off_t off)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = off < 0 ? read(fd, p + got, len - got) :
				      pread(fd, p + got, len - got, off + (off_t)got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

ssize_t read_full(int fd, void *buf, size_t len)
{
	return read_loop(fd, buf, len, -1);
}

ssize_t pread_full(int fd, void *buf, size_t len, off_t off)
{
	return off < 0 ? -EINVAL : read_loop(fd, buf, len, off);
}


int read_fd_max(int fd, size_t max, char **out, size_t *len)
{
	size_t cap = 4096, used = 0;
	char *buf = xmalloc(cap);
	int err = 0;

	for (;;) {
		ssize_t n;

		if (used + 1 >= cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		n = read(fd, buf + used, cap - used - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		used += (size_t)n;
		if (used > max) {
			err = -EFBIG;
			break;
		}
	}
	if (err) {
		free(buf);
		return err;
	}
	buf[used] = '\0';
	*out = buf;
	if (len)
		*len = used;
	return 0;
}

int read_file(const char *path, char **out, size_t *len)
{
	return read_regular_file(path, 0, READ_FILE_MAX, out, len, NULL);
}

/* /dev/null, which reads as an empty file and takes any write: RAPIDO_CONF=/dev/null */
static int is_null_device(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3);
}

/*
 * open(2) that never blocks on a FIFO nor follows a link where flags say
 * O_NOFOLLOW, then a check that a regular file (or the null device) was
 * opened; a blocking fd.
 */
static int open_reg(int dirfd, const char *path, int flags, int mode, struct stat *st)
{
	int fd = openat(dirfd, path, O_CLOEXEC | O_NONBLOCK | O_NOCTTY | flags, mode), err, fl;

	if (fd < 0) {
		err = -errno;
		/* O_NOFOLLOW on a symbolic link, or O_NONBLOCK on a FIFO with no other end */
		if ((err == -ELOOP || err == -ENXIO) &&
		    fstatat(dirfd, path, st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st->st_mode))
			return -ENOTREG;
		return err;
	}
	if (fstat(fd, st) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	if (!S_ISREG(st->st_mode) && !is_null_device(st)) {
		close(fd);
		return -ENOTREG;
	}
	/* a regular file never blocks anyway; readers and writers expect a blocking fd (O_APPEND kept) */
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

int open_regular(const char *path, int flags, struct stat *st)
{
	return open_reg(AT_FDCWD, path, O_RDONLY | flags, 0, st);
}

/* open_output(), or with append open_append(): the same checks, O_TRUNC or O_APPEND */
static int open_writer(const char *path, int mode, struct stat *st, int append)
{
	struct stat own;
	int fd, err;

	if (!st)
		st = &own;
	fd = open_reg(AT_FDCWD, path, O_WRONLY | O_CREAT | O_NOFOLLOW | (append ? O_APPEND : 0),
		      mode, st);
	if (fd < 0)
		return fd;
	/* another name of the same file: truncating it here would reach it there */
	if (is_null_device(st))
		err = 0;
	else
		err = st->st_nlink > 1 ? -EMLINK : append ? 0 : ftruncate(fd, 0) < 0 ? -errno : 0;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int open_output(const char *path, int mode, struct stat *st)
{
	return open_writer(path, mode, st, 0);
}

int open_append(const char *path, int mode, struct stat *st)
{
	return open_writer(path, mode, st, 1);
}

int read_regular_file(const char *path, int flags, size_t max, char **out, size_t *len,
		      struct stat *st)
{
	return read_regular_file_at(AT_FDCWD, path, flags, max, out, len, st);
}

int read_regular_file_at(int dirfd, const char *path, int flags, size_t max, char **out,
			 size_t *len, struct stat *st)
{
	struct stat own;
	int fd, err;

	if (!st)
		st = &own;
	fd = open_reg(dirfd, path, O_RDONLY | flags, 0, st);
	if (fd < 0)
		return fd;
	err = (uint64_t)st->st_size > max ? -EFBIG : read_fd_max(fd, max, out, len);
	close(fd);
	return err;
}

const char *file_strerror(int err, const struct stat *st)
{
	if (err == -EMLINK)
		return "it has other hard links: not written through them";
	if (err != -ENOTREG || !st)
		return err_str(err);
	switch (st->st_mode & S_IFMT) {
	case S_IFIFO:
		return "not a regular file but a FIFO";
	case S_IFDIR:
		return "not a regular file but a directory";
	case S_IFLNK:
		return "not a regular file but a symbolic link";
	case S_IFCHR:
		return "not a regular file but a character device";
	case S_IFBLK:
		return "not a regular file but a block device";
	case S_IFSOCK:
		return "not a regular file but a socket";
	}
	return "not a regular file";
}

mode_t umask_now(void)
{
	mode_t mask = umask(077);	/* umask(2) cannot be read without being set */

	umask(mask);
	return mask;
}

int create_temp_at(int dirfd, const char *name, char **tmp)
{
	for (int i = 0; i < 100; i++) {
		unsigned int r;
		char *t;
		int fd;

		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = (unsigned int)getpid() * 2654435761u + (unsigned int)i;
		t = xasprintf("%s.tmp%08x", name, r);
		fd = openat(dirfd, t, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			*tmp = t;
			return fd;
		}
		free(t);
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int write_file_atomic_at(int dirfd, const char *name, const void *buf, size_t len, int mode)
{
	/*
	 * the temporary is made 0600: give the file mode less the umask, as
	 * open(2) would (./vm's 077 for an image holding a secret keeps its
	 * results private)
	 */
	mode_t mask = umask_now();
	char *tmp;
	int fd = create_temp_at(dirfd, name, &tmp), err;

	if (fd < 0)
		return fd;
	err = write_all(fd, buf, len);
	if (!err && fchmod(fd, (mode_t)mode & ~mask) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && renameat(dirfd, tmp, dirfd, name) < 0)
		err = -errno;
	if (err)
		unlinkat(dirfd, tmp, 0);
	free(tmp);
	return err;
}

int write_file_atomic(const char *path, const void *buf, size_t len, int mode)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	int dfd = open(*dir ? dir : "/", O_PATH | O_DIRECTORY | O_CLOEXEC), err;

	free(dir);
	if (dfd < 0)
		return -errno;
	err = slash && !slash[1] ? -EISDIR : write_file_atomic_at(dfd, slash ? slash + 1 : path,
								     buf, len, mode);
	close(dfd);
	return err;
}
