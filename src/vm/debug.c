// SPDX-License-Identifier: GPL-2.0
/*
 * debug.c: debugging a guest from the host: the gdb stub (a free port,
 * and the exact gdb command with the vmlinux that has the symbols) and the
 * names of the memory dumps a panic leaves (vmN.vmcore, older ones rotated
 * to vmN.vmcore.1 .. .K-1).
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "err.h"
#include "vm.h"

/* qemu would fail later with a terse message; say which port and why now */
static void port_free_or_die(const char *host, unsigned int port)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE };
	struct addrinfo *res;
	char svc[16];
	int rc, fd;

	snprintf(svc, sizeof(svc), "%u", port);
	rc = getaddrinfo(host, svc, &hints, &res);
	if (rc)
		die("--gdb: cannot resolve '%s': %s", host, gai_strerror(rc));
	fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, res->ai_protocol);
	if (fd < 0)
		die_errno("--gdb: socket");
	/* qemu sets SO_REUSEADDR too: a port in TIME_WAIT is not "in use" to it */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &(int){ 1 }, sizeof(int));
	if (bind(fd, res->ai_addr, res->ai_addrlen) < 0) {
		int err = errno;

		close(fd);
		freeaddrinfo(res);
		if (err == EADDRINUSE)
			die("--gdb: port %u on %s is in use (pick another with --gdb=%s:PORT)", port,
			    host, host);
		die_err(-err, "--gdb: cannot listen on %s:%u", host, port);
	}
	close(fd);
	freeaddrinfo(res);
}

/* The vmlinux with symbols for the image's kernel, or NULL; *tree set for a built tree. */
static char *find_vmlinux(const struct vm_image *im, char **tree)
{
	/* "/arch/x86/boot/bzImage": the image's architecture's image in a built tree */
	char *suffix = xasprintf("/%s", im->arch->kernel_image);
	size_t n = strlen(im->kernel), sn = strlen(suffix);
	char *p;

	*tree = NULL;
	if (n > sn && !strcmp(im->kernel + n - sn, suffix))
		*tree = xstrndup(im->kernel, n - sn);
	free(suffix);
	if (*tree) {
		p = xasprintf("%s/vmlinux", *tree);
		if (access(p, R_OK) == 0)
			return p;
		free(p);
	}
	/* Debian's linux-image-REL-dbg */
	p = xasprintf("/usr/lib/debug/boot/vmlinux-%s", im->release);
	if (access(p, R_OK) == 0)
		return p;
	free(p);
	return NULL;
}

void vm_gdb_prepare_or_die(const struct vm_launch *l)
{
	const struct vm_settings *s = l->s;
	char *tree, *vmlinux = find_vmlinux(&s->im, &tree), *py = NULL;

	port_free_or_die(s->gdb_host, l->gdb_port);
	if (tree) {
		py = xasprintf("%s/vmlinux-gdb.py", tree);
		if (access(py, R_OK) < 0) {
			free(py);
			py = NULL;
		}
	}
	/*
	 * gdb only auto-loads the tree's vmlinux-gdb.py (lx-symbols and the
	 * other lx- commands) from a safe path: the command says which.
	 */
	fprintf(stderr, "vm: gdb stub for vm%u on %s:%u (KASLR off)%s; attach with:\n"
		"  gdb%s%s%s%s%s -ex 'target remote %s:%u'%s\n", l->vm, s->gdb_host, l->gdb_port,
		s->gdb_wait ? ", the CPUs wait for gdb's 'continue'" : "",
		py ? " -iex 'add-auto-load-safe-path " : "", py ? tree : "", py ? "'" : "",
		vmlinux ? " " : "", vmlinux ? vmlinux : "", s->gdb_host, l->gdb_port,
		py ? " -ex 'lx-symbols'" : "");
	if (!vmlinux)
		fprintf(stderr, "vm: no vmlinux with symbols for %s: neither KERNEL_SRC's vmlinux nor "
			"/usr/lib/debug/boot/vmlinux-%s (Debian's linux-image-%s-dbg); gdb sees "
			"addresses only (System.map helps: KASLR is off)\n", s->im.release,
			s->im.release, s->im.release);
	else if (tree && !py)
		fprintf(stderr, "vm: %s has no vmlinux-gdb.py (CONFIG_GDB_SCRIPTS, 'make scripts_gdb') "
			"for lx-symbols\n", tree);
	free(py);
	free(tree);
	free(vmlinux);
}

char *vm_vmcore_path(const struct vm_settings *s, unsigned int vm)
{
	char *path = xasprintf("%s/vm%u.vmcore", s->state_dir, vm);

	/* vmN.vmcore.(K-2) -> .(K-1), ..., vmN.vmcore -> .1; the oldest is dropped */
	for (unsigned int i = s->vmcore_keep - 1; i > 0; i--) {
		char *from = i > 1 ? xasprintf("%s.%u", path, i - 1) : xstrdup(path);
		char *to = xasprintf("%s.%u", path, i);

		if (rename(from, to) < 0 && errno != ENOENT)
			warn_errno("rename %s to %s", from, to);
		free(from);
		free(to);
	}
	if (unlink(path) < 0 && errno != ENOENT)
		warn_errno("%s", path);
	/* older dumps beyond the limit (it may have been lowered) */
	for (unsigned int i = s->vmcore_keep ? s->vmcore_keep : 1;; i++) {
		char *old = xasprintf("%s.%u", path, i);
		int gone = unlink(old) < 0 && errno == ENOENT;

		free(old);
		if (gone)
			break;
	}
	return path;
}
