/* SPDX-License-Identifier: GPL-2.0 */
/* io.h: full read/write with EINTR retry, whole-file reads. */
#ifndef RAPIDO_IO_H
#define RAPIDO_IO_H

#include <stddef.h>
#include <sys/types.h>

/* Write all of buf; returns 0 or -errno. */
int write_all(int fd, const void *buf, size_t len);
/* Read up to len bytes, retrying EINTR and short reads; returns bytes read or -errno. */
ssize_t read_full(int fd, void *buf, size_t len);
/*
 * Read a whole file into a NUL-terminated malloc'd buffer.
 * Returns 0 or -errno; *len (if non-NULL) gets the size without the NUL.
 */
int read_file(const char *path, char **out, size_t *len);
/*
 * read_file() for a file someone else may have put there: it must be a
 * regular file (after symlinks) of at most max bytes. The open never
 * blocks (O_NONBLOCK: a FIFO cannot hang it). -EINVAL: not a regular
 * file; -EFBIG: larger than max; else 0 or -errno.
 */
int read_regular_file(const char *path, size_t max, char **out, size_t *len);
/* Write a whole file through a temporary in the same directory and rename(2). */
int write_file_atomic(const char *path, const void *buf, size_t len, int mode);

#endif
