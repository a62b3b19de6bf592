// SPDX-License-Identifier: GPL-2.0
/*
 * vm-display.c: fuzz the console as ./vm shows it (display.c), whose input
 * any guest program can write. The first byte picks where the input is cut
 * in two reads, the second the mode. Properties: the output does not
 * depend on how the bytes were read; all of it (-v, CI) is every byte as
 * it came, through the buffer stdout drains (outbuf.c); without the boot
 * log, every line of a program's (no kernel stamp first) is shown whole;
 * with kernel reports only (-q --batch), every line shown is a kernel
 * line.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "display.h"
#include "fuzz.h"

/* What the display wrote for data, read in two at cut; malloc'd, *n bytes. */
static char *shown(enum vm_display_mode mode, const char *data, size_t size, size_t cut, size_t *n)
{
	struct vm_display d;
	int fd = memfd_create("display", 0), err = dup(STDERR_FILENO), null;
	char *out;
	off_t len;

	/* the up line goes to stderr: not into the fuzzer's reports */
	null = open("/dev/null", O_WRONLY);
	if (fd < 0 || err < 0 || null < 0 || dup2(fd, STDOUT_FILENO) < 0 ||
	    dup2(null, STDERR_FILENO) < 0)
		abort();
	close(null);
	display_init(&d, mode, 1, "vm1.log", 0, 0);
	display_feed(&d, data, cut);
	display_feed(&d, data + cut, size - cut);
	display_end(&d);
	display_free(&d);
	if (dup2(err, STDERR_FILENO) < 0)
		abort();
	close(err);
	len = lseek(fd, 0, SEEK_END);
	out = malloc((size_t)len + 1);
	if (len < 0 || !out || pread(fd, out, (size_t)len, 0) != len)
		abort();
	out[len] = '\0';
	close(fd);
	*n = (size_t)len;
	return out;
}

/* "[ digits.digits]" first, after any "\r": the display's kernel line */
static int stamped(const char *p, size_t n)
{
	size_t i = 0, d;

	while (i < n && p[i] == '\r')
		i++;
	if (i == n || p[i++] != '[')
		return 0;
	while (i < n && p[i] == ' ')
		i++;
	for (d = i; i < n && p[i] >= '0' && p[i] <= '9'; i++)
		;
	if (i == d || i == n || p[i++] != '.')
		return 0;
	for (d = i; i < n && p[i] >= '0' && p[i] <= '9'; i++)
		;
	return i > d && i < n && p[i] == ']';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum vm_display_mode mode;
	const char *in = (const char *)data + 2;
	size_t n = size - 2, cut, alen, blen;
	char *a, *b;

	if (size < 2)
		return 0;
	mode = data[1] & 2 ? DISPLAY_ALL : data[1] & 1 ? DISPLAY_REPORTS : DISPLAY_BOOT_QUIET;
	cut = n ? data[0] % (n + 1) : 0;
	a = shown(mode, in, n, n, &alen);
	b = shown(mode, in, n, cut, &blen);
	fuzz_assert(alen == blen && !memcmp(a, b, alen), "read whole: %zu bytes, cut at %zu: %zu",
		    alen, cut, blen);
	if (mode == DISPLAY_ALL)
		fuzz_assert(alen == n && !memcmp(a, in, n), "all of it: %zu bytes fed, %zu shown",
			    n, alen);
	for (const char *p = in, *nl; p < in + n && (nl = memchr(p, '\n', (size_t)(in + n - p)));
	     p = nl + 1) {
		size_t len = (size_t)(nl - p) + 1;

		if (mode == DISPLAY_BOOT_QUIET && !stamped(p, len))
			fuzz_assert(memmem(a, alen, p, len), "a program's line of %zu bytes not shown",
				    len);
	}
	if (mode == DISPLAY_REPORTS)
		for (const char *p = a, *nl; p < a + alen && (nl = memchr(p, '\n', (size_t)(a + alen - p)));
		     p = nl + 1)
			fuzz_assert(stamped(p, (size_t)(nl - p)) || nl == p, "a line shown unstamped");
	free(a);
	free(b);
	return 0;
}
