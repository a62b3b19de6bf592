/* SPDX-License-Identifier: GPL-2.0 */
/* feed.h: move a file's bytes into a socket: splice file -> pipe -> socket, or read+send. */
#ifndef AFSUM_FEED_H
#define AFSUM_FEED_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "sum.h"

/* How a feed went. */
enum afsum_feed_how {
	AFSUM_FEED_SPLICE,	/* every byte spliced */
	AFSUM_FEED_NOT_FILE,	/* read+send: input is a pipe, tty, socket, ... */
	AFSUM_FEED_FORCED,	/* read+send: --no-splice */
	AFSUM_FEED_FALLBACK,	/* read+send after splice was refused (see fallback_err) */
};

struct afsum_feed_stats {
	uint64_t bytes;		/* bytes that reached the socket */
	uint64_t spliced;	/* of them, spliced into it */
	enum afsum_feed_how how;
	int fallback_err;	/* errno that made splice fall back, else 0 */
	bool input_failed;	/* on error: the input failed (else the socket did) */
};

/* Test seams; NULL means the real system call. */
typedef ssize_t (*afsum_splice_fn)(int fd_in, loff_t *off_in, int fd_out, loff_t *off_out,
				   size_t len, unsigned int flags);
typedef ssize_t (*afsum_send_fn)(int fd, const void *buf, size_t len, int flags);
typedef ssize_t (*afsum_read_fn)(int fd, void *buf, size_t len);

struct afsum_feed_ctl {
	bool no_splice;
	afsum_splice_fn splice;
	afsum_send_fn send;
	afsum_read_fn read;
};

/*
 * Send everything readable from in to sock, every chunk flagged "more"
 * (SPLICE_F_MORE / MSG_MORE), until end of file: the size from stat() is
 * never trusted. Regular files and block devices are spliced through a
 * pipe; if the kernel refuses the splice before any byte went into the
 * socket (EINVAL, EOPNOTSUPP, ENOSYS, EPERM) the bytes already in the pipe
 * are read and sent and the rest goes by read()+send(). Short transfers
 * and EINTR are retried. Returns 0 or -errno (st->input_failed says which
 * side failed); ctl may be NULL.
 */
int afsum_feed(int sock, int in, const struct afsum_feed_ctl *ctl,
	       struct afsum_feed_stats *st);

const char *afsum_feed_how_name(enum afsum_feed_how how);

#endif
