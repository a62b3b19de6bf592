// SPDX-License-Identifier: GPL-2.0
/*
 * progress.c: what a cut is doing, told on a terminal (stderr a tty, no
 * -q): checking, each layer found in the cache or being built, the size
 * written. A re-cut from the cache takes milliseconds and should say
 * nothing, so lines are held back until the cut has run for a moment or
 * a step that takes time (dracut, copying a tree) begins; then what was
 * held is printed, and every later line as it comes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cut.h"
#include "err.h"
#include "strv.h"

/* "a moment": the held lines are shown once a cut has taken this long */
#define MOMENT_NS 500000000LL

static struct {
	int on;
	int shown;		/* the cut took more than a moment: lines go out as they come */
	struct timespec start;
	struct strv held;
} pr;

static long long elapsed_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - pr.start.tv_sec) * 1000000000LL + (now.tv_nsec - pr.start.tv_nsec);
}

void cut_progress_init(int quiet)
{
	pr.on = !quiet && isatty(STDERR_FILENO);
	clock_gettime(CLOCK_MONOTONIC, &pr.start);
}

double cut_progress_secs(void)
{
	return (double)elapsed_ns() / 1e9;
}

static void show(int now, const char *fmt, va_list ap)
{
	char *line;

	if (!pr.on)
		return;
	if (vasprintf(&line, fmt, ap) < 0)
		die_errno("vasprintf");
	if (!pr.shown && (now || elapsed_ns() >= MOMENT_NS)) {
		pr.shown = 1;
		for (size_t i = 0; i < pr.held.n; i++)
			fprintf(stderr, "%s: %s\n", err_prog, pr.held.v[i]);
		strv_free(&pr.held);
	}
	if (pr.shown)
		fprintf(stderr, "%s: %s\n", err_prog, line);
	else
		strv_push(&pr.held, line);
	free(line);
}

void cut_progress(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	show(0, fmt, ap);
	va_end(ap);
}

void cut_progress_slow(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	show(1, fmt, ap);
	va_end(ap);
}

void cut_progress_done(void)
{
	strv_free(&pr.held);
	pr.on = 0;
}

char *cut_mib(uint64_t bytes)
{
	if (bytes < (1 << 20))
		return xasprintf("%.1f KiB", (double)bytes / 1024);
	return xasprintf("%.1f MiB", (double)bytes / 1048576);
}
