// SPDX-License-Identifier: GPL-2.0
/* display.c: the console as ./vm shows it, and the status line of a results run (display.h). */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "display.h"
#include "err.h"
#include "mono.h"
#include "outbuf.h"
#include "settings.h"
#include "upmark.h"


void display_init(struct vm_display *d, enum vm_display_mode mode, unsigned int vm, const char *log,
		  int status_on, double started)
{
	sigset_t pipe;

	memset(d, 0, sizeof(*d));
	d->mode = mode;
	d->vm = vm;
	d->log = log;
	d->started = started;
	d->bol = 1;
	d->status_on = status_on && mode != DISPLAY_ALL;
	splat_scan_init(&d->sc);
	outbuf_init(&d->out, STDOUT_FILENO, DISPLAY_KEEP);
	/*
	 * A reader that went away (./vm | head) is an EPIPE to out(), never a
	 * SIGPIPE that would take the verdict with ./vm; qemu gets the mask
	 * ./vm had before (spawn.c), display_end() drops a pending one.
	 */
	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe, NULL);
}

void display_free(struct vm_display *d)
{
	splat_scan_free(&d->sc);
	outbuf_free(&d->out);
}

/* A failed write, said once: the console is still in the log, the verdict unchanged. */
static void out_failed(struct vm_display *d, int rc)
{
	if (!rc || d->failed)
		return;
	warn_err(rc, "writing the console to stdout: stopped (the log file still has it)");
	d->failed = 1;
}

void display_flush(struct vm_display *d)
{
	out_failed(d, outbuf_flush(&d->out));
}

size_t display_pending(const struct vm_display *d)
{
	return d->failed ? 0 : outbuf_pending(&d->out);
}

/* Kept for stdout, written as its reader takes it (outbuf.h): never a wait here. */
static void out(struct vm_display *d, const char *p, size_t n)
{
	if (d->failed || !n)
		return;
	if (outbuf_pending(&d->out) + n > DISPLAY_KEEP)
		display_flush(d);
	if (outbuf_add(&d->out, p, n) && !d->failed && !d->dropping) {
		d->dropping = 1;
		warn("vm%u: stdout is not being read (%u KiB of the console wait for its reader): "
		     "what does not fit is not shown there from now on; the console log %s has "
		     "every byte", d->vm, DISPLAY_KEEP >> 10, d->log);
	}
	d->bol = p[n - 1] == '\n';
}

/* Blanks over the status line, the cursor back at its start: no escape sequence, any terminal. */
static void status_blank(struct vm_display *d, size_t n)
{
	char sp[64];

	memset(sp, ' ', sizeof(sp));
	while (n) {
		size_t k = n < sizeof(sp) ? n : sizeof(sp);

		out(d, sp, k);
		n -= k;
	}
}

static void status_clear(struct vm_display *d)
{
	if (!d->status_shown)
		return;
	out(d, "\r", 1);
	status_blank(d, d->status_shown);
	out(d, "\r", 1);
	d->status_shown = 0;
	d->bol = 1;
}

/* Drawn only at the start of a line: a prompt or a partial line is never overwritten. */
static void status_draw(struct vm_display *d, double now)
{
	char buf[sizeof(d->status) + 64];
	unsigned int secs = now > d->started ? (unsigned int)(now - d->started) : 0;
	struct winsize ws;
	size_t n, width = 80;

	if (!d->status_on || !d->status[0] || !(d->bol || d->status_shown))
		return;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		width = ws.ws_col;
	n = (size_t)snprintf(buf, sizeof(buf), "\rvm%u %um%02us  %s", d->vm, secs / 60, secs % 60,
			     d->status);
	/* one screen line: a wrapped line could not be rewritten in place by "\r" */
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	if (n > width)
		n = width;
	out(d, buf, n);
	/* what a longer line before it left */
	if (d->status_shown > n - 1)
		status_blank(d, d->status_shown - (n - 1));
	if (d->failed)
		return;
	d->status_shown = d->status_shown > n - 1 ? d->status_shown : n - 1;
	/* the cursor sits after the status line, whose start stands for the console's */
	d->bol = 1;
}

void display_status_text(char *buf, size_t size, const struct rsuite *s)
{
	unsigned int pass = 0, fail = 0, skip = 0;
	const char *running = NULL;
	int n;

	for (size_t i = 0; i < s->n; i++) {
		const struct rtest *t = &s->t[i];

		if (t->hidden || t->kernel)
			continue;
		if (t->state == RT_PASS)
			pass++;
		else if (t->state == RT_SKIP)
			skip++;
		else if (t->state == RT_FAIL)
			fail++;
	}
	if (s->last && s->t[s->last - 1].state == RT_RUNNING)
		running = s->t[s->last - 1].name;
	n = snprintf(buf, size, "%u", pass + fail + skip);
	if (n >= 0 && (size_t)n < size && s->plan.n)
		n += snprintf(buf + n, size - (size_t)n, "/%zu", s->plan.n);
	if (n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, " done, %u passed, %u failed", pass, fail);
	if (n >= 0 && (size_t)n < size && skip)
		n += snprintf(buf + n, size - (size_t)n, ", %u skipped", skip);
	if (n >= 0 && (size_t)n < size && running)
		snprintf(buf + n, size - (size_t)n, "; running %s", running);
}

void display_records(struct vm_display *d, const struct rsuite *s, double now)
{
	if (!d->status_on || !s)
		return;
	display_status_text(d->status, sizeof(d->status), s);
	status_draw(d, now);
	display_flush(d);
}

void display_tick(struct vm_display *d, double now)
{
	status_draw(d, now);
	display_flush(d);
}

/*
 * The kernel's stamp "[   12.345678]" first on the line (after a "\r";
 * printk.time=1): 1 with *ts once complete, 0 while p could still begin
 * one, -1 if it cannot.
 */
static int stamp(const char *p, size_t n, double *ts)
{
	size_t i = 0, d;

	while (i < n && p[i] == '\r')
		i++;
	if (i == n)
		return 0;
	if (p[i++] != '[')
		return -1;
	while (i < n && p[i] == ' ')
		i++;
	for (d = i; i < n && isdigit((unsigned char)p[i]); i++)
		;
	if (i == n)
		return 0;
	if (i == d || p[i++] != '.')
		return -1;
	for (d = i; i < n && isdigit((unsigned char)p[i]); i++)
		;
	if (i == n)
		return 0;
	if (i == d || p[i] != ']')
		return -1;
	*ts = strtod(memchr(p, '[', n) + 1, NULL);
	return 1;
}

static void say_up(struct vm_display *d)
{
	status_clear(d);
	/* the console before it first, as far as stdout takes it now */
	display_flush(d);
	if (d->failed)
		return;
	fprintf(stderr, "vm: vm%u: up after %.1fs; the boot log is in %s (-v shows it)\n", d->vm,
		d->up_ts, d->log);
}

/* A kernel line, whole (its newline with it) or cut at sizeof(line). */
static void judge_kernel(struct vm_display *d, const char *p, size_t n, double ts, int whole)
{
	int report = whole && d->sc.n && d->sc.v[d->sc.n - 1].last_line == d->sc.lineno;

	if (d->mode == DISPLAY_BOOT_QUIET && !d->up && memmem(p, n, UPMARK, strlen(UPMARK))) {
		d->up = 1;
		d->up_ts = ts;
		say_up(d);
		d->kind = LINE_HIDE;
		return;
	}
	/* stamped before the up mark: the boot log, however late it comes */
	d->kind = report || (d->mode == DISPLAY_BOOT_QUIET && d->up && ts >= d->up_ts) ?
		  LINE_SHOW : LINE_HIDE;
	if (d->kind == LINE_SHOW) {
		status_clear(d);
		out(d, p, n);
	}
}

/* One piece of a line: up to its newline (nl set) or the end of what was read. */
static void piece(struct vm_display *d, const char *p, size_t n, int nl)
{
	size_t room = sizeof(d->line) - d->len, kept = 0;
	int was = d->kind;

	splat_feed(&d->sc, p, n);
	if (d->kind == LINE_NEW || d->kind == LINE_KERNEL) {
		kept = n < room ? n : room;
		memcpy(d->line + d->len, p, kept);
		d->len += kept;
	}
	if (d->kind == LINE_NEW) {
		int st = stamp(d->line, d->len, &d->ts);

		if (st > 0) {
			d->kind = LINE_KERNEL;
		} else if (st < 0 || nl || kept < n) {
			/* a program's line: shown as it comes (a prompt has no newline) */
			d->kind = d->mode == DISPLAY_BOOT_QUIET ? LINE_SHOW : LINE_HIDE;
			if (d->kind == LINE_SHOW) {
				status_clear(d);
				out(d, d->line, d->len);
			}
		}
	}
	if (d->kind == LINE_KERNEL && (nl || kept < n))
		judge_kernel(d, d->line, d->len, d->ts, nl && kept == n);
	if (d->kind == LINE_SHOW) {
		status_clear(d);
		/* what line[] did not hold, or all of it once the line is judged */
		if (was == LINE_SHOW)
			out(d, p, n);
		else
			out(d, p + kept, n - kept);
	}
	if (nl) {
		d->kind = LINE_NEW;
		d->len = 0;
	}
}

void display_feed(struct vm_display *d, const char *p, size_t n)
{
	/* all of it, as it came (-v, stdout not a terminal: CI, a pipe) */
	if (d->mode == DISPLAY_ALL) {
		out(d, p, n);
		display_flush(d);
		return;
	}
	while (n) {
		const char *nl = memchr(p, '\n', n);
		size_t take = nl ? (size_t)(nl - p) + 1 : n;

		piece(d, p, take, nl != NULL);
		p += take;
		n -= take;
	}
	status_draw(d, mono_secs());
	display_flush(d);
}

void display_end(struct vm_display *d)
{
	const struct timespec now = { 0, 0 };
	sigset_t pipe;
	int rc;

	/* a last line with no newline: judged as it stands */
	if (d->kind == LINE_KERNEL)
		judge_kernel(d, d->line, d->len, d->ts, 0);
	else if (d->kind == LINE_NEW && d->len && d->mode == DISPLAY_BOOT_QUIET)
		out(d, d->line, d->len);
	d->kind = LINE_NEW;
	d->len = 0;
	status_clear(d);
	if (!d->bol && d->mode != DISPLAY_ALL)
		out(d, "\n", 1);
	/* what stdout's reader has not taken yet: for as long as it takes some */
	rc = outbuf_drain(&d->out, DISPLAY_STALL_SECS);
	if (rc == -ETIMEDOUT)
		warn("vm%u: stdout took nothing for %ds: the console's last %zu bytes are not shown "
		     "there (the console log %s has them)", d->vm, DISPLAY_STALL_SECS,
		     outbuf_pending(&d->out), d->log);
	else
		out_failed(d, rc);
	/*
	 * a SIGPIPE left pending (this display's, or rapido run's command
	 * output to a reader gone: execout.c) must not be delivered when
	 * ./vm restores its mask, after the verdict and before its exit
	 */
	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	while (sigtimedwait(&pipe, NULL, &now) == SIGPIPE)
		;
}
