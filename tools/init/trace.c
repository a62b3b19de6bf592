// SPDX-License-Identifier: GPL-2.0
/* trace.c: the init's timings, as lines in the kernel log (bench/boot prints them). */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "init.h"

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
