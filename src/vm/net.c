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
#include "ifname.h"
#include "netaddr.h"
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
