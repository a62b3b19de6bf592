// SPDX-License-Identifier: GPL-2.0
/*
 * elfdyn.c: read e_machine, DT_NEEDED, DT_RUNPATH and PT_INTERP without
 * running anything, so ./cut can group the programs of a tree by what they
 * need and ask the loader once per group instead of running ldd once per
 * program, and resolve a foreign architecture's libraries in its sysroot
 * (elfdeps.c), where nothing can be run. The file is walked by elfwalk.c.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfdyn.h"
#include "elfwalk.h"
#include "err.h"
#include "io.h"

/* The loader's answer must not be a page of a crafted file: an interpreter path is short. */
#define MAX_INTERP 4096

/* The string at off of [str, str + len), up to its NUL or the table's end; NULL past it. */
static char *dyn_str(const char *str, size_t len, uint64_t off)
{
	return off < len ? xstrndup(str + off, len - (size_t)off) : NULL;
}

static int read_dynamic(const struct elf *e, const struct elf_segment *dyn, struct elf_deps *d)
{
	uint64_t strtab = 0, strsz = 0, runpath = UINT64_MAX, rpath = UINT64_MAX, stroff, tag, val;
	int have_strtab = 0, rc = 0;
	struct elf_dyns it;
	struct strv idx = STRV_INIT;	/* DT_NEEDED offsets, as numbers in text */
	const char *str;

	elf_dyns_init(&it, e, dyn);
	while (elf_dyn_next(&it, &tag, &val)) {
		if (tag == DT_NEEDED)
			strv_pushf(&idx, "%llu", (unsigned long long)val);
		else if (tag == DT_STRTAB)
			strtab = val, have_strtab = 1;
		else if (tag == DT_STRSZ)
			strsz = val;
		else if (tag == DT_RUNPATH)
			runpath = val;
		else if (tag == DT_RPATH)
			rpath = val;
	}
	if (!idx.n && runpath == UINT64_MAX && rpath == UINT64_MAX)
		goto out;
	/* the strings are where DT_STRTAB's address is loaded from */
	if (!have_strtab || !strsz || elf_vaddr_offset(e, strtab, &stroff) ||
	    stroff > e->len || strsz > e->len - stroff) {
		rc = -ENOEXEC;
		goto out;
	}
	str = (const char *)e->data + stroff;
	for (size_t i = 0; !rc && i < idx.n; i++) {
		char *name = dyn_str(str, (size_t)strsz, strtoull(idx.v[i], NULL, 10));

		if (name)
			strv_push(&d->needed, name);
		else
			rc = -ENOEXEC;
		free(name);
	}
	if (!rc && runpath == UINT64_MAX)
		runpath = rpath;
	if (!rc && runpath != UINT64_MAX) {
		d->runpath = dyn_str(str, (size_t)strsz, runpath);
		if (!d->runpath)
			rc = -ENOEXEC;
	}
out:
	strv_free(&idx);
	return rc;
}

int elf_read_deps(int fd, struct elf_deps *d)
{
	struct stat st;
	struct elf e;
	void *map;
	int rc, dyn_read = 0;

	memset(d, 0, sizeof(*d));
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size < EI_NIDENT)
		return -ENOEXEC;
	/* mapped: the loader's needs are a few pages of a file of any size */
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	rc = elf_open(&e, map, (size_t)st.st_size);
	/* the loader reads segments only: broken section headers are not its business */
	if (rc && e.bad == ELF_BAD_SHDRS)
		rc = 0;
	if (!rc) {
		d->klass = e.klass;
		d->data = e.endian;
		d->type = e.type;
		d->machine = e.machine;
	}
	for (unsigned int i = 0; !rc && i < e.phnum; i++) {
		struct elf_segment s;

		elf_segment(&e, i, &s);
		if (s.type == PT_INTERP && !d->interp) {
			if (s.filesz == 0 || s.filesz > MAX_INTERP)
				rc = -ENOEXEC;
			else
				d->interp = xstrndup((const char *)s.data, (size_t)s.filesz);
		} else if (s.type == PT_DYNAMIC && !dyn_read) {
			/* one dynamic section is read: a second would leak the first one's runpath */
			rc = read_dynamic(&e, &s, d);
			dyn_read = 1;
			d->dynamic = 1;
		}
	}
	munmap(map, (size_t)st.st_size);
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
