// SPDX-License-Identifier: GPL-2.0
/* protocol.c: reading the words of protocol.h (the kernel parameters ./vm writes). */
#include <string.h>

#include "protocol.h"

const char *kparam_value(const char *w, const char *kp)
{
	size_t n = strlen(kp);

	return strncmp(w, kp, n) ? NULL : w + n;
}
