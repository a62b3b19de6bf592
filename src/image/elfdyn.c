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

/* What a crafted file may make it read: an interpreter path is short, a dynamic section and its strings small. */
#define MAX_INTERP 4096
#define MAX_DYN (1 << 16)
#define MAX_STRTAB (16 << 20)

/*
 * The file is walked in a copy of its size that holds only what is read
 * into it (anonymous memory: the pages never touched cost nothing). Not
 * the file mapped: one cut short while ./cut reads it (tree.c copies a
 * user's tree) would kill ./cut with SIGBUS; a short read here is -ENOEXEC.
 */
struct sparse {
	int fd;
	unsigned char *buf;
	size_t len;
};

/* Read [off, off + n) of the file into the copy (clipped to its size): 0, -ENOEXEC if short, -errno. */
static int fill(const struct sparse *f, uint64_t off, uint64_t n)
{
	ssize_t got;

	if (off >= f->len)
		return 0;
	if (n > f->len - off)
		n = f->len - off;
	got = pread_full(f->fd, f->buf + off, (size_t)n, (off_t)off);
	if (got < 0)
		return (int)got;
	return (uint64_t)got == n ? 0 : -ENOEXEC;
}

/* The string at off of [str, str + len), up to its NUL or the table's end; NULL past it. */
static char *dyn_str(const char *str, size_t len, uint64_t off)
{
	return off < len ? xstrndup(str + off, len - (size_t)off) : NULL;
}

static int read_dynamic(const struct sparse *f, const struct elf *e, const struct elf_segment *dyn,
			struct elf_deps *d)
{
	uint64_t strtab = 0, strsz = 0, runpath = UINT64_MAX, rpath = UINT64_MAX, stroff, tag, val;
	int have_strtab = 0, rc;
	struct elf_dyns it;
	struct strv idx = STRV_INIT;	/* DT_NEEDED offsets, as numbers in text */
	const char *str;

	if (dyn->filesz / (e->klass == ELFCLASS64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn)) > MAX_DYN)
		return -ENOEXEC;
	rc = fill(f, dyn->offset, dyn->filesz);
	elf_dyns_init(&it, e, dyn);
	while (!rc && elf_dyn_next(&it, &tag, &val)) {
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
	if (rc || (!idx.n && runpath == UINT64_MAX && rpath == UINT64_MAX))
		goto out;
	/* the strings are where DT_STRTAB's address is loaded from */
	if (!have_strtab || !strsz || strsz > MAX_STRTAB || elf_vaddr_offset(e, strtab, &stroff) ||
	    stroff > e->len || strsz > e->len - stroff) {
		rc = -ENOEXEC;
		goto out;
	}
	rc = fill(f, stroff, strsz);
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

/*
 * Open the walker on the file's headers: opened on the ELF header alone, it
 * says where the program headers are (and refuses what is no ELF before
 * anything is allocated); opened on the copy once they are read, it checks
 * them. Sections are not read: a loader reads none.
 */
static int open_headers(struct sparse *f, struct elf *e)
{
	unsigned char head[sizeof(Elf64_Ehdr)];
	size_t n = f->len < sizeof(head) ? f->len : sizeof(head);
	ssize_t got = pread_full(f->fd, head, n, 0);
	int rc;

	if (got < 0)
		return (int)got;
	if ((size_t)got < n)
		return -ENOEXEC;
	elf_open(e, head, n);
	if (e->bad == ELF_NOT_ELF || e->bad == ELF_BAD_IDENT)
		return -ENOEXEC;
	f->buf = mmap(NULL, f->len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (f->buf == MAP_FAILED) {
		f->buf = NULL;
		return -errno;
	}
	memcpy(f->buf, head, n);
	rc = fill(f, e->phoff, (uint64_t)e->phnum * (e->klass == ELFCLASS64 ? sizeof(Elf64_Phdr) :
									    sizeof(Elf32_Phdr)));
	if (!rc)
		rc = elf_open(e, f->buf, f->len);
	/* broken section headers are not the loader's business */
	if (rc && e->bad == ELF_BAD_SHDRS)
		rc = 0;
	return rc;
}

int elf_read_deps(int fd, struct elf_deps *d)
{
	struct sparse f = { .fd = fd };
	struct stat st;
	struct elf e;
	int rc, dyn_read = 0;

	memset(d, 0, sizeof(*d));
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size < EI_NIDENT)
		return -ENOEXEC;
	f.len = (size_t)st.st_size;
	rc = open_headers(&f, &e);
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
				rc = fill(&f, s.offset, s.filesz);
			if (!rc)
				d->interp = xstrndup((const char *)s.data, (size_t)s.filesz);
		} else if (s.type == PT_DYNAMIC && !dyn_read) {
			/* one dynamic section is read: a second would leak the first one's runpath */
			rc = read_dynamic(&f, &e, &s, d);
			dyn_read = 1;
			d->dynamic = 1;
		}
	}
	if (f.buf)
		munmap(f.buf, f.len);
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

int elf_asks_loader(const void *data, size_t len)
{
	struct elf e;
	int rc = elf_open(&e, data, len);

	/* broken section headers are not the loader's business */
	if (rc && e.bad != ELF_BAD_SHDRS)
		return rc;
	for (unsigned int i = 0; i < e.phnum; i++) {
		struct elf_segment s;

		elf_segment(&e, i, &s);
		if (s.type == PT_INTERP)
			return 1;
	}
	return 0;
}

void elf_deps_free(struct elf_deps *d)
{
	free(d->interp);
	strv_free(&d->needed);
	free(d->runpath);
	memset(d, 0, sizeof(*d));
}
