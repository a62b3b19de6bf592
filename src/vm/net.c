// SPDX-License-Identifier: GPL-2.0
/*
 * net.c: the VM's network interfaces. eth0 is the main network, either a
 * TAP on the rapido bridge (root sets it up once with ./netsetup) or qemu's
 * user-mode network (no root; host ports forwarded to the guest). Then one
 * NIC per VM-to-VM link over a qemu socket netdev (one VM listens, another
 * connects; no root, no host interface). Each NIC gets a stable MAC from
 * the VM number, and the guest init is told its address on the kernel
 * command line (rapido.ip=IFACE,ADDR/PREFIX[,GATEWAY]) since the Debian
 * kernel has no ip= autoconfiguration.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

#include "devices.h"
#include "err.h"
#include "ifname.h"
#include "lookup.h"
#include "netaddr.h"
#include "num.h"
#include "rapido.h"
#include "vm.h"

/* The guest address for NIC eth<nic>: VM<N>_IP[<nic>], else host `host` of net. */
static void guest_addr(const struct vm_settings *s, unsigned int vm, const struct ipv4_prefix *net,
		       const struct vm_src *net_src, unsigned int host, unsigned int nic,
		       struct strv *kparams)
{
	struct ipv4_prefix addr;
	char buf[32], where[512];
	size_t i;

	for (i = 0; i < s->n_ips; i++)
		if (s->ips[i].vm == vm && s->ips[i].nic == nic)
			break;
	if (i < s->n_ips) {
		addr = s->ips[i].addr;
	} else if (ipv4_prefix_host(net, host, &addr)) {
		ipv4_prefix_format(net, buf, sizeof(buf));
		die("%s: the network %s has no room for VM %u's address (host %u)",
		    vm_src_str(net_src, where, sizeof(where)), buf, vm, host);
	}
	ipv4_prefix_format(&addr, buf, sizeof(buf));
	strv_pushf(kparams, "rapido.ip=eth%u,%s", nic, buf);
}

static void tap_check_or_die(const char *tap)
{
	char *p = xasprintf("/sys/class/net/%s", tap);
	char *flags = xasprintf("/sys/class/net/%s/tun_flags", tap);

	if (!ifname_valid(tap))
		die("TAP device name '%s' is not a valid interface name (" IFNAME_RULE ")", tap);
	if (access(p, F_OK) < 0)
		die("TAP device %s does not exist (create it with './netsetup up' as root, "
		    "inside the VM's network namespace if it runs in one)", tap);
	if (access(flags, F_OK) < 0)
		die("%s is not a TAP device", tap);
	free(p);
	free(flags);
}

static void push_nic(struct strv *args, unsigned int vm, unsigned int nic)
{
	char mac[32];

	vm_mac(vm, nic, mac, sizeof(mac));
	strv_push(args, "-device");
	strv_pushf(args, "virtio-net-pci,netdev=net%u,mac=%s", nic, mac);
}

/* --tap, else TAP_DEVS' entry for this VM, else the name ./netsetup gives it */
static char *tap_name(const struct vm_settings *s, unsigned int vm)
{
	char where[512];

	if (s->tap)
		return xstrdup(s->tap);
	if (!s->tap_devs.n)
		return xasprintf("rapido-tap%u", vm);
	if (vm > s->tap_devs.n)
		die("no TAP device for vm%u: %s lists %zu (add one, or use --tap NAME)", vm,
		    vm_src_str(&s->tap_devs_src, where, sizeof(where)), s->tap_devs.n);
	return xstrdup(s->tap_devs.v[vm - 1]);
}

void vm_net_plan(const struct vm_settings *s, unsigned int vm, struct strv *args,
		 struct strv *kparams)
{
	unsigned int nic = 0;

	if (s->net == NET_TAP) {
		char *tap = tap_name(s, vm);

		tap_check_or_die(tap);
		strv_push(args, "-netdev");
		strv_pushf(args, "tap,id=net%u,ifname=%s,script=no,downscript=no", nic, tap);
		push_nic(args, vm, nic);
		guest_addr(s, vm, &s->br_net, &s->br_net_src, 100 + vm, nic, kparams);
		free(tap);
		nic++;
	} else if (s->net == NET_USER) {
		char *netdev = xasprintf("user,id=net%u,net=10.0.2.0/24", nic);

		for (size_t i = 0; i < s->hostfwd.n; i++) {
			char *n = xasprintf("%s,hostfwd=%s", netdev, s->hostfwd.v[i]);

			free(netdev);
			netdev = n;
		}
		strv_push(args, "-netdev");
		strv_push(args, netdev);
		push_nic(args, vm, nic);
		/* slirp's fixed plan: guest .15, gateway .2, DNS .3 */
		strv_pushf(kparams, "rapido.ip=eth%u,10.0.2.15/24,10.0.2.2", nic);
		free(netdev);
		nic++;
	}

	for (size_t i = 0; i < s->n_links; i++) {
		const struct vm_link *l = &s->links[i];

		strv_push(args, "-netdev");
		strv_pushf(args, "socket,id=net%u,%s=%s", nic, l->listen ? "listen" : "connect",
			   l->hostport);
		push_nic(args, vm, nic);
		guest_addr(s, vm, &s->link_net, &s->link_net_src, vm, nic, kparams);
		nic++;
	}
}

/* VM<n>_IP or VM<n>_IP<m>: 0 and the numbers, or -1 */
static int ip_key(const char *key, unsigned int *vm, unsigned int *nic)
{
	size_t digits;
	char num[16];

	/* "VM" first: a shorter name (the environment's "_") has no key + 2 */
	if (strncmp(key, "VM", 2))
		return -1;
	digits = strspn(key + 2, "0123456789");
	if (!digits || digits >= sizeof(num) || strncmp(key + 2 + digits, "_IP", 3))
		return -1;
	memcpy(num, key + 2, digits);
	num[digits] = '\0';
	if (num_parse_uint(num, 1, 100000, vm, NULL))
		return -1;
	*nic = 0;
	if (key[5 + digits] && num_parse_uint(key + 5 + digits, 0, 63, nic, NULL))
		return -1;
	return 0;
}

static void add_static_ip(struct vm_settings *s, const struct conf *c, const char *key)
{
	struct vm_static_ip ip;
	struct vm_src src;
	struct conf_value v;

	if (ip_key(key, &ip.vm, &ip.nic))
		return;
	for (size_t i = 0; i < s->n_ips; i++)
		if (s->ips[i].vm == ip.vm && s->ips[i].nic == ip.nic)
			return;		/* the environment and the file name it once */
	if (!vm_setting(c, NULL, NULL, key, &src, &v))
		return;
	ip.addr = v.addr;
	s->ips = xrealloc(s->ips, (s->n_ips + 1) * sizeof(*s->ips));
	s->ips[s->n_ips++] = ip;
}

static void net_resolve(struct vm_settings *s, struct vm_opts *o, const struct conf *c)
{
	struct conf_value cv;
	const char *v;

	vm_opt_setting(c, o, "NET", &s->net_src, &cv);
	v = cv.word;
	/* unset: what the other options ask for, else the table's default */
	if (s->net_src.kind == SRC_DEFAULT && (o->tap || o->hostfwd.n))
		v = o->tap ? "tap" : "user";
	s->net = !strcmp(v, "tap") ? NET_TAP : !strcmp(v, "user") ? NET_USER : NET_NONE;

	s->tap = o->tap;
	if (s->tap && !ifname_valid(s->tap))
		die("--tap: '%s' is not a valid interface name (" IFNAME_RULE ")", s->tap);
	/* unset: VM N takes rapido-tapN (net.c), past the two ./netsetup makes by default */
	v = vm_setting(c, NULL, NULL, "TAP_DEVS", &s->tap_devs_src, &cv);
	if (s->tap_devs_src.kind != SRC_DEFAULT) {
		char *err, where[512];

		if (tap_devs_parse(v, &s->tap_devs, &err))
			die("%s: %s", vm_src_str(&s->tap_devs_src, where, sizeof(where)), err);
	}

	if (o->hostfwd.n) {
		s->hostfwd = o->hostfwd;
		o->hostfwd = (struct strv)STRV_INIT;
	} else if (s->net == NET_USER) {
		vm_split(c, "USER_HOSTFWD", &s->hostfwd);
	}
	for (size_t i = 0; i < s->hostfwd.n; i++)
		/* tcp:127.0.0.1:2222-:22, as qemu's hostfwd= */
		if (strchr(s->hostfwd.v[i], ',') || !strchr(s->hostfwd.v[i], '-'))
			die("port forward '%s': expected [tcp|udp]:[HOSTADDR]:HOSTPORT-[GUESTADDR]:GUESTPORT",
			    s->hostfwd.v[i]);

	vm_setting(c, NULL, NULL, "BR_ADDR", &s->br_net_src, &cv);
	s->br_net = cv.addr;
	vm_setting(c, NULL, NULL, "LINK_SUBNET", &s->link_net_src, &cv);
	s->link_net = cv.addr;

	/* every VM<n>_IP[<m>], the environment's first (it wins), checked now */
	for (char **e = environ; c->env_override && *e; e++) {
		char *key = xstrndup(*e, strcspn(*e, "="));

		add_static_ip(s, c, key);
		free(key);
	}
	for (size_t i = 0; i < c->n; i++)
		add_static_ip(s, c, c->e[i].key);

	s->links = xcalloc(o->n_links ? o->n_links : 1, sizeof(*s->links));
	for (size_t i = 0; i < o->n_links; i++) {
		struct vm_link *l = &s->links[s->n_links++];
		unsigned int port;
		char *host;

		l->listen = o->links[i].listen;
		l->hostport = xstrdup(o->links[i].hostport);
		vm_hostport_or_die(l->listen ? "--link-listen" : "--link-connect", l->hostport, &host, &port);
		free(host);
	}
}

static void net_plan(struct vm_launch *l)
{
	vm_net_plan(l->s, l->vm, &l->net_args, &l->net_kparams);
}

/* NICs before the user's extra arguments, which may refer to them */
static void net_argv(const struct vm_launch *l, struct strv *argv)
{
	strv_push_all(argv, &l->net_args);
}

static void net_kparams(const struct vm_launch *l, struct strv *k)
{
	strv_push_all(k, &l->net_kparams);
}

static void net_free(struct vm_settings *s, struct vm_launch *l)
{
	if (l) {
		strv_free(&l->net_args);
		strv_free(&l->net_kparams);
	}
	if (!s)
		return;
	strv_free(&s->tap_devs);
	strv_free(&s->hostfwd);
	free(s->ips);
	for (size_t i = 0; i < s->n_links; i++)
		free((char *)s->links[i].hostport);
	free(s->links);
}

const struct vm_device vm_dev_net = {
	.name = "net",
	.resolve = net_resolve,
	.plan = net_plan,
	.argv = net_argv,
	.kparams = net_kparams,
	.free = net_free,
};
