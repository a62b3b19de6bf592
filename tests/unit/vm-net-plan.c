// SPDX-License-Identifier: GPL-2.0
/* vm-net-plan.c: NICs and guest addresses from resolved settings and the VM number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "vm.h"

static char *joined(const struct strv *sv)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < sv->n; i++)
		len += strlen(sv->v[i]) + 1;
	s = calloc(1, len);
	for (size_t i = 0; i < sv->n; i++) {
		strcat(s, sv->v[i]);
		if (i + 1 < sv->n)
			strcat(s, " ");
	}
	return s;
}

/* 1 if vm_net_plan dies for these settings */
static int plan_dies(const struct vm_settings *s, unsigned int vm)
{
	int st;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct strv a = STRV_INIT, k = STRV_INIT;

		if (!freopen("/dev/null", "w", stderr))
			_exit(0);
		vm_net_plan(s, vm, &a, &k);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) != 0;
}

int main(void)
{
	struct vm_settings s = { 0 };
	struct strv a = STRV_INIT, k = STRV_INIT;
	struct vm_link links[2] = { { 1, "127.0.0.1:5555" }, { 0, "127.0.0.1:6666" } };
	struct vm_static_ip ip = { .vm = 3, .nic = 2 };
	char *t;

	tap_plan(9);
	ipv4_prefix_parse("192.168.155.1/24", &s.br_net);
	ipv4_prefix_parse("192.168.156.0/24", &s.link_net);

	vm_net_plan(&s, 1, &a, &k);
	tap_ok(a.n == 0 && k.n == 0, "no network: no NIC, no address");

	s.net = NET_USER;
	strv_push(&s.hostfwd, "tcp:127.0.0.1:2222-:22");
	vm_net_plan(&s, 3, &a, &k);
	t = joined(&a);
	TAP_EQ_STR(t, "-netdev user,id=net0,net=10.0.2.0/24,hostfwd=tcp:127.0.0.1:2222-:22 "
		   "-device virtio-net-pci,netdev=net0,mac=02:72:70:00:03:00", "user mode with a port forward");
	free(t);
	t = joined(&k);
	TAP_EQ_STR(t, "rapido.ip=eth0,10.0.2.15/24,10.0.2.2", "  slirp's fixed address and gateway");
	free(t);
	strv_free(&a);
	strv_free(&k);

	/* two links after eth0; the second has a static address from rapido.conf */
	s.links = links;
	s.n_links = 2;
	ipv4_prefix_parse("10.7.0.3/16", &ip.addr);
	s.ips = &ip;
	s.n_ips = 1;
	vm_net_plan(&s, 3, &a, &k);
	t = joined(&a);
	tap_ok(strstr(t, "-netdev socket,id=net1,listen=127.0.0.1:5555 -device virtio-net-pci,netdev=net1,mac=02:72:70:00:03:01") &&
	       strstr(t, "-netdev socket,id=net2,connect=127.0.0.1:6666 -device virtio-net-pci,netdev=net2,mac=02:72:70:00:03:02"),
	       "links are eth1 and eth2 with their own MACs");
	free(t);
	t = joined(&k);
	TAP_EQ_STR(t, "rapido.ip=eth0,10.0.2.15/24,10.0.2.2 rapido.ip=eth1,192.168.156.3/24 "
		   "rapido.ip=eth2,10.7.0.3/16", "link addresses: host N of LINK_SUBNET, or VM3_IP2");
	free(t);
	strv_free(&a);
	strv_free(&k);

	/* tap mode: the TAP must exist; its name comes from the VM number or TAP_DEVS */
	s.net = NET_TAP;
	s.n_links = 0;
	s.tap = "rapido-nosuchtap";
	tap_ok(plan_dies(&s, 1), "a missing TAP device is refused");
	s.tap = "lo";
	tap_ok(plan_dies(&s, 1), "an interface that is not a TAP is refused");
	s.tap = NULL;
	strv_push(&s.tap_devs, "lo");
	tap_ok(plan_dies(&s, 2), "VM 2 with one TAP_DEVS entry is refused");
	ipv4_prefix_parse("192.168.155.1/30", &s.br_net);
	s.tap_devs.n = 0;
	s.net = NET_USER;
	s.n_links = 1;
	ipv4_prefix_parse("192.168.156.0/30", &s.link_net);
	tap_ok(plan_dies(&s, 9), "a network with no room for the VM's host number is refused");
	strv_free(&s.hostfwd);
	s.tap_devs.n = 1;
	strv_free(&s.tap_devs);
	return tap_done();
}
