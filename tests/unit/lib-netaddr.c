// SPDX-License-Identifier: GPL-2.0
/* lib-netaddr.c: IPv4 prefixes, per-VM addresses and stable MACs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "netaddr.h"
#include "tap.h"

static void host(const char *net, unsigned int h, const char *want)
{
	struct ipv4_prefix p, out;
	char buf[32] = "";

	if (ipv4_prefix_parse(net, &p) == 0 && ipv4_prefix_host(&p, h, &out) == 0)
		ipv4_prefix_format(&out, buf, sizeof(buf));
	TAP_EQ_STR(buf, want, "host %u of %s", h, net);
}

/* BR_ADDR as every reader checks it: a host address on a private /8../30 */
static void bridge(const char *v, int ok, const char *why)
{
	struct ipv4_prefix p;
	char err[NETADDR_WHY_LEN] = "";
	int rc = ipv4_bridge_parse(v, &p, err);

	if (ok)
		tap_ok(rc == 0, "BR_ADDR %s accepted %s", v, err);
	else
		tap_ok(rc == -EINVAL && strstr(err, why), "BR_ADDR %s refused: %s", v, err);
}

int main(void)
{
	struct ipv4_prefix p, out;
	char mac[32];

	tap_plan(29);
	tap_ok(ipv4_prefix_parse("192.168.155.1/24", &p) == 0 && p.prefix == 24, "parse a.b.c.d/24");
	tap_ok(ipv4_prefix_parse("192.168.155.1", &p) == -EINVAL, "prefix length required");
	tap_ok(ipv4_prefix_parse("192.168.155.300/24", &p) == -EINVAL, "octet over 255 rejected");
	tap_ok(ipv4_prefix_parse("10.0.0.1/33", &p) == -EINVAL, "prefix over 32 rejected");
	tap_ok(ipv4_prefix_parse("10.0.0.1/2x", &p) == -EINVAL, "junk after prefix rejected");
	tap_ok(ipv4_prefix_parse("10.0.0.1/", &p) == -EINVAL, "empty prefix rejected");
	host("192.168.155.1/24", 101, "192.168.155.101/24");
	host("192.168.156.0/24", 2, "192.168.156.2/24");
	host("10.1.0.0/16", 300, "10.1.1.44/16");
	ipv4_prefix_parse("192.168.155.1/24", &p);
	TAP_EQ_INT(ipv4_prefix_host(&p, 255, &out), -ERANGE, "broadcast address refused");
	TAP_EQ_INT(ipv4_prefix_host(&p, 0, &out), -ERANGE, "network address refused");
	bridge("192.168.155.1/24", 1, "");
	bridge("10.9.8.1/24", 1, "");
	bridge("10.0.0.1/8", 1, "");
	bridge("172.16.0.1/12", 1, "");
	bridge("172.31.255.254/30", 1, "");
	bridge("192.168.155.1/0", 0, "/8 to /30");
	bridge("192.168.155.1/7", 0, "/8 to /30");
	bridge("192.168.155.1/31", 0, "/8 to /30");
	bridge("0.0.0.0/24", 0, "private");
	bridge("192.168.155.0/24", 0, "network address");
	bridge("192.168.155.255/24", 0, "broadcast");
	bridge("192.0.2.77/24", 0, "private");
	bridge("127.0.0.1/8", 0, "private");
	bridge("172.16.0.1/8", 0, "private");
	bridge("192.168.1.1", 0, "prefix length");
	vm_mac(1, 0, mac, sizeof(mac));
	TAP_EQ_STR(mac, "02:72:70:00:01:00", "MAC of vm1 eth0");
	vm_mac(258, 3, mac, sizeof(mac));
	TAP_EQ_STR(mac, "02:72:70:01:02:03", "MAC of vm258 eth3");
	{
		unsigned int first = (unsigned int)strtoul(mac, NULL, 16);

		tap_ok((first & 0x02) && !(first & 0x01),
		       "first octet 0x%02x: locally administered, unicast", first);
	}
	return tap_done();
}
