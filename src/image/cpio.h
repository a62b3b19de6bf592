/* SPDX-License-Identifier: GPL-2.0 */
/* cpio.h: write and read the "newc" cpio format the kernel unpacks as initramfs. */
#ifndef RAPIDO_CPIO_H
#define RAPIDO_CPIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hash.h"

#define CPIO_BUF 65536

struct cpio_writer {
	int fd;
	unsigned long ino;
	off_t off;		/* bytes of archive so far (written or buffered) */
	int err;		/* first -errno seen; later calls do nothing */
	struct xxh64 *hash;	/* if set, every byte written is hashed too */
	size_t n;		/* bytes waiting in buf */
	char buf[CPIO_BUF];
};

/* One entry's header fields; ino, dev and the check field are the writer's. */
struct cpio_hdr {
	mode_t mode;		/* type and permissions */
	uint32_t uid, gid;
	uint32_t mtime;
	uint32_t rdevmajor, rdevminor;
};

void cpio_init(struct cpio_writer *w, int fd);
void cpio_add_dir(struct cpio_writer *w, const char *name, mode_t mode);
void cpio_add_file(struct cpio_writer *w, const char *name, mode_t mode,
		   const void *data, size_t len);
/* Any entry with its data in memory (a symlink's data is its target). */
void cpio_add(struct cpio_writer *w, const char *name, const struct cpio_hdr *h,
	      const void *data, size_t len);
/*
 * A regular file whose size bytes are read from fd. Returns 0, -ESTALE if
 * the file changed size while being read, -EFBIG past newc's 4 GiB, or
 * the -errno of a failed read (the writer's own errors stay in w->err).
 */
int cpio_add_fd(struct cpio_writer *w, const char *name, const struct cpio_hdr *h,
		int fd, uint64_t size);
/* Write the trailer, pad to 512 bytes and flush. Returns 0 or the first -errno. */
int cpio_finish(struct cpio_writer *w);

/*
 * Find NAME among the entries of the first archive in fd (read from the
 * start). On success returns 0 and a malloc'd NUL-terminated copy of its
 * data; -ENOENT if absent, -EINVAL if fd is not a newc archive. Stops after
 * max_entries entries so a huge image is never read whole.
 */
int cpio_find(int fd, const char *name, unsigned int max_entries, char **data, size_t *len);
/* The same in the archive that starts at offset start. */
int cpio_find_at(int fd, off_t start, const char *name, unsigned int max_entries, char **data,
		 size_t *len);

/*
 * The end of the archive that starts at offset start in fd: just past its
 * trailer, rounded up to 512 bytes as cpio_finish() pads. 0 or -EINVAL
 * (not newc, or no trailer within max_entries), -errno on read errors.
 */
int cpio_archive_end(int fd, off_t start, unsigned int max_entries, off_t *end);

/*
 * Route: for each entry of the archive(s) read from in, the writers that
 * get it, as a bit mask (bit i: outs[i]); 0 drops it.
 */
typedef int (*cpio_route_fn)(const char *name, mode_t mode, void *arg);

/*
 * Copy the entries of the newc archives in fd in (read sequentially, to its
 * end) into the writers, as route says. Entries are normalised so the same
 * files give the same bytes whatever archive they came from: inode numbers
 * renumbered per writer, link count 2 for directories and 1 otherwise,
 * device numbers 0. A regular file with more than one link is refused
 * (-EMLINK, *bad = its name): newc writes such data once, so a split could
 * lose it. Returns 0 or -errno (-EINVAL: not newc). The writers are not
 * finished.
 */
int cpio_split(int in, struct cpio_writer *outs, cpio_route_fn route, void *arg, char **bad);

/*
 * Call fn for each entry of the archive at the start of fd, in order, up
 * to its trailer: its name, mode, and where its size bytes of data are
 * in fd. fn returns 0 to go on; anything else stops the walk and is
 * returned. 0 at the trailer, -EINVAL if fd is not newc, or -errno.
 */
typedef int (*cpio_walk_fn)(int fd, const char *name, mode_t mode, off_t data, uint64_t size,
			    void *arg);
int cpio_walk(int fd, cpio_walk_fn fn, void *arg);

#endif
