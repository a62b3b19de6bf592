// SPDX-License-Identifier: GPL-2.0
/*
 * bash.c: which bash the guest gets (CUT_BASH). Under TCG an exec of
 * Debian's dynamic bash (ld.so, libtinfo, libc) costs about 49 ms, of its
 * static build (package bash-static) 13 ms, and every boot's profile and
 * every bash a suite forks pays it. So the guest's bash is the host's
 * static one when the host has one of the same version as its bash, told
 * static by its ELF (no PT_INTERP), never by its name; else the dynamic
 * bash dracut copies. The bins layer (build.c) swaps the file in.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cut.h"
#include "elfdyn.h"
#include "err.h"
#include "run.h"

int cut_bash_pick(const char *mode, const struct cut_bash_facts *f, char **msg)
{
	int want_static;

	*msg = NULL;
	if (!mode || !strcmp(mode, "auto"))
		want_static = 0;
	else if (!strcmp(mode, "static"))
		want_static = 1;
	else if (!strcmp(mode, "dynamic"))
		return 0;
	else {
		*msg = xstrdup("auto, static or dynamic expected");
		return -EINVAL;
	}
	if (f->foreign) {
		if (want_static)
			*msg = xstrdup("a foreign ARCH's image gets its sysroot's bash");
		return want_static ? -ENOENT : 0;
	}
	if (!f->path) {
		/* Fedora, Arch: no static bash, nothing to say on every cut */
		if (want_static)
			*msg = xstrdup("no bash-static in PATH (apt-get install bash-static)");
		return want_static ? -ENOENT : 0;
	}
	if (f->unfit)
		*msg = xasprintf("%s: %s", f->path, f->unfit);
	else if (!f->static_version || !f->version || strcmp(f->static_version, f->version))
		*msg = xasprintf("%s says '%s', bash says '%s'", f->path,
				 f->static_version ? f->static_version : "(nothing)",
				 f->version ? f->version : "(nothing)");
	if (!*msg)
		return 1;
	if (want_static)
		return -EINVAL;
	/* auto: the dynamic bash, and the caller says why once */
	return 0;
}

static char *version_of(const char *path)
{
	char *argv[] = { (char *)path, "--version", NULL };

	return run_first_line(argv, -1, 10);
}

int cut_bash_resolve(const char *mode, const char *bash, int foreign, char **path, char **msg)
{
	struct cut_bash_facts f = { .foreign = foreign };
	struct elf_deps d = { 0 };
	int rc;

	*path = NULL;
	if (mode && !strcmp(mode, "dynamic"))
		return 0;
	if (!foreign)
		f.path = find_in_path("bash-static");
	if (f.path) {
		rc = elf_read_deps_path(f.path, &d);
		if (rc)
			f.unfit = err_str(rc);
		else if (d.interp)
			f.unfit = "not a static program (it names a loader)";
		elf_deps_free(&d);
	}
	if (f.path && !f.unfit) {
		f.static_version = version_of(f.path);
		f.version = bash ? version_of(bash) : NULL;
	}
	rc = cut_bash_pick(mode, &f, msg);
	if (rc == 1)
		*path = f.path;
	else
		free(f.path);
	free(f.static_version);
	free(f.version);
	return rc;
}
