// SPDX-License-Identifier: GPL-2.0
/*
 * modload.c: load modules the way modprobe -a does (pre softdeps,
 * dependencies, the module, post softdeps; moddep.h), with finit_module(2)
 * from PID 1 itself. Under TCG every modprobe run costs ~0.1 s before it
 * loads anything (a dynamic kmod linked with libcrypto, its indexes), and a
 * boot ran three of them. Where the image holds what this does not read (a
 * modprobe.d, compressed modules) modprobe does the loading, as before.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "err.h"
#include "init.h"
#include "moddep.h"
#include "mono.h"

static struct moddep deps;
static char *moddir;
static int state;	/* 0: not read, 1: ours to load, -1: modprobe's */

/* A modprobe.d of any kind may set options, aliases or install commands we do not read. */
static int has_modprobe_conf(void)
{
	static const char *const dirs[] = { "/etc/modprobe.d", "/run/modprobe.d",
					    "/usr/lib/modprobe.d", "/lib/modprobe.d",
					    "/usr/local/lib/modprobe.d" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *de;
		int any = 0;

		if (!d)
			continue;
		while (!any && (de = readdir(d)))
			any = de->d_name[0] != '.';
		closedir(d);
		if (any)
			return 1;
	}
	return access("/etc/modprobe.conf", F_OK) == 0;
}

static void read_deps(void)
{
	struct utsname u;
	int rc;

	state = -1;
	if (uname(&u) < 0 || has_modprobe_conf())
		return;
	moddir = xasprintf("/lib/modules/%s", u.release);
	rc = moddep_read(&deps, moddir);
	if (rc) {
		if (rc != -ENOENT)
			warn_err(rc, "%s/modules.dep", moddir);
		return;
	}
	for (size_t i = 0; i < deps.n; i++) {
		size_t l = strlen(deps.v[i].path);

		if (l < 3 || strcmp(deps.v[i].path + l - 3, ".ko"))
			return;	/* compressed: the kernel may not decompress it itself */
	}
	state = 1;
}

static int load_one(const struct moddep_mod *m)
{
	char *path = xasprintf("%s/%s", moddir, m->path);
	long long start = mono_ms();
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

	if (fd < 0) {
		warn_errno("%s", path);
		free(path);
		return 1;
	}
	/* glibc has no wrapper for it */
	if (syscall(SYS_finit_module, fd, "", 0) < 0 && errno != EEXIST) {
		warn_errno("loading module %s (%s)", m->name, path);
		rc = 1;
	} else {
		init_trace("module %s %lld ms\n", m->name, mono_ms() - start);
	}
	close(fd);
	free(path);
	return rc;
}

/* modprobe -a [-q] NAMES, as before this file: for an image we cannot load ourselves */
static int run_modprobe(const char *const *names, size_t n, int quiet)
{
	char **argv = xcalloc(n + 4, sizeof(*argv));
	size_t k = 0;
	int status;

	argv[k++] = "modprobe";
	argv[k++] = "-a";
	if (quiet)
		argv[k++] = "-q";
	for (size_t i = 0; i < n; i++)
		argv[k++] = (char *)names[i];
	status = init_run(argv);
	free(argv);
	return status;
}

int init_load_modules(const char *const *names, size_t n, int quiet)
{
	struct strv missing = STRV_INIT;
	size_t *order = NULL, norder = 0;
	int failed = 0;

	if (!n)
		return 0;
	if (!state)
		read_deps();
	if (state < 0) {
		/* a kernel with everything built in needs no modprobe, and an image may lack it */
		if (access("/usr/sbin/modprobe", X_OK) < 0 && access("/sbin/modprobe", X_OK) < 0)
			return 0;
		return run_modprobe(names, n, quiet);
	}
	moddep_walk(&deps, names, n, &order, &norder, &missing);
	for (size_t i = 0; i < norder; i++)
		failed |= load_one(&deps.v[order[i]]);
	for (size_t i = 0; !quiet && i < missing.n; i++)
		warn("module %s not found in %s", missing.v[i], moddir);
	failed |= !quiet && missing.n;
	free(order);
	strv_free(&missing);
	return failed;
}

int init_modprobe(const char *const mods[], int quiet)
{
	size_t n = 0;

	while (mods[n])
		n++;
	return init_load_modules(mods, n, quiet);
}
