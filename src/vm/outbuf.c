// SPDX-License-Identifier: GPL-2.0
/* outbuf.c: a bounded buffer written to a blocking descriptor only as poll(2) allows (outbuf.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "mono.h"
#include "outbuf.h"

/*
 * A description of its own for what fd is open on, non-blocking: a write
 * then takes what the reader has room for and never waits, whatever fd is
 * (a terminal's POLLOUT means room for some bytes, not PIPE_BUF: a
 * blocking write to a terminal whose reader stopped waits for ever). Not
 * fd's own description, which the calling shell and the reader share. -1
 * where it cannot be had (a socket: ENXIO; a FIFO whose reader is gone).
 */
int outbuf_reopen_nonblocking(int fd)
{
	char path[32];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
}

void outbuf_init(struct outbuf *o, int fd, size_t cap)
{
	struct stat st;
	int reg;

	memset(o, 0, sizeof(*o));
	o->fd = fd;
	o->own = -1;
	o->cap = cap;
	o->buf = xmalloc(cap);
	/*
	 * A regular file (or a block device) has no poll of its own: always
	 * "ready", and a write never waits for a reader. Anything else (a
	 * pipe, a FIFO, a socket, a terminal) is written through a
	 * non-blocking description of its own where one can be had, else
	 * PIPE_BUF a ready poll (all a pipe's POLLOUT promises).
	 */
	reg = fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode));
	if (!reg)
		o->own = outbuf_reopen_nonblocking(fd);
	if (o->own >= 0)
		o->fd = o->own;
	o->chunk = reg || o->own >= 0 ? cap : PIPE_BUF;
}

void outbuf_free(struct outbuf *o)
{
	free(o->buf);
	o->buf = NULL;
	o->off = o->len = 0;
	if (o->own >= 0)
		close(o->own);
	o->own = -1;
}

static int outbuf_fail(struct outbuf *o, int err)
{
	o->err = err;
	o->off = o->len = 0;
	return err;
}

size_t outbuf_add(struct outbuf *o, const void *p, size_t n)
{
	size_t fit;

	if (o->err)
		return n;
	if (o->off + o->len + n > o->cap && o->off) {
		memmove(o->buf, o->buf + o->off, o->len);
		o->off = 0;
	}
	fit = o->cap - o->len < n ? o->cap - o->len : n;
	memcpy(o->buf + o->off + o->len, p, fit);
	o->len += fit;
	o->dropped += n - fit;
	return n - fit;
}

int outbuf_flush(struct outbuf *o)
{
	while (!o->err && o->len) {
		struct pollfd pfd = { .fd = o->fd, .events = POLLOUT };
		size_t n = o->len < o->chunk ? o->len : o->chunk;
		ssize_t w;
		int r = poll(&pfd, 1, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return outbuf_fail(o, -errno);
		if (r == 0)
			return 0;
		if (pfd.revents & POLLNVAL)
			return outbuf_fail(o, -EBADF);
		/* POLLERR (a pipe's reader gone), POLLHUP: the write says what */
		w = write(o->fd, o->buf + o->off, n);
		if (w < 0 && errno == EINTR)
			continue;
		/* another holder of the description made it non-blocking: not ready after all */
		if ((w < 0 && errno == EAGAIN) || w == 0)
			return 0;
		if (w < 0)
			return outbuf_fail(o, -errno);
		o->off += (size_t)w;
		o->len -= (size_t)w;
		if (!o->len)
			o->off = 0;
	}
	return o->err;
}

int outbuf_drain(struct outbuf *o, double stall)
{
	double until = mono_secs() + stall;

	for (;;) {
		size_t before = o->len;
		struct pollfd pfd = { .fd = o->fd, .events = POLLOUT };
		double left;
		int rc = outbuf_flush(o);

		if (rc || !o->len)
			return rc;
		/* a reader that takes some is slow, not stalled: its wait starts over */
		if (o->len < before)
			until = mono_secs() + stall;
		left = until - mono_secs();
		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&pfd, 1, (int)(left * 1000) + 1) < 0 && errno != EINTR)
			return outbuf_fail(o, -errno);
	}
}
