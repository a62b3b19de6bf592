// SPDX-License-Identifier: GPL-2.0
/*
 * nolibs.c: whether an image needs the shared libraries dracut copies for
 * its dynamic bash. dracut installs bash with its loader, libc, libtinfo
 * and (for glibc's pthread_cancel) libgcc_s: 2.4 MiB that the kernel
 * unpacks on every boot. Where the static bash takes the dynamic one's
 * place (bash.c) and no other program of the image is dynamic (simple's:
 * busybox, the static helpers), nothing can load them.
 */
#include <errno.h>
#include <string.h>

#include "cut.h"
#include "elfdyn.h"

/* path is a program or library that asks for the dynamic loader; an unreadable one is taken to */
static int is_dynamic(const char *path)
{
	struct elf_deps d;
	int rc = elf_read_deps_path(path, &d), dyn;

	if (rc == -ENOEXEC)
		return 0;	/* a script: its interpreter is a bins entry of its own */
	if (rc)
		return 1;
	dyn = d.interp || d.needed.n;
	elf_deps_free(&d);
	return dyn;
}

int cut_libs_needed(const struct cut_plan *p, const struct strv *tree_libs)
{
	/* a foreign sysroot's bins hold every library by name (check.c): kept as they are */
	if (!p->static_bash || p->sysroot || (tree_libs && tree_libs->n))
		return 1;
	for (size_t i = 0; i < p->bins.n; i++) {
		const char *base = strrchr(p->bins.v[i], '/');

		/* the dynamic bash, which the static one replaces */
		if (base && !strcmp(base, "/bash"))
			continue;
		if (is_dynamic(p->bins.v[i]))
			return 1;
	}
	/* a helper is in its own layer, but may be linked to these (ksmbd-ipc.so) */
	for (size_t i = 0; i < p->helpers.n; i++)
		if (is_dynamic(p->helpers.v[i]))
			return 1;
	return 0;
}

int cut_is_shared_lib(const char *name)
{
	const char *base = strrchr(name, '/'), *so;

	if (!strcmp(name, "etc/ld.so.cache"))
		return 1;
	if (strncmp(name, "usr/lib", 7) && strncmp(name, "lib", 3))
		return 0;
	base = base ? base + 1 : name;
	so = strstr(base, ".so");
	/* libc.so.6, ld-linux-x86-64.so.2, libc.so (a linker script), not a.sock */
	return so && (so[3] == '\0' || (so[3] == '.' && so[4] >= '0' && so[4] <= '9'));
}
