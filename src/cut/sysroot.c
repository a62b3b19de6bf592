// SPDX-License-Identifier: GPL-2.0
/*
 * sysroot.c: a foreign architecture's programs for the image come from its
 * sysroot (host/sysroot unpacks Debian's packages there). A program or
 * library that is missing is named with the Debian package that has it on
 * this host, which is the one to unpack for the guest's architecture.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cut.h"
#include "elfdeps.h"
#include "err.h"
#include "io.h"
#include "run.h"

/* Where a guest's PATH finds programs, in the order dracut searches. */
static const char *const guest_path[] = { "/usr/sbin", "/usr/bin", "/sbin", "/bin" };

char *cut_sysroot_find(const struct cut_plan *p, const char *name)
{
	char *host;

	if (name[0] == '/') {
		host = elf_sysroot_file(p->sysroot, name);
		free(host);
		return host ? xstrdup(name) : NULL;
	}
	for (size_t i = 0; i < sizeof(guest_path) / sizeof(guest_path[0]); i++) {
		char *guest = xasprintf("%s/%s", guest_path[i], name);

		host = elf_sysroot_file(p->sysroot, guest);
		if (host) {
			free(host);
			return guest;
		}
		free(guest);
	}
	return NULL;
}

/*
 * The Debian package that has a file matching the glob pattern on this
 * host (dpkg-query -S), without its ":arch"; NULL if none does.
 */
static char *host_package(const char *pattern)
{
	char *argv[] = { "dpkg-query", "-S", (char *)pattern, NULL };
	char *text = NULL, *pkg = NULL;
	int fd = memfd_create("dpkg-query", MFD_CLOEXEC), st;
	off_t len;

	if (fd < 0)
		return NULL;
	st = run_wait(argv, fd);
	len = lseek(fd, 0, SEEK_CUR);
	if (st >= 0 && WIFEXITED(st) && !WEXITSTATUS(st) && len > 0 && len < (1 << 20)) {
		text = xmalloc((size_t)len + 1);
		if (pread(fd, text, (size_t)len, 0) == len) {
			text[len] = '\0';
			/* "coreutils: /bin/uname"; "diversion by ..." lines are not owners */
			for (char *line = text; line && *line && !pkg;) {
				char *nl = strchr(line, '\n'), *end;

				if (nl)
					*nl = '\0';
				end = strpbrk(line, ":,");
				if (strncmp(line, "diversion ", 10) && end && end > line) {
					*end = '\0';
					pkg = xstrdup(line);
				}
				line = nl ? nl + 1 : NULL;
			}
		}
		free(text);
	}
	close(fd);
	return pkg;
}

static char *fetch_hint(const struct cut_plan *p, const char *pkg)
{
	if (pkg)
		return xasprintf("Debian package %s has it: host/sysroot %s %s %s", pkg, p->arch->name,
				 p->sysroot, pkg);
	return xasprintf("find its Debian package (apt-file search), then host/sysroot %s %s PACKAGE",
			 p->arch->name, p->sysroot);
}

char *cut_sysroot_bin_hint(const struct cut_plan *p, const char *name)
{
	char *pattern = name[0] == '/' ? xstrdup(name) : xasprintf("*bin/%s", name);
	char *pkg = host_package(pattern), *hint = fetch_hint(p, pkg);

	free(pattern);
	free(pkg);
	return hint;
}

int cut_sysroot_libs(struct cut_plan *p, const char *guest, const char *what, char **err)
{
	struct strv missing = STRV_INIT;
	int rc = elf_resolve_libs(p->sysroot, p->arch->triplet, p->arch->elf_machine, guest,
				  &p->bins, &missing);

	*err = NULL;
	if (rc == -ENOEXEC) {
		rc = 0;	/* a script: its interpreter is a bins entry of its own */
	} else if (rc == -EXDEV) {
		*err = xasprintf("%s%s: %s is not an %s program (its package was unpacked for another "
				 "architecture?)", p->sysroot, guest, what, p->arch->name);
	} else if (rc) {
		*err = xasprintf("%s%s: %s: %s", p->sysroot, guest, what, strerror(-rc));
	} else if (missing.n) {
		char *pattern = xasprintf("*/%s", strrchr(missing.v[0], '/') ?
					  strrchr(missing.v[0], '/') + 1 : missing.v[0]);
		char *pkg = host_package(pattern), *hint = fetch_hint(p, pkg);

		*err = xasprintf("%s %s needs the library %s, which is not in the %s sysroot %s (%s)",
				 what, guest, missing.v[0], p->arch->name, p->sysroot, hint);
		free(hint);
		free(pkg);
		free(pattern);
		rc = -ENOENT;
	}
	strv_free(&missing);
	return rc;
}
