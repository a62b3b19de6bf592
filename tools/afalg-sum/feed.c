// SPDX-License-Identifier: GPL-2.0
/* feed.c: splice a file into a socket through a pipe, or read and send it. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "feed.h"

/* One pipe's worth (16 pages by default): a splice never has to wait on it. */
#define FEED_CHUNK (64 * 1024)
#define TO_EOF UINT64_MAX

struct feeder {
	int sock, in;
	afsum_splice_fn splice;
	afsum_send_fn send;
	afsum_read_fn read;
	struct afsum_feed_stats *st;
	char *buf;
};

static ssize_t sys_splice(int fd_in, loff_t *off_in, int fd_out, loff_t *off_out,
			  size_t len, unsigned int flags)
{
	return splice(fd_in, off_in, fd_out, off_out, len, flags);
}

static ssize_t sys_send(int fd, const void *buf, size_t len, int flags)
{
	return send(fd, buf, len, flags);
}

static ssize_t sys_read(int fd, void *buf, size_t len)
{
	return read(fd, buf, len);
}

const char *afsum_feed_how_name(enum afsum_feed_how how)
{
	switch (how) {
	case AFSUM_FEED_SPLICE:
		return "splice";
	case AFSUM_FEED_NOT_FILE:
		return "read+send (not a regular file or block device)";
	case AFSUM_FEED_FORCED:
		return "read+send (--no-splice)";
	case AFSUM_FEED_FALLBACK:
		return "read+send (splice refused)";
	}
	return "?";
}

/*
 * Where the kernel will not splice into this socket (or out of this file)
 * at all. Only believed before the first byte reached the socket.
 */
static bool splice_refused(int e)
{
	return e == EINVAL || e == EOPNOTSUPP || e == ENOSYS || e == EPERM;
}

static int fail(struct feeder *f, bool input, int err)
{
	f->st->input_failed = input;
	return err;
}

static int send_all(struct feeder *f, const char *p, size_t len)
{
	while (len) {
		ssize_t n = f->send(f->sock, p, len, MSG_MORE | MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return fail(f, false, -errno);
		}
		if (n == 0)
			return fail(f, false, -EIO);
		p += n;
		len -= (size_t)n;
		f->st->bytes += (uint64_t)n;
	}
	return 0;
}

static int wait_readable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	while (poll(&pfd, 1, -1) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* read() from fd and send() until end of file, or exactly limit bytes. */
static int read_send(struct feeder *f, int fd, uint64_t limit)
{
	while (limit) {
		size_t want = limit < FEED_CHUNK ? (size_t)limit : FEED_CHUNK;
		ssize_t n = f->read(fd, f->buf, want);
		int rc;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {	/* a non-blocking stdin */
				rc = wait_readable(fd);
				if (rc)
					return fail(f, true, rc);
				continue;
			}
			return fail(f, true, -errno);
		}
		if (n == 0)	/* a pipe we drain never ends early */
			return limit == TO_EOF ? 0 : fail(f, false, -EIO);
		rc = send_all(f, f->buf, (size_t)n);
		if (rc)
			return rc;
		if (limit != TO_EOF)
			limit -= (uint64_t)n;
	}
	return 0;
}

static int fall_back(struct feeder *f, int err)
{
	f->st->how = AFSUM_FEED_FALLBACK;
	f->st->fallback_err = err;
	return read_send(f, f->in, TO_EOF);
}

/* Move len bytes from the pipe into the socket; 1 if the socket refused splice. */
static int pipe_to_sock(struct feeder *f, int pipe_rd, size_t len)
{
	while (len) {
		ssize_t n = f->splice(pipe_rd, NULL, f->sock, NULL, len, SPLICE_F_MORE);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (f->st->bytes == 0 && splice_refused(errno)) {
				int rc;

				f->st->how = AFSUM_FEED_FALLBACK;
				f->st->fallback_err = errno;
				/* what is in the pipe comes first */
				rc = read_send(f, pipe_rd, len);
				return rc ? rc : 1;
			}
			return fail(f, false, -errno);
		}
		if (n == 0)
			return fail(f, false, -EIO);
		len -= (size_t)n;
		f->st->bytes += (uint64_t)n;
		f->st->spliced += (uint64_t)n;
	}
	return 0;
}

static int splice_all(struct feeder *f)
{
	int p[2], rc = 0;

	if (pipe2(p, O_CLOEXEC) < 0)
		return fall_back(f, errno);
	for (;;) {
		ssize_t n = f->splice(f->in, NULL, p[1], NULL, FEED_CHUNK, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (f->st->bytes == 0 && splice_refused(errno))
				rc = fall_back(f, errno);
			else
				rc = fail(f, true, -errno);
			break;
		}
		if (n == 0)
			break;
		rc = pipe_to_sock(f, p[0], (size_t)n);
		if (rc == 1) {		/* the rest by read+send */
			rc = read_send(f, f->in, TO_EOF);
			break;
		}
		if (rc)
			break;
	}
	close(p[0]);
	close(p[1]);
	return rc;
}

int afsum_feed(int sock, int in, const struct afsum_feed_ctl *ctl, struct afsum_feed_stats *st)
{
	struct feeder f = {
		.sock = sock,
		.in = in,
		.splice = ctl && ctl->splice ? ctl->splice : sys_splice,
		.send = ctl && ctl->send ? ctl->send : sys_send,
		.read = ctl && ctl->read ? ctl->read : sys_read,
		.st = st,
	};
	struct stat sb;
	int rc;

	*st = (struct afsum_feed_stats){ .how = AFSUM_FEED_SPLICE };
	if (fstat(in, &sb) < 0)
		return fail(&f, true, -errno);
	f.buf = xmalloc(FEED_CHUNK);
	if (ctl && ctl->no_splice) {
		st->how = AFSUM_FEED_FORCED;
		rc = read_send(&f, in, TO_EOF);
	} else if (!S_ISREG(sb.st_mode) && !S_ISBLK(sb.st_mode)) {
		st->how = AFSUM_FEED_NOT_FILE;
		rc = read_send(&f, in, TO_EOF);
	} else {
		rc = splice_all(&f);
	}
	free(f.buf);
	return rc;
}
