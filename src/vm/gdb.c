// SPDX-License-Identifier: GPL-2.0
/*
 * gdb.c: --gdb[=HOST:PORT], the gdb stub: on loopback unless a host is
 * given (a debug port is root on the guest), port 1233+N for VM N unless
 * given, checked free before qemu starts, KASLR off (gdb needs the
 * addresses of vmlinux and System.map), and the exact gdb command with the
 * vmlinux that has the symbols.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "devices.h"
#include "err.h"
#include "lookup.h"
#include "qopt.h"
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

static void gdb_start(const struct vm_launch *l)
{
	const struct vm_settings *s = l->s;
	char *tree, *vmlinux, *py = NULL;

	if (!s->gdb)
		return;
	vmlinux = find_vmlinux(&s->im, &tree);
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

static void gdb_resolve(struct vm_settings *s, struct vm_opts *o, const struct conf *c)
{
	(void)c;
	if (o->gdb) {
		s->gdb = 1;
		s->gdb_wait = o->gdb_wait;
		if (!*o->gdb)
			s->gdb_host = xstrdup("127.0.0.1");
		else
			vm_hostport_or_die("--gdb", o->gdb, &s->gdb_host, &s->gdb_port);
	} else if (o->gdb_wait) {
		die("--gdb-wait needs --gdb");
	}
}

static void gdb_plan(struct vm_launch *l)
{
	l->gdb_port = l->s->gdb_port ? l->s->gdb_port : 1233 + l->vm;
}

static void gdb_argv(const struct vm_launch *l, struct strv *argv)
{
	const struct vm_settings *s = l->s;
	char *host;

	if (!s->gdb)
		return;
	host = qopt(s->gdb_host);
	strv_push(argv, "-gdb");
	strv_pushf(argv, "tcp:%s:%u", host, l->gdb_port);
	if (s->gdb_wait)
		strv_push(argv, "-S");
	free(host);
}

static void gdb_kparams(const struct vm_launch *l, struct strv *k)
{
	if (l->s->gdb)
		strv_push(k, "nokaslr");
}

static void gdb_free(struct vm_settings *s, struct vm_launch *l)
{
	(void)l;
	if (s)
		free(s->gdb_host);
}

const struct vm_device vm_dev_gdb = {
	.name = "gdb",
	.resolve = gdb_resolve,
	.plan = gdb_plan,
	.start = gdb_start,
	.argv = gdb_argv,
	.kparams = gdb_kparams,
	.free = gdb_free,
};
