// SPDX-License-Identifier: GPL-2.0
/* trace.c: the init's timings, as lines in the kernel log (bench/boot prints them). */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "init.h"
#include "io.h"
#include "upmark.h"

void init_trace(const char *fmt, ...)
{
	static int fd = -2;
	char line[256];
	va_list ap;
	int n;

	/*
	 * the kernel keeps 10 of these a 5 s unless booted with
	 * printk.devkmsg=on (bench/boot does)
	 */
	if (fd == -2)
		fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	/* <7>: the log's debug level, below the console's: dmesg shows it, the console not */
	n = snprintf(line, sizeof(line), "<7>rapido-init: ");
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 1)
		n = (int)sizeof(line) - 1;
	if (write(fd, line, (size_t)n) < 0)
		return;	/* a trace line is never worth a warning */
}

void init_mark_up(void)
{
	struct timespec ts;
	char line[128];
	int n;

	/*
	 * On the console itself, not through /dev/kmsg: the kernel may print a
	 * kmsg line after what the profile writes next, and ./vm must see the
	 * mark before the profile's output. In the kernel's own format (its
	 * clock, near enough: both count from boot), so that every reader of
	 * the console classes it with the boot log, and ./vm can tell a late
	 * boot line (stamped before it) from the profile's time.
	 */
	if (clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
		return;
	/*
	 * and in the kernel's log, stamped by printk's own clock as the
	 * steps and the library's marks are: CLOCK_MONOTONIC (hpet under
	 * tsc=unstable) runs tens of ms ahead of it under TCG, which
	 * bench/boot's timeline would count to the init and take from the
	 * profile
	 */
	init_trace("mark up\n");
	n = snprintf(line, sizeof(line), "[%5lld.%06ld] " UPMARK " after %lld ms; running the profile\n",
		     (long long)ts.tv_sec, ts.tv_nsec / 1000,
		     (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
	/* a failed write: ./vm then shows the boot log, nothing is lost */
	(void)write_all(STDOUT_FILENO, line, (size_t)n);
}
