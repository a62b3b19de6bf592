// SPDX-License-Identifier: GPL-2.0
/* setup.c: kernel command line, hostname and loopback for the guest. */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <unistd.h>

#include "err.h"
#include "init.h"
#include "io.h"

void init_cmdline_parse(const char *text, struct init_cmdline *cl)
{
	char *copy = xstrdup(text), *save = NULL;

	memset(cl, 0, sizeof(*cl));
	for (char *w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
		if (!strncmp(w, "rapido.vm=", 10)) {
			char *end;
			unsigned long n = strtoul(w + 10, &end, 10);

			if (!*end && n < 100000)
				cl->vm = (unsigned int)n;
		} else if (!strcmp(w, "rapido.batch=1")) {
			cl->batch = 1;
		} else if (!strncmp(w, "rapido.shares=", 14)) {
			cl->shares = (unsigned int)strtoul(w + 14, NULL, 10);
			if (cl->shares > 16)
				cl->shares = 16;
		} else if (!strncmp(w, "rapido.net=", 11)) {
			free(cl->net);
			cl->net = xstrdup(w + 11);
		}
	}
	free(copy);
}

void init_parse_cmdline(struct init_cmdline *cl)
{
	char *text;

	if (read_file("/proc/cmdline", &text, NULL)) {
		warn_errno("/proc/cmdline");
		memset(cl, 0, sizeof(*cl));
		return;
	}
	init_cmdline_parse(text, cl);
	free(text);
}

void init_set_hostname(unsigned int vm)
{
	char name[32];

	snprintf(name, sizeof(name), "rapido%u", vm);
	if (sethostname(name, strlen(name)) < 0)
		warn_errno("sethostname %s", name);
}

void init_net_up(const struct init_cmdline *cl)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	(void)cl;
	if (fd < 0) {
		warn_errno("socket");
		return;
	}
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
			warn_errno("bring up lo");
	}
	close(fd);
}

void init_mount_shares(const struct init_cmdline *cl)
{
	char *argv[] = { "modprobe", "-a", "virtio_pci", "9pnet_virtio", "9p", NULL };

	if (!cl->shares)
		return;
	/* modules in the Debian kernel; a kernel with them built in has no modprobe need */
	if (access("/usr/sbin/modprobe", X_OK) == 0 || access("/sbin/modprobe", X_OK) == 0)
		init_run(argv);
	for (unsigned int i = 0; i < cl->shares; i++) {
		char tag[24], dir[24];

		snprintf(tag, sizeof(tag), "rapido%u", i);
		if (i)
			snprintf(dir, sizeof(dir), "/host%u", i);
		else
			snprintf(dir, sizeof(dir), "/host");
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			warn_errno("mkdir %s", dir);
		/* msize: 9p's default 8 KiB makes large results slow to write */
		if (mount(tag, dir, "9p", 0, "trans=virtio,version=9p2000.L,msize=262144,cache=none") < 0)
			warn_errno("mount 9p share %s on %s", tag, dir);
	}
}
