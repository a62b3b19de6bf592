/* SPDX-License-Identifier: GPL-2.0 */
/* hostmem.h: a guest's memory size checked against the host's. */
#ifndef RAPIDO_HOSTMEM_H
#define RAPIDO_HOSTMEM_H

#include <stddef.h>
#include <stdint.h>

#define HOSTMEM_WHY_LEN 128

/*
 * 0 when n bytes fit in the host's RAM (sysinfo(2)'s total: qemu would
 * otherwise be handed -m 1073741824M), else -E2BIG with why ("more than this
 * host's memory (15.5G)"); a host that cannot tell passes everything.
 */
int hostmem_check(uint64_t n, char why[HOSTMEM_WHY_LEN]);

#endif
