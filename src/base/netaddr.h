/* SPDX-License-Identifier: GPL-2.0 */
/* netaddr.h: IPv4 address/prefix parsing and per-VM address derivation. */
#ifndef RAPIDO_NETADDR_H
#define RAPIDO_NETADDR_H

#include <netinet/in.h>

struct ipv4_prefix {
	struct in_addr addr;
	unsigned int prefix;	/* 0..32 */
};

/* "192.168.155.1/24" -> 0, or -EINVAL (no prefix, bad address, prefix > 32). */
int ipv4_prefix_parse(const char *s, struct ipv4_prefix *out);
/* BR_ADDR when rapido.conf sets none: ./netsetup, ./vm and ceph-local agree. */
#define NETADDR_BR_DEFAULT "192.168.155.1/24"
#define NETADDR_WHY_LEN 160
/*
 * BR_ADDR, the bridge's own address: a host address (neither the network
 * nor the broadcast address) with a /8 to /30 prefix inside one private
 * range (10/8, 172.16/12, 192.168/16), so a bridge on the host never takes
 * over its routes. 0, or -EINVAL with why (NETADDR_WHY_LEN) saying what
 * is expected. Every reader of BR_ADDR parses it with this.
 */
int ipv4_bridge_parse(const char *s, struct ipv4_prefix *out, char *why);
/*
 * Host number `host` in the network of p, with p's prefix. -ERANGE if it
 * does not fit (or would be the network or broadcast address).
 */
int ipv4_prefix_host(const struct ipv4_prefix *p, unsigned int host, struct ipv4_prefix *out);
/* "a.b.c.d/p" into buf (at least 19 bytes). */
void ipv4_prefix_format(const struct ipv4_prefix *p, char *buf, size_t len);

/*
 * MAC address of NIC `nic` of VM `vm`: locally administered (0x02 bit set,
 * unicast), "02:72:70" ("rp") then the VM number (16 bits) and the NIC
 * index, so it is stable across runs and releases.
 */
void vm_mac(unsigned int vm, unsigned int nic, char *buf, size_t len);

#endif
