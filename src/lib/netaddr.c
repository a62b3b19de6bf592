// SPDX-License-Identifier: GPL-2.0
/* netaddr.c: IPv4 prefixes for bridge and per-VM addresses, stable MACs. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "netaddr.h"
#include "num.h"

int ipv4_prefix_parse(const char *s, struct ipv4_prefix *out)
{
	const char *slash = strchr(s, '/');
	char *addr;
	int ok;

	if (!slash || !slash[1])
		return -EINVAL;
	addr = xstrndup(s, (size_t)(slash - s));
	ok = inet_pton(AF_INET, addr, &out->addr) == 1;
	free(addr);
	if (!ok)
		return -EINVAL;
	if (num_parse_uint(slash + 1, 0, 32, &out->prefix, NULL))
		return -EINVAL;
	return 0;
}

int ipv4_prefix_host(const struct ipv4_prefix *p, unsigned int host, struct ipv4_prefix *out)
{
	uint32_t mask = p->prefix ? 0xffffffffu << (32 - p->prefix) : 0;
	uint32_t net = ntohl(p->addr.s_addr) & mask;
	uint32_t hostmax = ~mask;

	if (p->prefix > 30 || host == 0 || host >= hostmax)
		return -ERANGE;
	out->addr.s_addr = htonl(net | host);
	out->prefix = p->prefix;
	return 0;
}

void ipv4_prefix_format(const struct ipv4_prefix *p, char *buf, size_t len)
{
	char a[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &p->addr, a, sizeof(a));
	snprintf(buf, len, "%s/%u", a, p->prefix);
}

void vm_mac(unsigned int vm, unsigned int nic, char *buf, size_t len)
{
	snprintf(buf, len, "02:72:70:%02x:%02x:%02x", (vm >> 8) & 0xff, vm & 0xff, nic & 0xff);
}
