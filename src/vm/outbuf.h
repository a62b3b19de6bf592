/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outbuf.h: bytes for a descriptor whose reader may stall (./vm's stdout
 * into a pipe nobody reads, a terminal whose reader stopped), kept in a
 * bounded buffer and written only as much as the reader takes, so the
 * writer's loop never blocks in write(2): its deadlines (the timeout,
 * the watchdog) still run.
 *
 * The descriptor itself stays blocking: O_NONBLOCK would be set on an
 * open file description shared with the calling shell and the reader.
 * The writes go through a non-blocking description of their own, opened
 * again from /proc/self/fd (a pipe, a FIFO, a terminal). Where none can
 * be had (a socket), at most PIPE_BUF is written per ready poll (what a
 * pipe's POLLOUT promises); a regular file is always ready, and takes the
 * whole buffer at once. What does not fit is dropped and counted.
 */
#ifndef RAPIDO_VM_OUTBUF_H
#define RAPIDO_VM_OUTBUF_H

#include <stddef.h>

struct outbuf {
	int fd;			/* where the bytes go: own, else the caller's */
	int own;		/* a non-blocking description of our own, or -1 */
	char *buf;
	size_t off, len, cap;	/* the bytes waiting are buf[off, off + len) */
	size_t chunk;		/* at most this much a write: PIPE_BUF, or cap (a file, own) */
	unsigned long long dropped;	/* bytes that did not fit */
	int err;		/* a write failed (-errno): nothing more is kept or written */
};

/*
 * A non-blocking description of its own for what fd is open on (a pipe, a
 * FIFO, a terminal), close-on-exec; -1 where none can be had (a socket).
 * errout.c writes ./vm's stderr through one too.
 */
int outbuf_reopen_nonblocking(int fd);
void outbuf_init(struct outbuf *o, int fd, size_t cap);
void outbuf_free(struct outbuf *o);
/* Keep p for fd, or what fits of it: the number of bytes dropped (all of them once err is set). */
size_t outbuf_add(struct outbuf *o, const void *p, size_t n);
/* Write what fd takes now, never waiting: 0, or the -errno of a failed write (err). */
int outbuf_flush(struct outbuf *o);
/*
 * Wait for fd to take the rest, for as long as it takes some every stall
 * seconds: 0 once empty, -ETIMEDOUT when the reader took nothing for that
 * long (what is left stays), or the -errno of a failed write.
 */
int outbuf_drain(struct outbuf *o, double stall);

static inline size_t outbuf_pending(const struct outbuf *o)
{
	return o->err ? 0 : o->len;
}

#endif
