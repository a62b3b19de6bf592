// SPDX-License-Identifier: GPL-2.0
/* hostmem.c: a guest's memory size checked against the host's (hostmem.h). */
#include <errno.h>
#include <stdio.h>
#include <sys/sysinfo.h>

#include "hostmem.h"
#include "size.h"

int hostmem_check(uint64_t n, char why[HOSTMEM_WHY_LEN])
{
	struct sysinfo si;
	uint64_t total;
	char have[32];

	if (sysinfo(&si) < 0)
		return 0;
	total = (uint64_t)si.totalram * (si.mem_unit ? si.mem_unit : 1);
	if (!total || n <= total)
		return 0;
	/* sizes are whole units: 15.5G of RAM is shown in M */
	size_format(total - total % (1 << 20), have, sizeof(have));
	snprintf(why, HOSTMEM_WHY_LEN, "more than this host's memory (%s): expected at most %s", have, have);
	return -E2BIG;
}
