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

int ipv4_bridge_parse(const char *s, struct ipv4_prefix *out, char *why)
{
	static const struct { uint32_t net; unsigned int len; } private[] = {
		{ 0x0a000000, 8 }, { 0xac100000, 12 }, { 0xc0a80000, 16 },	/* RFC 1918 */
	};
	uint32_t a, mask, in = 0;

	if (ipv4_prefix_parse(s, out)) {
		snprintf(why, NETADDR_WHY_LEN, "expected an IPv4 address with prefix length such as %s",
			 NETADDR_BR_DEFAULT);
		return -EINVAL;
	}
	if (out->prefix < 8 || out->prefix > 30) {
		snprintf(why, NETADDR_WHY_LEN, "prefix /%u: expected /8 to /30 (a bridge with a "
			 "shorter one would take over the host's routes)", out->prefix);
		return -EINVAL;
	}
	a = ntohl(out->addr.s_addr);
	mask = 0xffffffffu << (32 - out->prefix);
	for (size_t i = 0; i < sizeof(private) / sizeof(private[0]); i++) {
		uint32_t m = 0xffffffffu << (32 - private[i].len);

		in |= out->prefix >= private[i].len && (a & m) == private[i].net;
	}
	if (!in) {
		snprintf(why, NETADDR_WHY_LEN, "expected a network inside a private range (10.0.0.0/8, "
			 "172.16.0.0/12, 192.168.0.0/16) such as %s", NETADDR_BR_DEFAULT);
		return -EINVAL;
	}
	if (!(a & ~mask) || (a & ~mask) == ~mask) {
		snprintf(why, NETADDR_WHY_LEN, "that is the %s address of its network: expected a "
			 "host address such as %s", (a & ~mask) ? "broadcast" : "network",
			 NETADDR_BR_DEFAULT);
		return -EINVAL;
	}
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
