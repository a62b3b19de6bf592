// SPDX-License-Identifier: GPL-2.0
/*
 * run.c: rapido-exec's work: decode the command, run it, frame what it
 * writes. The command's own exit ends the answer, not the end of its
 * output: a process it leaves in the background may hold its stdout open
 * for good (as `( CMD )` on the console shell, before this helper, returned
 * at once too). What the command wrote before it exited is all in the pipes
 * by then, and is read out before the exit frame.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "exec.h"
#include "execframe.h"
#include "io.h"
#include "status.h"

/* what a pipe may still hold once the command exited: read at most this much of it */
#define DRAIN_MAX (1024 * 1024)

char *exec_cmd_decode(char *const *parts, size_t n, const char *crc, const char **why)
{
	size_t len = 0, k = 0;
	uint32_t want;
	char *b64, *cmd;
	ssize_t got;

	for (size_t i = 0; i < n; i++)
		len += strlen(parts[i]);
	*why = "the command is longer than bash -c takes";
	if (len > BASE64_LEN(EXECFRAME_CMD_MAX))
		return NULL;
	*why = "its CRC is not 8 lowercase hex digits";
	if (strlen(crc) != 8 || execframe_crc_parse(crc, &want))
		return NULL;
	b64 = xmalloc(len + 1);
	for (size_t i = 0; i < n; i++) {
		memcpy(b64 + k, parts[i], strlen(parts[i]));
		k += strlen(parts[i]);
	}
	cmd = xmalloc(len / 4 * 3 + 1);
	got = base64_decode(cmd, b64, len);
	free(b64);
	*why = "the command arrived damaged (not base64: cut short on the console?)";
	if (got < 0)
		goto bad;
	cmd[got] = '\0';
	*why = "the command arrived damaged (its CRC does not match)";
	if (crc32_buf(0, cmd, (size_t)got) != want)
		goto bad;
	*why = "the command holds a NUL byte";
	if (strlen(cmd) != (size_t)got)
		goto bad;
	return cmd;
bad:
	free(cmd);
	return NULL;
}

int exec_frame(const char *nonce, int kind, unsigned long seq, const void *data, size_t len)
{
	char line[EXECFRAME_LINE_MAX + 2];

	/* one write each: a tty write is not split by another writer's (the kernel's aside) */
	return write_all(1, line, execframe_format(line, nonce, kind, seq, data, len));
}

struct run {
	const char *nonce;
	unsigned long seq;
	int gone;		/* the console failed: stop framing */
};

static void frame(struct run *r, int kind, const void *data, size_t len)
{
	if (!r->gone && exec_frame(r->nonce, kind, r->seq++, data, len))
		r->gone = 1;
}

static int refuse(struct run *r, const char *what)
{
	char msg[EXECFRAME_DATA_MAX];
	int n = snprintf(msg, sizeof(msg), "%s: %s", what, strerror(errno));

	frame(r, EXECFRAME_REFUSED, msg, n < (int)sizeof(msg) ? (size_t)n : sizeof(msg) - 1);
	return 1;
}

/* Frame what fd has now (at most max bytes, -1 for one read); 0 at EOF or on error, else 1. */
static int pump(struct run *r, int fd, int kind, long max)
{
	char buf[EXECFRAME_DATA_MAX];

	do {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 1;
		if (n <= 0)
			return 0;
		frame(r, kind, buf, (size_t)n);
		max -= n;
	} while (max > 0);
	return 1;
}

static void child(const char *cmd, int out, int err, const sigset_t *mask)
{
	const char *root = getenv("RAPIDO_EXEC_ROOT");
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) {
		/* fd 2 may be the console still: the message goes into the answer only if it is the pipe */
		dprintf(err, "rapido-exec: setting up the command's stdin, stdout and stderr: %s\n",
			strerror(errno));
		_exit(126);
	}
	sigprocmask(SIG_SETMASK, mask, NULL);
	/*
	 * A profile that made another root for the command (hostfs: the
	 * host's userspace) says where: the command runs there, with that
	 * root's bash and the usual PATH, not the image's.
	 */
	if (root && *root) {
		if (chroot(root) < 0 || chdir("/") < 0) {
			fprintf(stderr, "rapido-exec: RAPIDO_EXEC_ROOT=%s: %s\n", root, strerror(errno));
			_exit(126);
		}
		setenv("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", 1);
	}
	execl("/bin/bash", "bash", "-c", cmd, (char *)NULL);
	fprintf(stderr, "rapido-exec: /bin/bash: %s\n", strerror(errno));
	_exit(127);
}

int exec_run(const char *nonce, unsigned long seq, const char *cmd)
{
	struct run r = { .nonce = nonce, .seq = seq };
	int out[2], err[2], sfd, status = 0;
	struct pollfd p[3];
	sigset_t chld, old;
	unsigned char code;
	pid_t pid;

	/* an ignored SIGCHLD (inherited through exec) reaps children unseen */
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &chld, &old) < 0)
		return refuse(&r, "sigprocmask");
	sfd = signalfd(-1, &chld, SFD_CLOEXEC);
	if (sfd < 0)
		return refuse(&r, "signalfd");
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0)
		return refuse(&r, "pipe");
	pid = fork();
	if (pid < 0)
		return refuse(&r, "fork");
	if (pid == 0)
		child(cmd, out[1], err[1], &old);
	close(out[1]);
	close(err[1]);
	p[0] = (struct pollfd){ .fd = out[0], .events = POLLIN };
	p[1] = (struct pollfd){ .fd = err[0], .events = POLLIN };
	p[2] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	for (;;) {
		struct signalfd_siginfo si;
		pid_t w;

		if (poll(p, 3, -1) < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			errno = e;
			return refuse(&r, "poll");
		}
		for (int i = 0; i < 2; i++)
			if (p[i].revents && !pump(&r, p[i].fd, i ? EXECFRAME_ERR : EXECFRAME_OUT, -1))
				p[i].fd = -1;
		if (!p[2].revents)
			continue;
		if (read(sfd, &si, sizeof(si)) < 0 && errno != EAGAIN && errno != EINTR)
			p[2].fd = -1;	/* cannot happen; waitpid below still tells */
		w = waitpid(pid, &status, p[2].fd < 0 ? 0 : WNOHANG);
		if (w == pid)
			break;
	}
	/* all it wrote before it exited is in the pipes now */
	for (int i = 0; i < 2; i++) {
		int fd = i ? err[0] : out[0];

		if (p[i].fd >= 0 && fcntl(fd, F_SETFL, O_NONBLOCK) == 0)
			pump(&r, fd, i ? EXECFRAME_ERR : EXECFRAME_OUT, DRAIN_MAX);
	}
	close(out[0]);
	close(err[0]);
	close(sfd);
	code = WIFSIGNALED(status) ? (unsigned char)(128 + WTERMSIG(status)) :
	       (unsigned char)WEXITSTATUS(status);
	frame(&r, EXECFRAME_EXIT, &code, 1);
	return code;
}
