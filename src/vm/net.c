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

#include "err.h"
#include "netaddr.h"
#include "shwords.h"
#include "vm.h"

static const char *where(const struct conf *c, const char *key)
{
	static char buf[512];

	snprintf(buf, sizeof(buf), "%s: %s", conf_origin(c, key), key);
	return buf;
}

static void prefix_or_die(const struct conf *c, const char *key, const char *def,
			  struct ipv4_prefix *p)
{
	const char *v = conf_get(c, key);

	if (!v || !*v)
		v = def;
	if (ipv4_prefix_parse(v, p))
		die("%s: expected an IPv4 address with prefix length such as %s, got '%s'",
		    where(c, key), def, v);
}

/* The guest address for NIC eth<nic>: VM<N>_IP[<nic>] or host 100+N (bridge) / N (links). */
static void guest_addr(const struct conf *c, unsigned int vm, const char *key_net,
		       const char *def_net, unsigned int host, unsigned int nic, struct strv *kparams,
		       const char *gw)
{
	struct ipv4_prefix net, addr;
	char *key = nic ? xasprintf("VM%u_IP%u", vm, nic) : xasprintf("VM%u_IP", vm);
	const char *v = conf_get(c, key);
	char buf[32];

	if (v && *v) {
		if (ipv4_prefix_parse(v, &addr))
			die("%s: expected an IPv4 address with prefix length such as 192.168.155.7/24, got '%s'",
			    where(c, key), v);
	} else {
		prefix_or_die(c, key_net, def_net, &net);
		if (ipv4_prefix_host(&net, host, &addr))
			die("%s: the network %s has no room for VM %u's address (host %u)",
			    where(c, key_net), conf_get(c, key_net) ? conf_get(c, key_net) : def_net,
			    vm, host);
	}
	ipv4_prefix_format(&addr, buf, sizeof(buf));
	if (gw)
		strv_pushf(kparams, "rapido.ip=eth%u,%s,%s", nic, buf, gw);
	else
		strv_pushf(kparams, "rapido.ip=eth%u,%s", nic, buf);
	free(key);
}

static void tap_check_or_die(const char *tap)
{
	char *p = xasprintf("/sys/class/net/%s", tap);
	char *flags = xasprintf("/sys/class/net/%s/tun_flags", tap);

	if (strlen(tap) >= 16 || strchr(tap, '/') || strchr(tap, ','))
		die("TAP device name '%s' is not a valid interface name", tap);
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

static void hostport_or_die(const char *opt, const char *v)
{
	const char *colon = strrchr(v, ':');
	char *end;
	unsigned long port;

	if (!colon || colon == v)
		die("%s: expected HOST:PORT such as 127.0.0.1:5555, got '%s'", opt, v);
	port = strtoul(colon + 1, &end, 10);
	if (*end || !colon[1] || port == 0 || port > 65535)
		die("%s: bad port in '%s'", opt, v);
	if (strchr(v, ','))
		die("%s: '%s' contains a comma", opt, v);
}

void vm_net_plan(const struct conf *c, const struct vm_opts *o, unsigned int vm,
		 struct strv *args, struct strv *kparams)
{
	const char *mode = o->net ? o->net : conf_get(c, "NET");
	unsigned int nic = 0;

	if (!mode || !*mode)
		mode = o->tap ? "tap" : o->hostfwd.n ? "user" : "none";
	if (!strcmp(mode, "tap")) {
		struct strv taps = STRV_INIT;
		const char *tap = o->tap;
		char *err;

		if (!tap) {
			const char *v = conf_get(c, "TAP_DEVS");

			if (!v || !*v) {
				/* the default names ./netsetup creates */
				strv_pushf(&taps, "rapido-tap%u", vm);
				tap = taps.v[0];
			} else {
				if (shwords_split(v, &taps, &err))
					die("%s: %s", where(c, "TAP_DEVS"), err);
				if (vm > taps.n)
					die("no TAP device for vm%u: %s lists %zu (add one, or use --tap NAME)",
					    vm, where(c, "TAP_DEVS"), taps.n);
				tap = taps.v[vm - 1];
			}
		}
		tap_check_or_die(tap);
		strv_push(args, "-netdev");
		strv_pushf(args, "tap,id=net%u,ifname=%s,script=no,downscript=no", nic, tap);
		push_nic(args, vm, nic);
		guest_addr(c, vm, "BR_ADDR", "192.168.155.1/24", 100 + vm, nic, kparams, NULL);
		strv_free(&taps);
		nic++;
	} else if (!strcmp(mode, "user")) {
		struct strv fwd = STRV_INIT;
		char *err, *netdev;
		const char *v = conf_get(c, "USER_HOSTFWD");

		if (!o->hostfwd.n && v && shwords_split(v, &fwd, &err))
			die("%s: %s", where(c, "USER_HOSTFWD"), err);
		strv_push_all(&fwd, &o->hostfwd);
		netdev = xasprintf("user,id=net%u,net=10.0.2.0/24", nic);
		for (size_t i = 0; i < fwd.n; i++) {
			char *n;

			/* tcp:127.0.0.1:2222-:22, as qemu's hostfwd= */
			if (strchr(fwd.v[i], ',') || !strchr(fwd.v[i], '-'))
				die("port forward '%s': expected [tcp|udp]:[HOSTADDR]:HOSTPORT-[GUESTADDR]:GUESTPORT",
				    fwd.v[i]);
			n = xasprintf("%s,hostfwd=%s", netdev, fwd.v[i]);
			free(netdev);
			netdev = n;
		}
		strv_push(args, "-netdev");
		strv_push(args, netdev);
		push_nic(args, vm, nic);
		/* slirp's fixed plan: guest .15, gateway .2, DNS .3 */
		strv_pushf(kparams, "rapido.ip=eth%u,10.0.2.15/24,10.0.2.2", nic);
		free(netdev);
		strv_free(&fwd);
		nic++;
	} else if (strcmp(mode, "none")) {
		die("%s: expected tap, user or none, got '%s'", o->net ? "--net" : where(c, "NET"), mode);
	}

	for (size_t i = 0; i < o->links.n; i++) {
		const char *l = o->links.v[i];
		int listen = l[0] == 'L';

		hostport_or_die(listen ? "--link-listen" : "--link-connect", l + 1);
		strv_push(args, "-netdev");
		strv_pushf(args, "socket,id=net%u,%s=%s", nic, listen ? "listen" : "connect", l + 1);
		push_nic(args, vm, nic);
		guest_addr(c, vm, "LINK_SUBNET", "192.168.156.0/24", vm, nic, kparams, NULL);
		nic++;
	}
}
