// SPDX-License-Identifier: GPL-2.0
/* setup.c: kernel command line, hostname and loopback for the guest. */
#include <errno.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <net/route.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <unistd.h>

#include "err.h"
#include "guestmods.h"
#include "init.h"
#include "io.h"
#include "num.h"
#include "pct.h"
#include "protocol.h"

/*
 * v's tty name under /dev into dst (size bytes), "" when it is none:
 * letters and digits only (no '/', no ".."), not too long; up to a ','
 * (a console='s options) where opts
 */
static void tty_name(const char *v, int opts, char *dst, size_t size)
{
	size_t n = strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");

	dst[0] = '\0';
	if (n && (!v[n] || (opts && v[n] == ',')) && n < size) {
		memcpy(dst, v, n);
		dst[n] = '\0';
	}
}

void init_cmdline_parse(const char *text, struct init_cmdline *cl)
{
	char *copy = xstrdup(text), *save = NULL;
	const char *v;

	memset(cl, 0, sizeof(*cl));
	for (char *w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
		if ((v = kparam_value(w, KP_VM))) {
			unsigned int n;

			if (!num_parse_uint(v, 0, 99999, &n, NULL))
				cl->vm = n;
		} else if ((v = kparam_value(w, KP_BATCH))) {
			if (!strcmp(v, "1"))
				cl->batch = 1;
		} else if ((v = kparam_value(w, KP_HVC))) {
			if (!strcmp(v, "1"))
				cl->hvc = 1;
		} else if ((v = kparam_value(w, KP_SHELL))) {
			char shell[sizeof(cl->shell)];

			/* a bad one leaves an earlier good one */
			tty_name(v, 0, shell, sizeof(shell));
			if (*shell)
				memcpy(cl->shell, shell, sizeof(shell));
		} else if ((v = kparam_value(w, "console="))) {
			/*
			 * the kernel's: the last one is /dev/console's tty (the
			 * autorun's controlling tty, run.c); its options after
			 * a ',' and anything but a plain tty name left out
			 */
			tty_name(v, 1, cl->console, sizeof(cl->console));
		} else if ((v = kparam_value(w, KP_SHARES))) {
			/* ./vm passes at most 16; anything else is not ./vm's */
			if (num_parse_uint(v, 0, 16, &cl->shares, NULL))
				cl->shares = 0;
		} else if ((v = kparam_value(w, KP_VIRTIOFS))) {
			if (num_parse_uint(v, 0, 16, &cl->virtiofs, NULL))
				cl->virtiofs = 0;
		} else if ((v = kparam_value(w, KP_RESULTS))) {
			if (!strcmp(v, "1"))
				cl->results = 1;
		} else if ((v = kparam_value(w, KP_STATUS))) {
			snprintf(cl->status_port, sizeof(cl->status_port), "%s", v);
		} else if ((v = kparam_value(w, KP_RERUN))) {
			/* ./vm passes at most 100 (VM_RERUN_FAILURES) */
			if (num_parse_uint(v, 0, 100, &cl->rerun, NULL))
				cl->rerun = 0;
		} else if ((v = kparam_value(w, KP_SHARD))) {
			snprintf(cl->shard, sizeof(cl->shard), "%s", v);
		} else if ((v = kparam_value(w, KP_SERIAL))) {
			if (!strcmp(v, "defer") || !strcmp(v, "only"))
				snprintf(cl->serial, sizeof(cl->serial), "%s", v);
		} else if ((v = kparam_value(w, KP_SERIAL_TEST))) {
			char *name = xstrdup(v), *all;

			/* ./vm escapes blanks and '%' (pct.h): one name, one word */
			pct_unescape_field(name);
			all = cl->serial_tests ? xasprintf("%s\n%s", cl->serial_tests, name) : xstrdup(name);
			free(cl->serial_tests);
			free(name);
			cl->serial_tests = all;
		} else if ((v = kparam_value(w, KP_EXEC))) {
			/* rapido-exec's arguments: NONCE CRC BASE64 (no comma in any) */
			free(cl->exec);
			cl->exec = xstrdup(v);
			for (char *c = cl->exec; (c = strchr(c, ',')); )
				*c = ' ';
		} else if ((v = kparam_value(w, KP_NONCE))) {
			if (status_nonce_valid(v))
				strcpy(cl->nonce, v);
		} else if ((v = kparam_value(w, KP_IP))) {
			if (cl->n_ip < sizeof(cl->ip) / sizeof(cl->ip[0]))
				cl->ip[cl->n_ip++] = xstrdup(v);
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

int init_ip_parse(const char *s, struct init_ip *ip)
{
	char buf[96], *save = NULL, *ifn, *addr, *gw, *slash;
	struct in_addr a;
	unsigned int pfx;

	memset(ip, 0, sizeof(*ip));
	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	ifn = strtok_r(buf, ",", &save);
	addr = strtok_r(NULL, ",", &save);
	gw = strtok_r(NULL, ",", &save);
	if (!ifn || !addr || strtok_r(NULL, ",", &save) || strlen(ifn) >= sizeof(ip->ifname))
		return -EINVAL;
	slash = strchr(addr, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	if (num_parse_uint(slash + 1, 0, 32, &pfx, NULL) || inet_pton(AF_INET, addr, &a) != 1)
		return -EINVAL;
	if (gw && (strlen(gw) >= sizeof(ip->gw) || inet_pton(AF_INET, gw, &a) != 1))
		return -EINVAL;
	strcpy(ip->ifname, ifn);
	strcpy(ip->addr, addr);
	ip->prefix = (unsigned int)pfx;
	if (gw)
		strcpy(ip->gw, gw);
	return 0;
}

static int if_up(int fd, const char *name)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		return -errno;
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		return -errno;
	return 0;
}

static void set_sin(struct sockaddr *sa, const char *addr)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)sa;

	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	inet_pton(AF_INET, addr, &sin->sin_addr);
}

static void configure(int fd, const struct init_ip *ip)
{
	struct ifreq ifr;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;
	int rc = -ENODEV;

	/* virtio_net registers its netdev during modprobe; allow a moment anyway */
	for (int i = 0; i < 50 && rc == -ENODEV; i++) {
		rc = if_up(fd, ip->ifname);
		if (rc == -ENODEV)
			usleep(20000);
	}
	if (rc) {
		warn_err(rc, "bring up %s", ip->ifname);
		return;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ip->ifname);
	set_sin(&ifr.ifr_addr, ip->addr);
	if (ioctl(fd, SIOCSIFADDR, &ifr) < 0)
		warn_errno("set address %s on %s", ip->addr, ip->ifname);
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(ip->prefix ? 0xffffffffu << (32 - ip->prefix) : 0);
	if (ioctl(fd, SIOCSIFNETMASK, &ifr) < 0)
		warn_errno("set netmask /%u on %s", ip->prefix, ip->ifname);
	if (ip->gw[0]) {
		struct rtentry rt;

		memset(&rt, 0, sizeof(rt));
		set_sin(&rt.rt_dst, "0.0.0.0");
		set_sin(&rt.rt_genmask, "0.0.0.0");
		set_sin(&rt.rt_gateway, ip->gw);
		rt.rt_flags = RTF_UP | RTF_GATEWAY;
		if (ioctl(fd, SIOCADDRT, &rt) < 0)
			warn_errno("default route via %s", ip->gw);
	}
}

void init_net_up(const struct init_cmdline *cl)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		warn_errno("socket");
		return;
	}
	if (if_up(fd, "lo"))
		warn_errno("bring up lo");
	if (cl->n_ip)
		init_modprobe(guestmods_net, 0);
	for (unsigned int i = 0; i < cl->n_ip; i++) {
		struct init_ip ip;

		if (init_ip_parse(cl->ip[i], &ip)) {
			warn("bad " KP_IP "%s (expected IFACE,ADDR/PREFIX[,GATEWAY])", cl->ip[i]);
			continue;
		}
		configure(fd, &ip);
	}
	close(fd);
}

void init_mount_shares(const struct init_cmdline *cl)
{
	/* virtiofs tags: the module only; the profile mounts them (fstests_virtiofs, hostfs) */
	if (cl->virtiofs)
		init_modprobe(guestmods_virtiofs, 0);
	if (!cl->shares)
		return;
	/* modules in the Debian kernel */
	init_modprobe(guestmods_share, 0);
	for (unsigned int i = 0; i < cl->shares; i++) {
		char tag[24], dir[24];

		snprintf(tag, sizeof(tag), PORT_SHARE_TAG "%u", i);
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
