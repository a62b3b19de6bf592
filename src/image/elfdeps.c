// SPDX-License-Identifier: GPL-2.0
/*
 * elfdeps.c: an ELF program's libraries resolved in a sysroot, as ld.so
 * would find them there; the headers are read by elfdyn.c.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfdeps.h"
#include "elfdyn.h"
#include "err.h"

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

/* The guest path of library name in directory dir (malloc'd), or NULL. */
static char *lib_in(const char *sysroot, const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);

	if (exists_in(sysroot, p))
		return p;
	free(p);
	return NULL;
}

/*
 * The guest path of library name for an object at guest path from with run
 * path runpath (NULL: none) (malloc'd), or NULL.
 */
static char *find_lib(const char *sysroot, const char *triplet, const char *runpath,
		      const char *from_path, const char *name)
{
	const char *std[] = { "/lib/%s", "/usr/lib/%s", "/lib", "/usr/lib" };
	char *copy, *save = NULL, *dir, *p = NULL;

	if (strchr(name, '/'))
		return exists_in(sysroot, name) ? xstrdup(name) : NULL;
	/* ':' separates the directories; empty ones are skipped */
	copy = xstrdup(runpath ? runpath : "");
	for (char *r = strtok_r(copy, ":", &save); r && !p; r = strtok_r(NULL, ":", &save)) {
		if (!strncmp(r, "$ORIGIN", 7)) {
			char *origin = xstrdup(from_path), *slash = strrchr(origin, '/');

			*slash = '\0';
			dir = xasprintf("%s%s", origin, r + 7);
			free(origin);
		} else {
			dir = xstrdup(r);
		}
		p = lib_in(sysroot, dir, name);
		free(dir);
	}
	free(copy);
	for (size_t i = 0; i < sizeof(std) / sizeof(std[0]) && !p; i++) {
		dir = xasprintf(std[i], triplet);
		p = lib_in(sysroot, dir, name);
		free(dir);
	}
	return p;
}

int elf_resolve_libs(const char *sysroot, const char *triplet, unsigned int machine,
		     const char *path, struct strv *libs, struct strv *missing)
{
	struct strv todo = STRV_INIT, seen = STRV_INIT;
	int rc = 0;

	strv_push(&todo, path);
	for (size_t i = 0; i < todo.n && !rc; i++) {
		char *full = elf_sysroot_file(sysroot, todo.v[i]);
		struct elf_deps e;

		rc = full ? elf_read_deps_path(full, &e) : -ENOENT;
		free(full);
		if (!rc && e.type != ET_EXEC && e.type != ET_DYN) {
			elf_deps_free(&e);
			rc = -ENOEXEC;	/* an object file or a core dump: no program */
		}
		if (rc == -ENOEXEC && i) {
			rc = 0;	/* a linker script or such among libraries: not ours to judge */
			continue;
		}
		if (rc)
			break;
		if (e.machine != machine) {
			elf_deps_free(&e);
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
			lib = find_lib(sysroot, triplet, e.runpath, todo.v[i], name);
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
		elf_deps_free(&e);
	}
	strv_free(&todo);
	strv_free(&seen);
	return rc;
}
