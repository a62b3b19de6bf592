// SPDX-License-Identifier: GPL-2.0
/*
 * lib-cpio-split.c: splitting archives into layers. Two archives written
 * with different inode numbers and link counts split into the same bytes;
 * entries go where the route says, a dropped entry is gone, hard links are
 * refused, a truncated archive is an error, and archive ends are found.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"
#include "err.h"
#include "io.h"
#include "tap.h"

static int route(const char *name, mode_t mode, void *arg)
{
	(void)mode;
	(void)arg;
	if (!strcmp(name, "drop/me"))
		return 0;
	if (!strcmp(name, "usr"))
		return 3;	/* a parent directory both layers need */
	return !strncmp(name, "mods", 4) ? 1 : 2;
}

/* a raw newc entry with chosen inode and link count, as GNU cpio may write */
static void raw(int fd, unsigned int ino, unsigned int mode, unsigned int nlink, const char *name,
		const char *data)
{
	char hdr[160];
	size_t nl = strlen(name) + 1, dl = strlen(data);
	static const char z[4];
	off_t off = lseek(fd, 0, SEEK_CUR);

	snprintf(hdr, sizeof(hdr), "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		 ino, mode, 0u, 0u, nlink, 7u, dl, 3u, 1u, 0u, 0u, nl, 0u);
	write_all(fd, hdr, 110);
	write_all(fd, name, nl);
	write_all(fd, z, (4 - (size_t)(off + 110 + (off_t)nl) % 4) % 4);
	write_all(fd, data, dl);
	write_all(fd, z, (4 - dl % 4) % 4);
}

static void source(int fd, unsigned int ino0, unsigned int dirlinks)
{
	raw(fd, ino0, 040755, dirlinks, "mods", "");
	raw(fd, ino0 + 1, 0100644, 1, "mods/a.ko", "module-a");
	raw(fd, ino0 + 2, 040755, dirlinks + 1, "usr", "");
	raw(fd, ino0 + 3, 0120777, 1, "usr/sh", "bash");
	raw(fd, ino0 + 4, 0100755, 1, "usr/bash", "#!bash!");
	raw(fd, ino0 + 5, 0100644, 1, "drop/me", "x");
	raw(fd, ino0 + 6, 0, 1, "TRAILER!!!", "");
	write_all(fd, "\0\0\0\0\0\0\0\0", 8);
}

/* split the archive in fd into two files; returns cpio_split's result */
static int split(int in, int out0, int out1, char **bad)
{
	static struct cpio_writer w[2];
	int rc;

	cpio_init(&w[0], out0);
	cpio_init(&w[1], out1);
	lseek(in, 0, SEEK_SET);
	rc = cpio_split(in, w, route, NULL, bad);
	cpio_finish(&w[0]);
	cpio_finish(&w[1]);
	return rc;
}

static char *slurp(int fd, size_t *len)
{
	char *buf;
	off_t sz = lseek(fd, 0, SEEK_END);

	buf = xmalloc((size_t)sz + 1);
	*len = (size_t)pread(fd, buf, (size_t)sz, 0);
	return buf;
}

int main(void)
{
	char tmpl[] = "/tmp/rapido-split-XXXXXX";
	int src1, src2, a0, a1, b0, b1, bad_src, x0, x1;
	char *bad, *ta, *tb, *data;
	size_t la, lb, dl;
	off_t end;

	tap_plan(13);
	if (!mkdtemp(tmpl))
		return 1;
	if (chdir(tmpl) < 0)
		return 1;
	src1 = open("s1", O_RDWR | O_CREAT, 0600);
	src2 = open("s2", O_RDWR | O_CREAT, 0600);
	a0 = open("a0", O_RDWR | O_CREAT, 0600);
	a1 = open("a1", O_RDWR | O_CREAT, 0600);
	b0 = open("b0", O_RDWR | O_CREAT, 0600);
	b1 = open("b1", O_RDWR | O_CREAT, 0600);
	source(src1, 100, 2);
	/* the same files with other inode numbers and link counts, two archives in a row */
	raw(src2, 5, 0, 1, "TRAILER!!!", "");
	source(src2, 9000, 7);

	TAP_EQ_INT(split(src1, a0, a1, &bad), 0, "first archive split");
	TAP_EQ_INT(split(src2, b0, b1, &bad), 0, "second (after an empty archive) split");
	ta = slurp(a0, &la);
	tb = slurp(b0, &lb);
	tap_ok(la == lb && !memcmp(ta, tb, la), "module layers are byte-identical");
	free(ta);
	free(tb);
	ta = slurp(a1, &la);
	tb = slurp(b1, &lb);
	tap_ok(la == lb && !memcmp(ta, tb, la), "other layers are byte-identical");
	free(ta);
	free(tb);

	tap_ok(cpio_find(a0, "mods/a.ko", 8, &data, &dl) == 0 && !strcmp(data, "module-a"),
	       "module in layer 0");
	free(data);
	TAP_EQ_INT(cpio_find(a0, "usr/bash", 8, &data, &dl), -ENOENT, "bash not in layer 0");
	tap_ok(cpio_find(a1, "usr/sh", 8, &data, &dl) == 0 && !strcmp(data, "bash"),
	       "symlink target kept in layer 1");
	free(data);
	TAP_EQ_INT(cpio_find(a1, "drop/me", 8, &data, &dl), -ENOENT, "dropped entry gone");
	{
		char *d0 = NULL, *d1 = NULL;

		tap_ok(cpio_find(a0, "usr", 8, &d0, &dl) == 0 && cpio_find(a1, "usr", 8, &d1, &dl) == 0,
		       "an entry routed to both layers is in both");
		free(d0);
		free(d1);
	}

	tap_ok(cpio_archive_end(src2, 0, 8, &end) == 0 && end == 512,
	       "end of the leading empty archive");
	tap_ok(cpio_archive_end(a1, 0, 100, &end) == 0 && end == lseek(a1, 0, SEEK_END),
	       "end of a written layer is its size");

	bad_src = open("hl", O_RDWR | O_CREAT, 0600);
	x0 = open("x0", O_RDWR | O_CREAT, 0600);
	x1 = open("x1", O_RDWR | O_CREAT, 0600);
	raw(bad_src, 1, 0100644, 2, "usr/one", "");
	raw(bad_src, 1, 0100644, 2, "usr/two", "data");
	raw(bad_src, 2, 0, 1, "TRAILER!!!", "");
	tap_ok(split(bad_src, x0, x1, &bad) == -EMLINK && bad && !strcmp(bad, "usr/one"),
	       "hard link refused, named");
	free(bad);

	if (ftruncate(src1, 300) < 0)
		return 1;
	TAP_EQ_INT(split(src1, x0, x1, &bad), -EINVAL, "truncated archive: -EINVAL");

	for (const char *const *f = (const char *const[]){ "s1", "s2", "a0", "a1", "b0", "b1",
							    "hl", "x0", "x1", NULL }; *f; f++)
		unlink(*f);
	if (chdir("/") == 0)
		rmdir(tmpl);
	return tap_done();
}
