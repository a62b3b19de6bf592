// SPDX-License-Identifier: GPL-2.0
/* run.c: children of PID 1: run them, reap every orphan, report the result. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "err.h"
#include "init.h"
#include "io.h"

/* The port the host reads the exit status from: -serial file:... */
#define STATUS_PORT "/dev/ttyS1"

int init_status_code(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 255;
}

/*
 * As PID 1 we inherit every orphan, so wait for any child and keep going
 * until the one we started is done.
 */
static int wait_for(pid_t pid)
{
	for (;;) {
		int st;
		pid_t w = waitpid(-1, &st, 0);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			warn_errno("waitpid");
			return 255;
		}
		if (w == pid)
			return init_status_code(st);
	}
}

int init_run(char *const argv[])
{
	pid_t pid = fork();

	if (pid < 0) {
		warn_errno("fork");
		return 255;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		warn_errno("exec %s", argv[0]);
		_exit(127);
	}
	return wait_for(pid);
}

/* The real tty behind /dev/console (ttyS0): a controlling tty gives job control. */
static char *console_tty(void)
{
	char *text, *last, *p;

	if (read_file("/sys/class/tty/console/active", &text, NULL))
		return xstrdup("/dev/console");
	p = text + strlen(text);
	while (p > text && (p[-1] == '\n' || p[-1] == ' '))
		*--p = '\0';
	last = strrchr(text, ' ');
	last = last ? last + 1 : text;
	p = *last ? xasprintf("/dev/%s", last) : xstrdup("/dev/console");
	free(text);
	return p;
}

int init_run_autorun(int batch)
{
	char *tty = console_tty();
	pid_t pid = fork();

	if (pid < 0) {
		warn_errno("fork");
		free(tty);
		return 255;
	}
	if (pid == 0) {
		int fd;

		if (setsid() < 0)
			warn_errno("setsid");
		fd = open(tty, O_RDWR);
		if (fd < 0) {
			warn_errno("open %s", tty);
		} else {
			if (ioctl(fd, TIOCSCTTY, 1) < 0)
				warn_errno("TIOCSCTTY %s", tty);
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
		if (batch) {
			execl("/bin/bash", "bash", "/rapido/autorun.sh", (char *)NULL);
		} else {
			execl("/bin/bash", "bash", "--rcfile", "/rapido/autorun.sh", "-i",
			      (char *)NULL);
		}
		warn_errno("exec /bin/bash");
		_exit(127);
	}
	free(tty);
	return wait_for(pid);
}

void init_report_status(int status)
{
	char buf[32];
	int fd, n;
	struct termios t;

	fd = open(STATUS_PORT, O_WRONLY | O_NOCTTY);
	if (fd < 0) {
		warn_errno("cannot report exit status %d: open %s", status, STATUS_PORT);
		return;
	}
	/* raw output: no \n -> \r\n translation in the host's file */
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(fd, TCSANOW, &t);
	}
	n = snprintf(buf, sizeof(buf), "%d\n", status);
	if (write_all(fd, buf, (size_t)n))
		warn_errno("write %s", STATUS_PORT);
	/* wait until the UART has sent it: poweroff must not cut it off */
	tcdrain(fd);
	close(fd);
}
