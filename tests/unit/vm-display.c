// SPDX-License-Identifier: GPL-2.0
/*
 * vm-display.c: the console ./vm writes to its stdout (display.c, on
 * outbuf.c) never waits for stdout's reader: into a pipe nobody reads,
 * feeding megabytes returns, what does not fit is dropped from the display
 * and said once, and the end gives up on a reader that takes nothing;
 * a reader that catches up gets the bytes in order; a regular file gets
 * every byte, as fed (-v, CI's output to a file). An alarm fails a
 * display that blocks (what one did before: ./vm's timeout never fired).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "display.h"
#include "tap.h"

/* The test's own stdout (TAP) and stderr, while the display has fd 1 and 2. */
static int tap_out = -1, tap_err = -1;

static void on_alarm(int sig)
{
	static const char msg[] = "not ok - the display blocked on a stalled stdout\n";

	(void)sig;
	if (write(tap_out >= 0 ? tap_out : 1, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

/* fd 1 becomes out, fd 2 err (or left alone: -1); back with restore(). */
static void redirect(int out, int err)
{
	fflush(stdout);
	tap_out = dup(STDOUT_FILENO);
	tap_err = dup(STDERR_FILENO);
	if (tap_out < 0 || tap_err < 0 || dup2(out, STDOUT_FILENO) < 0 ||
	    (err >= 0 && dup2(err, STDERR_FILENO) < 0))
		abort();
}

static void restore(void)
{
	if (dup2(tap_out, STDOUT_FILENO) < 0 || dup2(tap_err, STDERR_FILENO) < 0)
		abort();
	close(tap_out);
	close(tap_err);
	tap_out = tap_err = -1;
}

/* The whole of a file from its start, NUL-terminated; *n its length. */
static char *slurp(int fd, size_t *n)
{
	off_t len = lseek(fd, 0, SEEK_END);
	char *buf = malloc(len > 0 ? (size_t)len + 1 : 1);

	if (len < 0 || !buf || pread(fd, buf, (size_t)len, 0) != len)
		abort();
	buf[len] = '\0';
	*n = (size_t)len;
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static int tmpfile_fd(const char *dir, const char *name)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		abort();
	return fd;
}

/*
 * The display d (a new one of mode, unless mode is -1) on out (fd 1
 * meanwhile), fed in in reads of 64 KiB; stderr to err.
 */
static void feed_all(struct vm_display *d, int mode, const char *in, size_t n, int out, int err)
{
	size_t chunk = 65536;

	redirect(out, err);
	alarm(20);
	if (mode >= 0)
		display_init(d, (enum vm_display_mode)mode, 1, "vm1.log", 0, 0);
	for (size_t i = 0; i < n; i += chunk)
		display_feed(d, in + i, n - i < chunk ? n - i : chunk);
	alarm(0);
	restore();
}

/* display_end of d on out: what stderr (err, from its start) then holds. */
static char *end_said(struct vm_display *d, int out, int err)
{
	size_t n;

	redirect(out, err);
	alarm(20);
	display_end(d);
	alarm(0);
	restore();
	return slurp(err, &n);
}

int main(void)
{
	char dir[] = "/tmp/vm-display.XXXXXX";
	size_t big = 4 * DISPLAY_KEEP, n, got = 0;
	char *in = malloc(big), *out, *err_text, chunk[65536];
	struct vm_display d;
	int p[2], err, file, same = 1;

	tap_plan(11);
	if (!in || !mkdtemp(dir) || pipe2(p, O_CLOEXEC) < 0)
		abort();
	/* lines of the console, each numbered: order and gaps can be told */
	for (size_t i = 0, k = 0; i < big; k++) {
		int w = snprintf(in + i, big - i, "line %08zu of the console, as the guest wrote it\n", k);

		i += (size_t)w < big - i ? (size_t)w : big - i;
	}
	signal(SIGALRM, on_alarm);

	/* -v, or CI's stdout a file: every byte, as it came */
	file = tmpfile_fd(dir, "stdout");
	err = tmpfile_fd(dir, "stderr");
	redirect(file, err);
	alarm(20);
	display_init(&d, DISPLAY_ALL, 1, "vm1.log", 0, 0);
	display_feed(&d, in, 1000);
	display_feed(&d, in + 1000, 65536);
	display_end(&d);
	display_free(&d);
	alarm(0);
	restore();
	out = slurp(file, &n);
	tap_ok(n == 1000 + 65536 && !memcmp(out, in, n),
	       "DISPLAY_ALL into a regular file: every byte fed, in order (%zu bytes)", n);
	free(out);
	close(file);
	close(err);

	/* a pipe nobody reads: feeding four times what the display keeps returns */
	err = tmpfile_fd(dir, "stderr-stalled");
	feed_all(&d, DISPLAY_ALL, in, big, p[1], err);
	tap_ok(1, "DISPLAY_ALL into a pipe nobody reads: %zu MiB fed without blocking", big >> 20);
	tap_ok(display_pending(&d) == DISPLAY_KEEP,
	       "  the display keeps DISPLAY_KEEP for the reader (%zu bytes waiting)",
	       display_pending(&d));
	err_text = slurp(err, &n);
	tap_ok(count(err_text, "stdout is not being read") == 1 && strstr(err_text, "vm1.log"),
	       "  said once on stderr, naming the log that has every byte");
	free(err_text);

	/* the reader comes back: what it reads is the console's start, in order */
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	out = malloc(big);
	for (int rounds = 0; rounds < 10000 && display_pending(&d); rounds++) {
		ssize_t r = read(p[0], out + got, big - got);

		if (r > 0)
			got += (size_t)r;
		redirect(p[1], err);
		alarm(20);
		display_flush(&d);
		alarm(0);
		restore();
	}
	for (ssize_t r; (r = read(p[0], out + got, big - got)) > 0;)
		got += (size_t)r;
	same = got && !memcmp(out, in, got);
	tap_ok(same && display_pending(&d) == 0,
	       "  a reader that catches up gets the console's first %zu bytes, in order", got);
	tap_ok(got < big && got >= DISPLAY_KEEP,
	       "  and no more: what did not fit was dropped (%zu of %zu bytes)", got, big);
	free(out);

	/* stalled again at the end: display_end gives up, and says so */
	feed_all(&d, -1, in, 8 * sizeof(chunk), p[1], err);
	err_text = end_said(&d, p[1], err);
	tap_ok(strstr(err_text, "stdout took nothing for") != NULL,
	       "display_end on a stalled pipe returns, and says what it did not show");
	tap_ok(count(err_text, "stdout is not being read") == 1,
	       "  the drop said once in all");
	free(err_text);
	display_free(&d);
	close(err);
	while (read(p[0], chunk, sizeof(chunk)) > 0)
		;

	/* a terminal's quiet display (the profile's lines) never waits either */
	err = tmpfile_fd(dir, "stderr-quiet");
	feed_all(&d, DISPLAY_BOOT_QUIET, in, big, p[1], err);
	tap_ok(display_pending(&d) == DISPLAY_KEEP,
	       "DISPLAY_BOOT_QUIET into a pipe nobody reads: fed without blocking");
	/* the reader gone: the end's write fails at once (EPIPE), no wait, said */
	close(p[0]);
	err_text = end_said(&d, p[1], err);
	tap_ok(strstr(err_text, "writing the console to stdout: stopped") != NULL,
	       "  the reader gone: display_end says the console stopped on stdout");
	tap_ok(display_pending(&d) == 0, "  and keeps nothing for it");
	free(err_text);
	display_free(&d);
	close(err);
	close(p[1]);
	free(in);
	tap_rm_tree(dir);
	return tap_done();
}
