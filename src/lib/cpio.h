/* SPDX-License-Identifier: GPL-2.0 */
/* cpio.h: write and read the "newc" cpio format the kernel unpacks as initramfs. */
#ifndef RAPIDO_CPIO_H
#define RAPIDO_CPIO_H

#include <stddef.h>
#include <sys/types.h>

struct cpio_writer {
	int fd;
	unsigned long ino;
	off_t off;
	int err;	/* first -errno seen; later calls do nothing */
};

void cpio_init(struct cpio_writer *w, int fd);
void cpio_add_dir(struct cpio_writer *w, const char *name, mode_t mode);
void cpio_add_file(struct cpio_writer *w, const char *name, mode_t mode,
		   const void *data, size_t len);
/* Write the trailer and pad to 512 bytes. Returns 0 or the first -errno. */
int cpio_finish(struct cpio_writer *w);

/*
 * Find NAME among the entries of the first archive in fd (read from the
 * start). On success returns 0 and a malloc'd NUL-terminated copy of its
 * data; -ENOENT if absent, -EINVAL if fd is not a newc archive. Stops after
 * max_entries entries so a huge image is never read whole.
 */
int cpio_find(int fd, const char *name, unsigned int max_entries, char **data, size_t *len);

#endif
