// SPDX-License-Identifier: GPL-2.0
/*
 * cpio.c: newc ("070701") archives. The kernel unpacks concatenated archives
 * in order (a later file replaces an earlier one) and skips the zero padding
 * between them, so an image is a row of archives: rapido's head, the cached
 * layers (kernel modules, binaries, trees), rapido's tail.
 */
#include <errno.h>
#include <limits.h>
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
#define NAME_MAX_LEN 4096

void cpio_init(struct cpio_writer *w, int fd)
{
	w->fd = fd;
	w->ino = 1;
	w->off = 0;
	w->err = 0;
	w->hash = NULL;
	w->n = 0;
}

static void cpio_flush(struct cpio_writer *w)
{
	if (!w->err && w->n)
		w->err = write_all(w->fd, w->buf, w->n);
	w->n = 0;
}

static void cpio_write(struct cpio_writer *w, const void *buf, size_t len)
{
	if (w->err)
		return;
	if (w->hash)
		xxh64_update(w->hash, buf, len);
	w->off += (off_t)len;
	if (w->n + len > sizeof(w->buf)) {
		cpio_flush(w);
		if (len >= sizeof(w->buf)) {
			if (!w->err)
				w->err = write_all(w->fd, buf, len);
			return;
		}
	}
	memcpy(w->buf + w->n, buf, len);
	w->n += len;
}

static void cpio_pad(struct cpio_writer *w, size_t align)
{
	static const char zeros[512];
	size_t pad = (align - (size_t)(w->off % (off_t)align)) % align;

	if (pad)
		cpio_write(w, zeros, pad);
}

static void cpio_header(struct cpio_writer *w, const char *name, const struct cpio_hdr *h,
			uint64_t len)
{
	char hdr[160];
	size_t namelen = strlen(name) + 1;

	snprintf(hdr, sizeof(hdr),
		 "070701%08lX%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08zX%08X",
		 w->ino++ & 0xffffffff, (unsigned int)h->mode, h->uid, h->gid,
		 S_ISDIR(h->mode) ? 2u : 1u, h->mtime, (unsigned int)len, 0u, 0u,
		 h->rdevmajor, h->rdevminor, namelen & 0xffffffff, 0u);
	cpio_write(w, hdr, NEWC_HDR_LEN);
	cpio_write(w, name, namelen);
	cpio_pad(w, 4);
}

void cpio_add(struct cpio_writer *w, const char *name, const struct cpio_hdr *h,
	      const void *data, size_t len)
{
	cpio_header(w, name, h, len);
	if (len) {
		cpio_write(w, data, len);
		cpio_pad(w, 4);
	}
}

void cpio_add_dir(struct cpio_writer *w, const char *name, mode_t mode)
{
	struct cpio_hdr h = { .mode = S_IFDIR | (mode & 07777) };

	cpio_add(w, name, &h, NULL, 0);
}

void cpio_add_file(struct cpio_writer *w, const char *name, mode_t mode,
		   const void *data, size_t len)
{
	struct cpio_hdr h = { .mode = S_IFREG | (mode & 07777) };

	cpio_add(w, name, &h, data, len);
}

int cpio_add_fd(struct cpio_writer *w, const char *name, const struct cpio_hdr *h,
		int fd, uint64_t size)
{
	static char buf[1 << 16];
	uint64_t left = size;
	char extra;

	if (size > 0xffffffffULL)
		return -EFBIG;
	cpio_header(w, name, h, size);
	while (left && !w->err) {
		ssize_t n = read(fd, buf, left < sizeof(buf) ? left : sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ESTALE;
		cpio_write(w, buf, (size_t)n);
		left -= (uint64_t)n;
	}
	if (!w->err && read(fd, &extra, 1) > 0)
		return -ESTALE;
	if (size)
		cpio_pad(w, 4);
	return 0;
}

int cpio_finish(struct cpio_writer *w)
{
	struct cpio_hdr h = { 0 };

	cpio_add(w, "TRAILER!!!", &h, NULL, 0);
	cpio_pad(w, 512);
	cpio_flush(w);
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

/* The 13 numeric fields of a newc header, after checking its magic. */
static int parse_header(const char *hdr, unsigned long f[13])
{
	if (memcmp(hdr, "070701", 6))
		return -EINVAL;
	for (int i = 0; i < 13; i++)
		if (hexfield(hdr + 6 + 8 * i, &f[i]))
			return -EINVAL;
	if (f[11] == 0 || f[11] > NAME_MAX_LEN)
		return -EINVAL;
	return 0;
}

enum { F_INO, F_MODE, F_UID, F_GID, F_NLINK, F_MTIME, F_SIZE, F_DEVMAJ, F_DEVMIN,
       F_RDEVMAJ, F_RDEVMIN, F_NAMESIZE, F_CHECK };

/* Read the entry header at off: fields and name; *next = offset of its data. */
static int pread_entry(int fd, off_t off, unsigned long f[13], char **name, off_t *data)
{
	char hdr[NEWC_HDR_LEN];
	ssize_t n = pread(fd, hdr, sizeof(hdr), off);
	int rc;

	if (n < 0)
		return -errno;
	if (n != (ssize_t)sizeof(hdr))
		return -EINVAL;
	rc = parse_header(hdr, f);
	if (rc)
		return rc;
	*name = xmalloc(f[F_NAMESIZE]);
	n = pread(fd, *name, f[F_NAMESIZE], off + NEWC_HDR_LEN);
	if (n != (ssize_t)f[F_NAMESIZE] || (*name)[f[F_NAMESIZE] - 1]) {
		free(*name);
		*name = NULL;
		return n < 0 ? -errno : -EINVAL;
	}
	*data = (off + NEWC_HDR_LEN + (off_t)f[F_NAMESIZE] + 3) & ~(off_t)3;
	return 0;
}

int cpio_find(int fd, const char *name, unsigned int max_entries, char **data, size_t *len)
{
	return cpio_find_at(fd, 0, name, max_entries, data, len);
}

int cpio_find_at(int fd, off_t start, const char *name, unsigned int max_entries, char **data,
		 size_t *len)
{
	off_t off = start;

	for (unsigned int i = 0; i < max_entries; i++) {
		unsigned long f[13];
		char *ename;
		off_t doff;
		ssize_t n;
		int rc = pread_entry(fd, off, f, &ename, &doff);

		if (rc)
			return rc;
		if (!strcmp(ename, "TRAILER!!!")) {
			free(ename);
			return -ENOENT;
		}
		if (!strcmp(ename, name)) {
			char *buf;

			free(ename);
			if (f[F_SIZE] > (1UL << 20))
				return -EFBIG;
			buf = xmalloc(f[F_SIZE] + 1);
			n = pread(fd, buf, f[F_SIZE], doff);
			if (n != (ssize_t)f[F_SIZE]) {
				free(buf);
				return n < 0 ? -errno : -EINVAL;
			}
			buf[f[F_SIZE]] = '\0';
			*data = buf;
			if (len)
				*len = f[F_SIZE];
			return 0;
		}
		free(ename);
		off = (doff + (off_t)f[F_SIZE] + 3) & ~(off_t)3;
	}
	return -ENOENT;
}

/*
 * The entries of the archive at start, up to its trailer (max of them at
 * most): fn for each (NULL: none); *end (if set) just past the trailer,
 * rounded up to 512 bytes as cpio_finish() pads. 0, fn's non-zero
 * return, -EINVAL (not newc, no trailer within max), or -errno.
 */
static int walk(int fd, off_t start, unsigned int max, cpio_walk_fn fn, void *arg, off_t *end)
{
	off_t off = start;

	for (unsigned int i = 0; i < max; i++) {
		unsigned long f[13];
		char *ename;
		off_t doff;
		int rc = pread_entry(fd, off, f, &ename, &doff), last;

		if (rc)
			return rc;
		last = !strcmp(ename, "TRAILER!!!");
		if (!last && fn)
			rc = fn(fd, ename, (mode_t)f[F_MODE], doff, f[F_SIZE], arg);
		free(ename);
		if (rc)
			return rc;
		off = (doff + (off_t)f[F_SIZE] + 3) & ~(off_t)3;
		if (last) {
			if (end)
				*end = (off + 511) & ~(off_t)511;
			return 0;
		}
	}
	return -EINVAL;
}

int cpio_walk(int fd, cpio_walk_fn fn, void *arg)
{
	return walk(fd, 0, UINT_MAX, fn, arg, NULL);
}

int cpio_archive_end(int fd, off_t start, unsigned int max_entries, off_t *end)
{
	return walk(fd, start, max_entries, NULL, NULL, end);
}

/* A sequential reader over a big archive: one read(2) per megabyte. */
struct reader {
	int fd;
	char *buf;
	size_t pos, len, cap;
	int eof;
};

static int rd_fill(struct reader *r)
{
	ssize_t n;

	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
	}
	if (r->eof || r->len == r->cap)
		return 0;
	n = read_full(r->fd, r->buf + r->len, r->cap - r->len);
	if (n < 0)
		return (int)n;
	if (n == 0)
		r->eof = 1;
	r->len += (size_t)n;
	return 0;
}

/* Make want bytes available at r->buf + r->pos; -EINVAL at a premature end. */
static int rd_need(struct reader *r, size_t want)
{
	while (r->len - r->pos < want) {
		int rc;

		if (r->eof)
			return -EINVAL;
		rc = rd_fill(r);
		if (rc)
			return rc;
	}
	return 0;
}

/* Pass n bytes to the writers in mask (none: drop them), then skip the 4-byte padding. */
static int rd_copy(struct reader *r, struct cpio_writer *w, unsigned int mask, uint64_t n,
		   uint64_t pad)
{
	uint64_t total = n + pad;

	while (total) {
		size_t chunk;
		int rc;

		if (r->pos == r->len) {
			rc = rd_fill(r);
			if (rc)
				return rc;
			if (r->pos == r->len)
				return -EINVAL;
		}
		chunk = r->len - r->pos;
		if (chunk > total)
			chunk = (size_t)total;
		if (n) {
			size_t data = chunk < n ? chunk : (size_t)n;

			for (unsigned int i = 0; mask >> i; i++)
				if (mask & (1U << i))
					cpio_write(&w[i], r->buf + r->pos, data);
			n -= data;
		}
		r->pos += chunk;
		total -= chunk;
	}
	return 0;
}

/* Skip the zeros between archives; 1 at the end of the input. */
static int rd_skip_zeros(struct reader *r)
{
	for (;;) {
		int rc;

		while (r->pos < r->len && r->buf[r->pos] == '\0')
			r->pos++;
		if (r->pos < r->len)
			return 0;
		rc = rd_fill(r);
		if (rc)
			return rc;
		if (r->pos == r->len)
			return 1;
	}
}

int cpio_split(int in, struct cpio_writer *outs, cpio_route_fn route, void *arg, char **bad)
{
	struct reader r = { .fd = in, .cap = 1 << 20 };
	int rc;

	*bad = NULL;
	r.buf = xmalloc(r.cap);
	for (;;) {
		unsigned long f[13];
		struct cpio_hdr h;
		char *name;
		unsigned int to;

		rc = rd_skip_zeros(&r);
		if (rc) {
			rc = rc == 1 ? 0 : rc;
			break;
		}
		rc = rd_need(&r, NEWC_HDR_LEN);
		if (!rc)
			rc = parse_header(r.buf + r.pos, f);
		if (rc)
			break;
		r.pos += NEWC_HDR_LEN;
		rc = rd_need(&r, f[F_NAMESIZE]);
		if (rc)
			break;
		name = r.buf + r.pos;
		if (name[f[F_NAMESIZE] - 1]) {
			rc = -EINVAL;
			break;
		}
		name = xstrdup(name);
		rc = rd_copy(&r, NULL, 0, f[F_NAMESIZE], ((NEWC_HDR_LEN + f[F_NAMESIZE] + 3) & ~3UL) -
			     NEWC_HDR_LEN - f[F_NAMESIZE]);
		if (rc) {
			free(name);
			break;
		}
		if (!strcmp(name, "TRAILER!!!")) {
			free(name);
			continue;	/* another archive may follow */
		}
		to = (unsigned int)route(name, (mode_t)f[F_MODE], arg);
		if (to && S_ISREG(f[F_MODE]) && f[F_NLINK] > 1) {
			*bad = name;
			rc = -EMLINK;
			break;
		}
		if (to) {
			h = (struct cpio_hdr){ .mode = (mode_t)f[F_MODE], .uid = (uint32_t)f[F_UID],
					       .gid = (uint32_t)f[F_GID], .mtime = (uint32_t)f[F_MTIME],
					       .rdevmajor = (uint32_t)f[F_RDEVMAJ],
					       .rdevminor = (uint32_t)f[F_RDEVMIN] };
			for (unsigned int i = 0; to >> i; i++)
				if (to & (1U << i))
					cpio_header(&outs[i], name, &h, f[F_SIZE]);
		}
		free(name);
		rc = rd_copy(&r, outs, to, f[F_SIZE], (4 - f[F_SIZE] % 4) % 4);
		if (rc)
			break;
		for (unsigned int i = 0; f[F_SIZE] && to >> i; i++)
			if (to & (1U << i))
				cpio_pad(&outs[i], 4);
	}
	free(r.buf);
	return rc;
}
