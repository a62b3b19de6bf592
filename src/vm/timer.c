// SPDX-License-Identifier: GPL-2.0
/* timer.c: one-shot timerfd deadlines for ./vm's event loop and the test watchdog (timer.h). */
#include <sys/timerfd.h>
#include <time.h>

#include "err.h"
#include "timer.h"

void vm_timer_arm(int fd, double secs)
{
	struct itimerspec its = { 0 };

	/* a deadline already past (the watchdog's): fire now, not EINVAL */
	if (secs < 0)
		secs = 0;
	its.it_value.tv_sec = (time_t)secs;
	its.it_value.tv_nsec = (long)((secs - (double)(time_t)secs) * 1e9);
	if (!its.it_value.tv_sec && !its.it_value.tv_nsec)
		its.it_value.tv_nsec = 1;
	if (timerfd_settime(fd, 0, &its, NULL) < 0)
		die_errno("timerfd_settime");
}

void vm_timer_disarm(int fd)
{
	struct itimerspec its = { 0 };

	if (timerfd_settime(fd, 0, &its, NULL) < 0)
		die_errno("timerfd_settime");
}
