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
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
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
		/* EPIPE, EIO: dropped too (a cookie's write must not return -1) */
		if (w < 0 && errno != EAGAIN)
			break;
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

/*
 * A child of ./vm (qemu's, virtiofsd's, run.c's, a --jobs shard) writes its
 * messages to fd 2 as it is there, which it may have moved (virtiofsd's
 * log): stdio's own stderr again, and no description of ours.
 */
static FILE *orig;

static void errout_child(void)
{
	if (!orig)
		return;
	stderr = orig;
	close(own);
	own = -1;
}

void vm_errout_init(void)
{
	cookie_io_functions_t io = { .write = errout_write };
	struct stat st;
	FILE *f;
	int fd;

	if (own >= 0 || fstat(2, &st) < 0 || S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))
		return;
	fd = outbuf_reopen_nonblocking(2);
	if (fd < 0)
		return;		/* a socket (ENXIO): stderr as it was */
	/* above the numbers the children's dup2()s take (spawn.c: 3..6; virtiofsd's 3) */
	own = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	close(fd);
	if (own < 0)
		return;
	f = fopencookie(NULL, "w", io);
	if (!f || pthread_atfork(NULL, NULL, errout_child)) {
		if (f)
			fclose(f);
		close(own);
		own = -1;
		return;
	}
	setvbuf(f, NULL, _IONBF, 0);
	fflush(stderr);
	orig = stderr;
	stderr = f;
}

int vm_errout_fd(void)
{
	return own >= 0 ? own : 2;
}
