// SPDX-License-Identifier: GPL-2.0
/* self.c: RAPIDO_FRONT, this program's own path, for the programs it runs
 * (bisect, install-deps); a file of its own so deps.c and front.c do not
 * call into each other. */
#include <stdlib.h>

#include "front.h"

int readlink_self_into_env(void)
{
	char *self = realpath("/proc/self/exe", NULL);
	int rc = self ? setenv("RAPIDO_FRONT", self, 1) : -1;

	free(self);
	return rc;
}
