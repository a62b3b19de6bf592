// SPDX-License-Identifier: GPL-2.0
/*
 * netaddr.c: fuzz the IPv4 prefix parser (BR_ADDR, VMn_IP, LINK_SUBNET).
 * Properties: a parsed prefix formats and parses back to itself; a derived
 * host address stays in the network and is neither its network nor its
 * broadcast address; MACs are locally administered unicast.
 */
#include <arpa/inet.h>

#include "fuzz.h"
#include "netaddr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);
	struct ipv4_prefix p, q, h;
	unsigned int host = 0;
	char buf[32];

	for (size_t i = 0; i < size && i < 4; i++)
		host = host << 8 | data[size - 1 - i];
	if (!ipv4_prefix_parse(text, &p)) {
		fuzz_assert(p.prefix <= 32, "prefix %u of \"%s\"", p.prefix, text);
		ipv4_prefix_format(&p, buf, sizeof(buf));
		fuzz_assert(!ipv4_prefix_parse(buf, &q) && q.addr.s_addr == p.addr.s_addr &&
			    q.prefix == p.prefix, "\"%s\" formats as \"%s\"", text, buf);
		if (!ipv4_prefix_host(&p, host, &h)) {
			uint32_t mask = p.prefix ? 0xffffffffu << (32 - p.prefix) : 0;
			uint32_t a = ntohl(h.addr.s_addr);

			fuzz_assert((a & mask) == (ntohl(p.addr.s_addr) & mask),
				    "host %u of %s left the network", host, buf);
			fuzz_assert((a & ~mask) != 0 && (a & ~mask) != ~mask,
				    "host %u of %s is the network or broadcast address", host, buf);
		}
	}
	vm_mac(host, host >> 16, buf, sizeof(buf));
	fuzz_assert(strlen(buf) == 17 && !strncmp(buf, "02:", 3), "MAC %s", buf);
	free(text);
	return 0;
}
