// SPDX-License-Identifier: GPL-2.0
/*
 * console.c: ./vmctl N shell and ./vmctl N exec CMD, over the console
 * shell's port (VM_STATE_DIR/vmN.hvc: x86's third UART, the virtio console
 * elsewhere) on which the guest init keeps a bash.
 * No network is needed in the guest.
 *
 * exec types a line that runs rapido-exec (tools/exec), which runs the
 * command and answers in frames (src/proto/execframe.h) that carry its
 * stdout and stderr byte for byte and its exit status, whatever the tty's
 * line discipline, the shell's echo or kernel messages do to the console.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "base64.h"
#include "err.h"
#include "execframe.h"
#include "io.h"
#include "mono.h"
#include "status.h"
#include "strbuf.h"
#include "usock.h"
#include "vmctl.h"

/* how long ./vmctl N shell waits for the guest's console to answer */
#define VMCTL_SHELL_WAKE_SECS 120u

/* Connect to the console socket; -errno with a message in *err. */
static int console_connect(const char *path, unsigned int vm, char **err)
{
	int fd = usock_connect(path);

	if (fd == -ENAMETOOLONG)
		*err = xasprintf("socket path %s is too long", path);
	else if (fd == -ENOENT || fd == -ECONNREFUSED)
		*err = xasprintf("vm%u is not running (no console socket at %s)", vm, path);
	else if (fd < 0)
		*err = xasprintf("%s: %s", path, strerror(-fd));
	return fd;
}

/* how often an empty line goes to a console that has not answered yet */
#define WAKE_MS 250

/*
 * Until the guest's console answers: an empty line now, and again every
 * WAKE_MS until a byte comes back (the line's echo, a prompt). On a UART
 * (x86's ttyS2) what arrives before the guest opens the port is lost: the
 * 8250 driver clears its FIFO then. The guest keeps the port open from
 * early in its boot and starts the shell at the first line. Returns the
 * bytes read into buf (to show, or to drop), -ETIMEDOUT after secs, or
 * -EPIPE when the console closed.
 */
static ssize_t console_wake(int fd, unsigned int secs, char *buf, size_t cap)
{
	double t0 = mono_secs();

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double left = secs - (mono_secs() - t0);
		int n;
		ssize_t got;

		if (left <= 0)
			return -ETIMEDOUT;
		if (write_all(fd, "\n", 1))
			return -EPIPE;
		n = poll(&p, 1, left * 1000 < WAKE_MS ? (int)(left * 1000) + 1 : WAKE_MS);
		if (n < 0 && errno != EINTR)
			die_errno("poll");
		if (n <= 0)
			continue;
		got = read(fd, buf, cap);
		if (got < 0 && errno == EINTR)
			continue;
		return got > 0 ? got : -EPIPE;
	}
}

/* base64 characters per typed line: far below the 4095 a canonical-mode tty line holds */
#define CMD_LINE_CHARS 1024

/*
 * The line typed to the console shell. The leading space keeps it out of
 * the history (HISTCONTROL=ignorespace). The command goes as base64, in
 * parts on lines of their own (a backslash-newline between), with its
 * CRC-32: no tab for readline to complete, no ^C or ^U for the line
 * discipline, no line it cuts short, and a damaged one is refused, not run.
 * The line never holds NONCE followed by ':', so its echo is never a frame.
 */
static char *exec_line(const char *nonce, const char *cmd)
{
	size_t len = strlen(cmd), blen = BASE64_LEN(len);
	char *b64 = xmalloc(blen + 1), head[128], tail[128];
	struct strbuf sb = STRBUF_INIT;

	base64_encode(b64, cmd, len);
	snprintf(head, sizeof(head), " if command -v rapido-exec >/dev/null; then rapido-exec %s %08x",
		 nonce, crc32_buf(0, cmd, len));
	strbuf_adds(&sb, head);
	for (size_t i = 0; i < blen; i += CMD_LINE_CHARS) {
		strbuf_adds(&sb, " \\\n");
		strbuf_add(&sb, b64 + i, blen - i < CMD_LINE_CHARS ? blen - i : CMD_LINE_CHARS);
	}
	snprintf(tail, sizeof(tail), "; else printf '%%s%%s\\n' %s :%c; fi\n", nonce,
		 EXECFRAME_NO_HELPER);
	strbuf_adds(&sb, tail);
	free(b64);
	return sb.s;
}

/* The command's stdout and stderr, as their frames come. */
static void exec_output(const struct execframe *f, void *arg)
{
	FILE *to = f->kind == EXECFRAME_OUT ? stdout : stderr;

	(void)arg;
	if (fwrite(f->data, 1, f->len, to) == f->len)
		fflush(to);
}

int vmctl_exec(const char *sock, unsigned int vm, const char *cmd, unsigned int start_secs)
{
	struct execframe_reader *rd = xmalloc(sizeof(*rd));
	unsigned char r[EXECFRAME_NONCE_LEN / 2];
	char nonce[EXECFRAME_NONCE_LEN + 1], *line, *err, buf[4096];
	int fd, rc = 0;
	double t0 = mono_secs();

	fd = console_connect(sock, vm, &err);
	if (fd < 0) {
		fprintf(stderr, "vmctl: %s\n", err);
		free(err);
		free(rd);
		return 3;
	}
	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		die_errno("getrandom");
	for (size_t i = 0; i < sizeof(r); i++)
		sprintf(nonce + 2 * i, "%02x", r[i]);
	execframe_reader_init(rd, nonce);
	/* what it answers with (echo, prompts) holds no frame: no command was sent */
	rc = (int)console_wake(fd, start_secs, buf, sizeof(buf));
	if (rc < 0) {
		if (rc == -ETIMEDOUT)
			fprintf(stderr, "vmctl: vm%u: no shell answered on the console within %us (is the "
				"guest up? images cut before this version have no console shell)\n",
				vm, start_secs);
		else
			fprintf(stderr, "vmctl: vm%u: the console closed before the shell answered (the VM "
				"stopped?)\n", vm);
		free(rd);
		close(fd);
		return 4;
	}
	rc = 0;
	line = exec_line(nonce, cmd);
	if (write_all(fd, line, strlen(line))) {
		fprintf(stderr, "vmctl: vm%u console: %s\n", vm, strerror(errno));
		free(line);
		free(rd);
		close(fd);
		return 3;
	}
	free(line);
	while (!rc) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int timeout = -1;
		ssize_t n;

		if (rd->state == EXECFRAME_WAITING) {
			double left = start_secs - (mono_secs() - t0);

			if (left <= 0) {
				fprintf(stderr, "vmctl: vm%u: no shell answered on the console within %us "
					"(is the guest up? images cut before this version have no console "
					"shell)\n", vm, start_secs);
				rc = -ETIMEDOUT;
				break;
			}
			timeout = (int)(left * 1000) + 1;
		}
		if (poll(&p, 1, timeout) < 0) {
			if (errno == EINTR)
				continue;
			die_errno("poll");
		}
		if (!p.revents)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "vmctl: vm%u: the console closed before %s finished (the VM stopped?)\n",
				vm, rd->state == EXECFRAME_RUNNING ? "the command" : "the shell answered");
			rc = -EPIPE;
			break;
		}
		rc = execframe_reader_feed(rd, buf, (size_t)n, exec_output, NULL);
	}
	close(fd);
	switch (rc) {
	case 1:
		rc = rd->status;
		break;
	case -EBADMSG:
		fprintf(stderr, "vmctl: vm%u: the answer did not arrive whole, so the command's output and "
			"status are unknown: %s (is the kernel printing on the console shell's port, "
			"console=ttyS2 or console=hvc0?)\n", vm, rd->err);
		break;
	case -ENOEXEC:
		fprintf(stderr, "vmctl: vm%u: %s: cut it again\n", vm, rd->err);
		break;
	case -ECANCELED:
		fprintf(stderr, "vmctl: vm%u: rapido-exec did not run the command: %s\n", vm, rd->err);
		break;
	case -EPROTO:
		fprintf(stderr, "vmctl: vm%u: %s\n", vm, rd->err);
		break;
	}
	free(rd);
	if (rc < 0)
		return 4;	/* there, but no whole answer (vmctl's EXIT_NO_ANSWER) */
	close_stdout();
	return rc;
}

int vmctl_shell(const char *sock, unsigned int vm)
{
	struct termios saved, raw;
	int fd, tty = isatty(0), rc = 0;
	char *err;

	fd = console_connect(sock, vm, &err);
	if (fd < 0) {
		fprintf(stderr, "vmctl: %s\n", err);
		free(err);
		return 3;
	}
	if (tty) {
		if (tcgetattr(0, &saved) < 0)
			die_errno("tcgetattr");
		raw = saved;
		cfmakeraw(&raw);
		if (tcsetattr(0, TCSANOW, &raw) < 0)
			die_errno("tcsetattr");
		fprintf(stderr, "vmctl: vm%u shell on its console; Ctrl-] leaves\r\n", vm);
	}
	/* a fresh prompt, once the guest answers */
	{
		char buf[4096];
		ssize_t n = console_wake(fd, VMCTL_SHELL_WAKE_SECS, buf, sizeof(buf));

		if (n < 0) {
			if (tty)
				tcsetattr(0, TCSANOW, &saved);
			if (n == -ETIMEDOUT)
				fprintf(stderr, "vmctl: vm%u: no shell answered on the console within "
					"%us (is the guest up?)\n", vm, VMCTL_SHELL_WAKE_SECS);
			else
				fprintf(stderr, "vmctl: vm%u: the console closed (the VM stopped?)\n", vm);
			close(fd);
			return 4;
		}
		if (write_all(1, buf, (size_t)n))
			rc = 3;
	}
	while (!rc) {
		struct pollfd p[2] = { { .fd = 0, .events = POLLIN }, { .fd = fd, .events = POLLIN } };
		char buf[4096];
		ssize_t n;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents) {
			n = read(fd, buf, sizeof(buf));
			if (n <= 0)
				break;	/* the VM stopped */
			if (write_all(1, buf, (size_t)n))
				break;
		}
		if (p[0].revents) {
			n = read(0, buf, sizeof(buf));
			if (n <= 0)
				break;
			if (tty && memchr(buf, 0x1d, (size_t)n))	/* Ctrl-] */
				break;
			if (write_all(fd, buf, (size_t)n))
				break;
		}
	}
	if (tty)
		tcsetattr(0, TCSANOW, &saved);
	close(fd);
	return rc;
}
