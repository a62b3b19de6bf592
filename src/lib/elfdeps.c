// SPDX-License-Identifier: GPL-2.0
/* elfdeps.c: DT_NEEDED, DT_RUNPATH and PT_INTERP of an ELF file, resolved in a sysroot. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfdeps.h"
#include "err.h"
#include "io.h"

/* Headers and dynamic sections of programs are small; a huge one is not a program. */
#define ELF_MAX (1ULL << 32)

static int read_at(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -ENOEXEC;
}

/* File offset of virtual address vaddr, through the PT_LOAD segments. */
static int vaddr_off(const Elf64_Phdr *ph, unsigned int n, uint64_t vaddr, uint64_t *off)
{
	for (unsigned int i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && vaddr >= ph[i].p_vaddr &&
		    vaddr - ph[i].p_vaddr < ph[i].p_filesz) {
			*off = ph[i].p_offset + (vaddr - ph[i].p_vaddr);
			return 0;
		}
	return -ENOEXEC;
}

static char *read_str(int fd, uint64_t off, uint64_t size)
{
	char buf[4096];
	ssize_t n;
	size_t len;

	if (size && size < sizeof(buf))
		len = (size_t)size;
	else
		len = sizeof(buf) - 1;
	n = pread(fd, buf, len, (off_t)off);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	if (strnlen(buf, (size_t)n) == (size_t)n)
		return NULL;	/* not terminated within reach */
	return xstrdup(buf);
}

static void split_path(struct strv *sv, const char *s)
{
	char *copy = xstrdup(s), *save = NULL;

	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
		strv_push(sv, d);
	free(copy);
}

static int read_dynamic(int fd, const Elf64_Phdr *ph, unsigned int nph, const Elf64_Phdr *dyn,
			struct elf_info *e)
{
	size_t n = (size_t)(dyn->p_filesz / sizeof(Elf64_Dyn));
	Elf64_Dyn *d;
	uint64_t strtab = 0, strsz = 0, stroff;
	int rc, have_runpath = 0;

	if (dyn->p_filesz > (1 << 20) || !n)
		return -ENOEXEC;
	d = xmalloc(n * sizeof(*d));
	rc = read_at(fd, d, n * sizeof(*d), dyn->p_offset);
	for (size_t i = 0; !rc && i < n && d[i].d_tag != DT_NULL; i++) {
		if (d[i].d_tag == DT_STRTAB)
			strtab = d[i].d_un.d_ptr;
		else if (d[i].d_tag == DT_STRSZ)
			strsz = d[i].d_un.d_val;
	}
	if (!rc && !strtab)
		rc = -ENOEXEC;
	if (!rc)
		rc = vaddr_off(ph, nph, strtab, &stroff);
	for (size_t i = 0; !rc && i < n && d[i].d_tag != DT_NULL; i++) {
		uint64_t v = d[i].d_un.d_val;
		char *s;

		if (d[i].d_tag != DT_NEEDED && d[i].d_tag != DT_RUNPATH && d[i].d_tag != DT_RPATH)
			continue;
		if (v >= strsz) {
			rc = -ENOEXEC;
			break;
		}
		s = read_str(fd, stroff + v, strsz - v);
		if (!s) {
			rc = -ENOEXEC;
			break;
		}
		if (d[i].d_tag == DT_NEEDED) {
			strv_push(&e->needed, s);
		} else if (d[i].d_tag == DT_RUNPATH || !have_runpath) {
			/* DT_RUNPATH wins over DT_RPATH, as in ld.so */
			if (d[i].d_tag == DT_RUNPATH && !have_runpath)
				strv_free(&e->runpath);
			have_runpath |= d[i].d_tag == DT_RUNPATH;
			split_path(&e->runpath, s);
		}
		free(s);
	}
	free(d);
	return rc;
}

int elf_read(const char *path, struct elf_info *e)
{
	Elf64_Ehdr eh;
	Elf64_Phdr *ph = NULL;
	int fd, rc;

	memset(e, 0, sizeof(*e));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = read_at(fd, &eh, sizeof(eh), 0);
	if (!rc && (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
		    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_phentsize != sizeof(Elf64_Phdr)))
		rc = -ENOEXEC;
	if (!rc) {
		e->machine = eh.e_machine;
		ph = xmalloc((size_t)eh.e_phnum * sizeof(*ph) + 1);
		rc = read_at(fd, ph, (size_t)eh.e_phnum * sizeof(*ph), eh.e_phoff);
	}
	for (unsigned int i = 0; !rc && i < eh.e_phnum; i++) {
		if (ph[i].p_type == PT_INTERP && !e->interp) {
			e->interp = read_str(fd, ph[i].p_offset, ph[i].p_filesz);
			if (!e->interp)
				rc = -ENOEXEC;
		} else if (ph[i].p_type == PT_DYNAMIC) {
			rc = read_dynamic(fd, ph, eh.e_phnum, &ph[i], e);
		}
	}
	free(ph);
	close(fd);
	if (rc)
		elf_info_free(e);
	return rc;
}

void elf_info_free(struct elf_info *e)
{
	free(e->interp);
	strv_free(&e->needed);
	strv_free(&e->runpath);
	memset(e, 0, sizeof(*e));
}

char *elf_sysroot_file(const char *sysroot, const char *guest)
{
	char *cur = xstrdup(guest);

	/* as many links as the kernel follows */
	for (int hops = 0; hops < 40; hops++) {
		char *p = xasprintf("%s%s", sysroot, cur), target[4096];
		struct stat st;
		ssize_t n;

		if (lstat(p, &st) < 0) {
			free(p);
			break;
		}
		if (S_ISREG(st.st_mode)) {
			free(cur);
			return p;
		}
		n = S_ISLNK(st.st_mode) ? readlink(p, target, sizeof(target) - 1) : -1;
		free(p);
		if (n <= 0)
			break;
		target[n] = '\0';
		if (target[0] == '/') {
			p = xstrdup(target);
		} else {
			char *slash = strrchr(cur, '/');

			*slash = '\0';
			p = xasprintf("%s/%s", cur, target);
		}
		free(cur);
		cur = p;
	}
	free(cur);
	return NULL;
}

static int exists_in(const char *sysroot, const char *guest)
{
	char *p = elf_sysroot_file(sysroot, guest);

	free(p);
	return p != NULL;
}

/* The guest path of library name for an object at guest path from (malloc'd), or NULL. */
static char *find_lib(const char *sysroot, const char *triplet, const struct elf_info *from,
		      const char *from_path, const char *name)
{
	const char *std[] = { "/lib/%s", "/usr/lib/%s", "/lib", "/usr/lib" };
	char *dir, *p;

	if (strchr(name, '/'))
		return exists_in(sysroot, name) ? xstrdup(name) : NULL;
	for (size_t i = 0; i < from->runpath.n; i++) {
		const char *r = from->runpath.v[i];

		if (!strncmp(r, "$ORIGIN", 7)) {
			char *copy = xstrdup(from_path), *slash = strrchr(copy, '/');

			*slash = '\0';
			dir = xasprintf("%s%s", copy, r + 7);
			free(copy);
		} else {
			dir = xstrdup(r);
		}
		p = xasprintf("%s/%s", dir, name);
		free(dir);
		if (exists_in(sysroot, p))
			return p;
		free(p);
	}
	for (size_t i = 0; i < sizeof(std) / sizeof(std[0]); i++) {
		dir = xasprintf(std[i], triplet);
		p = xasprintf("%s/%s", dir, name);
		free(dir);
		if (exists_in(sysroot, p))
			return p;
		free(p);
	}
	return NULL;
}

int elf_resolve_libs(const char *sysroot, const char *triplet, unsigned int machine,
		     const char *path, struct strv *libs, struct strv *missing)
{
	struct strv todo = STRV_INIT, seen = STRV_INIT;
	int rc = 0;

	strv_push(&todo, path);
	for (size_t i = 0; i < todo.n && !rc; i++) {
		char *full = elf_sysroot_file(sysroot, todo.v[i]);
		struct elf_info e;

		rc = full ? elf_read(full, &e) : -ENOENT;
		free(full);
		if (rc == -ENOEXEC && i) {
			rc = 0;	/* a linker script or such among libraries: not ours to judge */
			continue;
		}
		if (rc)
			break;
		if (e.machine != machine) {
			elf_info_free(&e);
			rc = -EXDEV;
			break;
		}
		if (e.interp && !strv_contains(libs, e.interp)) {
			if (exists_in(sysroot, e.interp))
				strv_push(libs, e.interp);
			else if (!strv_contains(missing, e.interp))
				strv_push(missing, e.interp);
		}
		for (size_t j = 0; j < e.needed.n; j++) {
			const char *name = e.needed.v[j];
			char *lib;

			if (strv_contains(&seen, name))
				continue;
			strv_push(&seen, name);
			lib = find_lib(sysroot, triplet, &e, todo.v[i], name);
			if (!lib) {
				if (!strv_contains(missing, name))
					strv_push(missing, name);
				continue;
			}
			if (!strv_contains(libs, lib)) {
				strv_push(libs, lib);
				strv_push(&todo, lib);
			}
			free(lib);
		}
		elf_info_free(&e);
	}
	strv_free(&todo);
	strv_free(&seen);
	return rc;
}
