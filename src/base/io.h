/* SPDX-License-Identifier: GPL-2.0 */
/* io.h: full read/write with EINTR retry, whole-file reads. */
#ifndef RAPIDO_IO_H
#define RAPIDO_IO_H

#include <errno.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * open_regular()'s "not a regular file" (a FIFO, a directory, a device, a
 * symbolic link under O_NOFOLLOW): Linux has no EFTYPE, and EMEDIUMTYPE
 * arises nowhere else on the files this project opens.
 */
#define ENOTREG EMEDIUMTYPE

/* Write all of buf; returns 0 or -errno. */
int write_all(int fd, const void *buf, size_t len);
/* Read up to len bytes, retrying EINTR and short reads; returns bytes read or -errno. */
ssize_t read_full(int fd, void *buf, size_t len);
/*
 * read_full() at offset off (pread(2): the file offset stays): fewer than
 * len bytes only at the end of the file; returns bytes read or -errno
 * (-EINVAL for a negative off).
 */
ssize_t pread_full(int fd, void *buf, size_t len, off_t off);
/*
 * The rest of fd (a pipe, a socket) into a NUL-terminated malloc'd buffer,
 * *len (if non-NULL) its size without the NUL: 0, -EFBIG past max bytes
 * (nothing kept), or -errno.
 */
int read_fd_max(int fd, size_t max, char **out, size_t *len);
/* read_file()'s bound: no file the tools read whole comes near it */
#define READ_FILE_MAX (256u << 20)
/*
 * Read a whole regular file of at most READ_FILE_MAX bytes into a
 * NUL-terminated malloc'd buffer (read_regular_file(): a FIFO or a device
 * in its place is -ENOTREG, never a hang nor an endless read).
 * Returns 0 or -errno; *len (if non-NULL) gets the size without the NUL.
 */
int read_file(const char *path, char **out, size_t *len);
/*
 * Open path, which must be a regular file (or /dev/null, an empty one),
 * read-only (flags may add O_NOFOLLOW): a FIFO or a device is never opened
 * in a way that blocks.
 * Returns the fd with *st filled, -ENOTREG with *st telling what it is
 * instead (S_IFLNK for a symbolic link under O_NOFOLLOW), or -errno.
 */
int open_regular(const char *path, int flags, struct stat *st);
/*
 * Create path, or empty it, for writing (mode for a new file): never
 * through a symbolic link, into a FIFO or a device (-ENOTREG, *st saying
 * what is there; st may be NULL), nor into a file with other hard links
 * (-EMLINK), any of which a shared or restored directory may hold in its
 * place. Returns the fd or -errno.
 */
int open_output(const char *path, int mode, struct stat *st);
/* open_output() that appends (a log): the same refusals, nothing truncated. */
int open_append(const char *path, int mode, struct stat *st);
/*
 * read_file() for a regular file of at most max bytes: -ENOTREG (*st says
 * what it is, st may be NULL), -EFBIG beyond max, or -errno.
 */
int read_regular_file(const char *path, int flags, size_t max, char **out, size_t *len,
		      struct stat *st);
/* The same for path relative to the directory dirfd (openat(2)), AT_FDCWD as above. */
int read_regular_file_at(int dirfd, const char *path, int flags, size_t max, char **out,
			 size_t *len, struct stat *st);
/*
 * What went wrong, for a message: err_str(err), or for -ENOTREG "not a
 * regular file but a FIFO" (a directory, a symbolic link, ...) from st,
 * for open_output()'s -EMLINK that the file has other names.
 */
const char *file_strerror(int err, const struct stat *st);
/* The process's umask, left as it is. */
mode_t umask_now(void);
/*
 * Write a whole file through a temporary in the same directory and
 * rename(2); the file gets mode less the process's umask.
 */
int write_file_atomic(const char *path, const void *buf, size_t len, int mode);
/* The same for name in the directory dirfd (openat(2)): nothing outside it is touched. */
int write_file_atomic_at(int dirfd, const char *name, const void *buf, size_t len, int mode);
/*
 * Create NAME.tmpXXXXXXXX in the directory dirfd, new (O_EXCL, never
 * through a link), 0600, for writing: the fd, the name in *tmp
 * (malloc'd), or -errno. What a write then renames over the real name.
 */
int create_temp_at(int dirfd, const char *name, char **tmp);

#endif
