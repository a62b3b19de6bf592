// SPDX-License-Identifier: GPL-2.0
/*
 * console.c: ./vmctl N shell and ./vmctl N exec CMD, over the virtio
 * console (VM_STATE_DIR/vmN.hvc) on which the guest init keeps a bash.
 * No network is needed in the guest.
 *
 * exec frames the command's output between two marker lines that only
 * the shell's execution can print (the markers are assembled by printf
 * from two words, so the terminal's echo of the command line never
 * contains them), and reads the status from the closing marker.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "mono.h"
#include "vmctl.h"

/* Connect to the console socket; -errno with a message in *err. */
static int console_connect(const char *path, unsigned int vm, char **err)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		*err = xasprintf("socket path %s is too long", path);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		*err = xasprintf("socket: %s", strerror(errno));
		return -errno;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int e = errno;

		close(fd);
		if (e == ENOENT || e == ECONNREFUSED)
			*err = xasprintf("vm%u is not running (no console socket at %s)", vm, path);
		else
			*err = xasprintf("%s: %s", path, strerror(e));
		return -e;
	}
	return fd;
}

int vmctl_exec(const char *sock, unsigned int vm, const char *cmd, unsigned int start_secs)
{
	unsigned char r[8];
	char tag[24], begin[40], end[40], *script, *err, buf[4096];
	char *line = NULL, *pending = NULL;
	size_t len = 0, cap = 0;
	int fd, started = 0, status = -1;
	double t0 = mono_secs();

	fd = console_connect(sock, vm, &err);
	if (fd < 0) {
		fprintf(stderr, "vmctl: %s\n", err);
		free(err);
		return 3;
	}
	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		die_errno("getrandom");
	snprintf(tag, sizeof(tag), "R%02x%02x%02x%02x%02x%02x%02x%02x", r[0], r[1], r[2], r[3], r[4],
		 r[5], r[6], r[7]);
	snprintf(begin, sizeof(begin), "%s-B", tag);
	snprintf(end, sizeof(end), "%s-E ", tag);
	/* a subshell: the command's own exit must not end the console's shell */
	script = xasprintf(" stty -echo 2>/dev/null; printf '%%s-%%s\\n' %s B; (\n%s\n) < /dev/null; "
			   "printf '\\n%%s-%%s %%d\\n' %s E $?\n", tag, cmd, tag);
	if (write_all(fd, script, strlen(script))) {
		fprintf(stderr, "vmctl: vm%u console: %s\n", vm, strerror(errno));
		free(script);
		close(fd);
		return 3;
	}
	free(script);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int timeout = -1;
		ssize_t n;

		if (!started) {
			double left = start_secs - (mono_secs() - t0);

			if (left <= 0) {
				fprintf(stderr, "vmctl: vm%u: no shell answered on the virtio console within "
					"%us (is the guest up? images cut before this version have no "
					"console shell)\n", vm, start_secs);
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
				vm, started ? "the command" : "the shell answered");
			break;
		}
		for (ssize_t i = 0; i < n; i++) {
			/* room for this byte and a NUL */
			if (len + 2 > cap) {
				cap = cap ? cap * 2 : 256;
				line = xrealloc(line, cap);
			}
			if (buf[i] != '\n') {
				line[len++] = buf[i];
				continue;
			}
			if (len && line[len - 1] == '\r')
				len--;
			line[len] = '\0';
			/*
			 * Lines are printed one behind: the closing printf starts
			 * with a newline of its own (for output without a final
			 * one), so an empty line just before the end marker is
			 * that newline, not the command's.
			 */
			if (!started) {
				started = !!strstr(line, begin);
			} else if (!strncmp(line, end, strlen(end))) {
				if (pending && *pending)
					printf("%s\n", pending);
				status = atoi(line + strlen(end));
				goto done;
			} else {
				if (pending)
					printf("%s\n", pending);
				free(pending);
				pending = xstrdup(line);
			}
			len = 0;
		}
	}
done:
	free(line);
	free(pending);
	close(fd);
	if (status < 0)
		return 4;	/* there, but no answer (vmctl's EXIT_NO_ANSWER) */
	close_stdout();
	return status;
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
		fprintf(stderr, "vmctl: vm%u shell on the virtio console; Ctrl-] leaves\r\n", vm);
	}
	/* a fresh prompt */
	if (write_all(fd, "\n", 1))
		rc = 3;
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
