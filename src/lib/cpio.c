// SPDX-License-Identifier: GPL-2.0
/*
 * cpio.c: newc ("070701") archives. The kernel unpacks concatenated archives
 * in order and skips the zero padding between them, so cut prepends a small
 * archive of rapido's own files to dracut's image: one file, one rename.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"
#include "err.h"
#include "hex.h"
#include "io.h"

#define NEWC_HDR_LEN 110

void cpio_init(struct cpio_writer *w, int fd)
{
	w->fd = fd;
	w->ino = 1;
	w->off = 0;
	w->err = 0;
}

static void cpio_write(struct cpio_writer *w, const void *buf, size_t len)
{
	if (w->err)
		return;
	w->err = write_all(w->fd, buf, len);
	w->off += (off_t)len;
}

static void cpio_pad(struct cpio_writer *w, size_t align)
{
	static const char zeros[512];
	size_t pad = (align - (size_t)(w->off % (off_t)align)) % align;

	if (pad)
		cpio_write(w, zeros, pad);
}

static void cpio_entry(struct cpio_writer *w, const char *name, mode_t mode,
		       const void *data, size_t len)
{
	char hdr[160];
	size_t namelen = strlen(name) + 1;

	snprintf(hdr, sizeof(hdr),
		 "070701%08lX%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		 w->ino++, (unsigned int)mode, 0u, 0u, 1u, 0u, len & 0xffffffff, 0u, 0u, 0u, 0u,
		 namelen & 0xffffffff, 0u);
	cpio_write(w, hdr, NEWC_HDR_LEN);
	cpio_write(w, name, namelen);
	cpio_pad(w, 4);
	if (len) {
		cpio_write(w, data, len);
		cpio_pad(w, 4);
	}
}

void cpio_add_dir(struct cpio_writer *w, const char *name, mode_t mode)
{
	cpio_entry(w, name, S_IFDIR | (mode & 07777), NULL, 0);
}

void cpio_add_file(struct cpio_writer *w, const char *name, mode_t mode,
		   const void *data, size_t len)
{
	cpio_entry(w, name, S_IFREG | (mode & 07777), data, len);
}

int cpio_finish(struct cpio_writer *w)
{
	cpio_entry(w, "TRAILER!!!", 0, NULL, 0);
	cpio_pad(w, 512);
	return w->err;
}

/* Eight hex digits, nothing else: strtoul() would also take " +1", "-1" and "0x1". */
static int hexfield(const char *p, unsigned long *out)
{
	*out = 0;
	for (int i = 0; i < 8; i++) {
		int d = hex_digit(p[i]);

		if (d < 0)
			return -EINVAL;
		*out = *out << 4 | (unsigned long)d;
	}
	return 0;
}

int cpio_find(int fd, const char *name, unsigned int max_entries, char **data, size_t *len)
{
	off_t off = 0;

	for (unsigned int i = 0; i < max_entries; i++) {
		char hdr[NEWC_HDR_LEN];
		unsigned long filesize, namesize;
		char *ename;
		ssize_t n;
		int match;

		n = pread(fd, hdr, sizeof(hdr), off);
		if (n < 0)
			return -errno;
		if (n != (ssize_t)sizeof(hdr) || memcmp(hdr, "070701", 6))
			return -EINVAL;
		if (hexfield(hdr + 54, &filesize) || hexfield(hdr + 94, &namesize) ||
		    namesize == 0 || namesize > 4096)
			return -EINVAL;
		ename = xmalloc(namesize);
		n = pread(fd, ename, namesize, off + NEWC_HDR_LEN);
		if (n != (ssize_t)namesize || ename[namesize - 1]) {
			free(ename);
			return n < 0 ? -errno : -EINVAL;
		}
		off += NEWC_HDR_LEN + (off_t)namesize;
		off = (off + 3) & ~(off_t)3;
		match = !strcmp(ename, name);
		if (!strcmp(ename, "TRAILER!!!")) {
			free(ename);
			return -ENOENT;
		}
		free(ename);
		if (match) {
			char *buf;

			if (filesize > (1UL << 20))
				return -EFBIG;
			buf = xmalloc(filesize + 1);
			n = pread(fd, buf, filesize, off);
			if (n != (ssize_t)filesize) {
				free(buf);
				return n < 0 ? -errno : -EINVAL;
			}
			buf[filesize] = '\0';
			*data = buf;
			if (len)
				*len = filesize;
			return 0;
		}
		off += (off_t)filesize;
		off = (off + 3) & ~(off_t)3;
	}
	return -ENOENT;
}
