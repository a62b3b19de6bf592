// SPDX-License-Identifier: GPL-2.0
/*
 * elfdyn.c: read e_machine, DT_NEEDED, DT_RUNPATH and PT_INTERP without
 * running anything, so ./cut can group the programs of a tree by what they
 * need and ask the loader once per group instead of running ldd once per
 * program, and resolve a foreign architecture's libraries in its sysroot
 * (elfdeps.c), where nothing can be run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfdyn.h"
#include "err.h"
#include "io.h"

#define MAX_PHNUM 512
#define MAX_DYN (1 << 16)
#define MAX_STRTAB (16 << 20)

enum { PT_LOAD_ = 1, PT_DYNAMIC_ = 2, PT_INTERP_ = 3 };
enum { DT_NULL_ = 0, DT_NEEDED_ = 1, DT_STRTAB_ = 5, DT_STRSZ_ = 10, DT_RPATH_ = 15,
       DT_RUNPATH_ = 29 };

struct elf_file {
	int fd;
	int is64;
	int big;	/* big-endian */
};

static uint64_t get(const struct elf_file *e, const unsigned char *p, int bytes)
{
	uint64_t v = 0;

	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)p[e->big ? bytes - 1 - i : i] << (8 * i);
	return v;
}

static int read_at(const struct elf_file *e, void *buf, size_t len, uint64_t off)
{
	ssize_t n;

	if (off > INT64_MAX)
		return -ENOEXEC;
	n = pread(e->fd, buf, len, (off_t)off);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -ENOEXEC;
}

struct seg {
	uint64_t type, offset, vaddr, filesz;
};

/* File offset of virtual address va, through the PT_LOAD segments. */
static int vaddr_to_off(const struct seg *s, size_t n, uint64_t va, uint64_t *off)
{
	for (size_t i = 0; i < n; i++)
		if (s[i].type == PT_LOAD_ && va >= s[i].vaddr && va - s[i].vaddr < s[i].filesz) {
			*off = va - s[i].vaddr + s[i].offset;
			return 0;
		}
	return -ENOEXEC;
}

static int read_segments(const struct elf_file *e, const unsigned char *eh, struct seg **out, size_t *n)
{
	uint64_t phoff = get(e, eh + (e->is64 ? 32 : 28), e->is64 ? 8 : 4);
	unsigned int phentsize = (unsigned int)get(e, eh + (e->is64 ? 54 : 42), 2);
	unsigned int phnum = (unsigned int)get(e, eh + (e->is64 ? 56 : 44), 2);
	unsigned int want = e->is64 ? 56 : 32;
	unsigned char *ph;
	struct seg *s;
	int rc;

	if (phnum > MAX_PHNUM || (phnum && phentsize < want))
		return -ENOEXEC;
	ph = xmalloc((size_t)phnum * phentsize + 1);
	rc = read_at(e, ph, (size_t)phnum * phentsize, phoff);
	if (rc) {
		free(ph);
		return rc;
	}
	s = xcalloc(phnum + 1, sizeof(*s));
	for (unsigned int i = 0; i < phnum; i++) {
		const unsigned char *p = ph + (size_t)i * phentsize;

		s[i].type = get(e, p, 4);
		if (e->is64) {
			s[i].offset = get(e, p + 8, 8);
			s[i].vaddr = get(e, p + 16, 8);
			s[i].filesz = get(e, p + 32, 8);
		} else {
			s[i].offset = get(e, p + 4, 4);
			s[i].vaddr = get(e, p + 8, 4);
			s[i].filesz = get(e, p + 16, 4);
		}
	}
	free(ph);
	*out = s;
	*n = phnum;
	return 0;
}

static int read_dynamic(const struct elf_file *e, const struct seg *segs, size_t nseg,
			const struct seg *dyn, struct elf_deps *d)
{
	size_t entsz = e->is64 ? 16 : 8, word = e->is64 ? 8 : 4, count;
	uint64_t strtab = 0, strsz = 0, runpath = UINT64_MAX, rpath = UINT64_MAX, stroff;
	int have_strtab = 0, rc;
	unsigned char *dy;
	char *str = NULL;
	struct strv idx = STRV_INIT;	/* DT_NEEDED offsets, as numbers in text */

	if (dyn->filesz > (uint64_t)MAX_DYN * entsz)
		return -ENOEXEC;
	count = (size_t)dyn->filesz / entsz;
	dy = xmalloc(count * entsz + 1);
	rc = read_at(e, dy, count * entsz, dyn->offset);
	for (size_t i = 0; !rc && i < count; i++) {
		uint64_t tag = get(e, dy + i * entsz, (int)word);
		uint64_t val = get(e, dy + i * entsz + word, (int)word);

		if (tag == DT_NULL_)
			break;
		if (tag == DT_NEEDED_)
			strv_pushf(&idx, "%llu", (unsigned long long)val);
		else if (tag == DT_STRTAB_)
			strtab = val, have_strtab = 1;
		else if (tag == DT_STRSZ_)
			strsz = val;
		else if (tag == DT_RUNPATH_)
			runpath = val;
		else if (tag == DT_RPATH_)
			rpath = val;
	}
	free(dy);
	if (!rc && (idx.n || runpath != UINT64_MAX || rpath != UINT64_MAX)) {
		if (!have_strtab || !strsz || strsz > MAX_STRTAB ||
		    vaddr_to_off(segs, nseg, strtab, &stroff))
			rc = -ENOEXEC;
		if (!rc) {
			str = xmalloc((size_t)strsz + 1);
			rc = read_at(e, str, (size_t)strsz, stroff);
			str[strsz] = '\0';
		}
		for (size_t i = 0; !rc && i < idx.n; i++) {
			uint64_t at = strtoull(idx.v[i], NULL, 10);

			if (at >= strsz)
				rc = -ENOEXEC;
			else
				strv_push(&d->needed, str + at);
		}
		if (!rc && runpath == UINT64_MAX)
			runpath = rpath;
		if (!rc && runpath != UINT64_MAX) {
			if (runpath >= strsz)
				rc = -ENOEXEC;
			else
				d->runpath = xstrdup(str + runpath);
		}
	}
	free(str);
	strv_free(&idx);
	return rc;
}

int elf_read_deps(int fd, struct elf_deps *d)
{
	unsigned char eh[64];
	struct elf_file e = { .fd = fd };
	struct seg *segs = NULL;
	size_t nseg = 0;
	int rc, dyn_read = 0;

	memset(d, 0, sizeof(*d));
	rc = read_at(&e, eh, sizeof(eh), 0);
	if (rc)
		return rc;
	if (memcmp(eh, "\177ELF", 4) || (eh[4] != 1 && eh[4] != 2) || (eh[5] != 1 && eh[5] != 2))
		return -ENOEXEC;
	e.is64 = eh[4] == 2;
	e.big = eh[5] == 2;
	d->klass = eh[4];
	d->data = eh[5];
	d->type = (unsigned int)get(&e, eh + 16, 2);
	d->machine = (unsigned int)get(&e, eh + 18, 2);
	rc = read_segments(&e, eh, &segs, &nseg);
	for (size_t i = 0; !rc && i < nseg; i++) {
		if (segs[i].type == PT_INTERP_ && !d->interp) {
			if (segs[i].filesz == 0 || segs[i].filesz > 4096) {
				rc = -ENOEXEC;
				break;
			}
			d->interp = xmalloc((size_t)segs[i].filesz + 1);
			rc = read_at(&e, d->interp, (size_t)segs[i].filesz, segs[i].offset);
			d->interp[segs[i].filesz] = '\0';
		} else if (segs[i].type == PT_DYNAMIC_ && !dyn_read) {
			/* one dynamic section is read: a second would leak the first one's runpath */
			rc = read_dynamic(&e, segs, nseg, &segs[i], d);
			dyn_read = 1;
			d->dynamic = 1;
		}
	}
	free(segs);
	if (rc)
		elf_deps_free(d);
	return rc;
}

int elf_read_deps_path(const char *path, struct elf_deps *d)
{
	struct stat st;
	int fd = open_regular(path, 0, &st), rc;

	if (fd < 0) {
		memset(d, 0, sizeof(*d));
		return fd;
	}
	rc = elf_read_deps(fd, d);
	close(fd);
	return rc;
}

void elf_deps_free(struct elf_deps *d)
{
	free(d->interp);
	strv_free(&d->needed);
	free(d->runpath);
	memset(d, 0, sizeof(*d));
}
