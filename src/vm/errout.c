// SPDX-License-Identifier: GPL-2.0
/*
 * errout.c: ./vm's own messages never hold up its loop for long. With
 * `./vm --batch 2>&1 | reader` and a reader that stopped, the console
 * fills the pipe (the console itself goes through outbuf.h, which never
 * waits), and then the next message ./vm writes to stderr (that stdout is
 * not read, say) waited in write(2) for ever: --timeout never fired and
 * qemu ran on. Now stderr is written through a non-blocking description of
 * its own (opened again from /proc/self/fd/2, as outbuf.c does for stdout:
 * not fd 2's, which the shell, the reader and qemu share), waiting at most
 * ERROUT_STALL seconds for a reader that takes nothing; what it does not
 * take then is dropped, and until it takes something again a message is
 * not waited for at all. fd 2 itself is untouched: qemu and the other
 * programs ./vm starts inherit it as it was. A regular file never waits,
 * and where no description of its own can be had (a socket), stderr stays
 * as it was.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mono.h"
#include "outbuf.h"
#include "vm.h"

#define ERROUT_STALL 2.0

static int own = -1;		/* fd 2's file, non-blocking, of our own */
static int stalled;		/* the reader took nothing for ERROUT_STALL s */

static ssize_t errout_write(void *cookie, const char *buf, size_t n)
{
	double until = mono_secs() + (stalled ? 0 : ERROUT_STALL);
	size_t done = 0;

	(void)cookie;
	while (done < n) {
		struct pollfd pfd = { .fd = own, .events = POLLOUT };
		ssize_t w = write(own, buf + done, n - done);
		double left;

		if (w > 0) {
			done += (size_t)w;
			stalled = 0;
			until = mono_secs() + ERROUT_STALL;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno != EAGAIN)
			return done ? (ssize_t)done : -1;	/* EPIPE, EIO: stdio's error */
		left = until - mono_secs();
		if (left <= 0) {
			stalled = 1;
			break;		/* the rest is dropped: a message is no verdict */
		}
		if (poll(&pfd, 1, (int)(left * 1000) + 1) < 0 && errno != EINTR)
			break;
	}
	return (ssize_t)n;
}

void vm_errout_init(void)
{
	cookie_io_functions_t io = { .write = errout_write };
	struct stat st;
	FILE *f;

	if (own >= 0 || fstat(2, &st) < 0 || S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))
		return;
	own = outbuf_reopen_nonblocking(2);
	if (own < 0)
		return;		/* a socket (ENXIO): stderr as it was */
	f = fopencookie(NULL, "w", io);
	if (!f) {
		close(own);
		own = -1;
		return;
	}
	setvbuf(f, NULL, _IONBF, 0);
	fflush(stderr);
	stderr = f;
}

int vm_errout_fd(void)
{
	return own >= 0 ? own : 2;
}
