// SPDX-License-Identifier: GPL-2.0
/* poweroff.c: the benchmark floor's /init: power off at once. */
#include <sys/reboot.h>
#include <unistd.h>

int main(void)
{
	static const char msg[] = "floor-init\n";

	if (write(1, msg, sizeof(msg) - 1) < 0)
		return 1;
	reboot(RB_POWER_OFF);
	return 1;
}
