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
#include "protocol.h"

/* The port the host reads the exit status from: -serial file:..., unless rapido.status= */
#define STATUS_PORT "/dev/" PORT_STATUS_UART

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

/*
 * The real tty behind /dev/console (ttyS0): a controlling tty gives job
 * control. The kernel command line's last console= names it (./vm's
 * console=ttyS0, init_run_autorun): sysfs's console/active, whose first
 * read was 2 to 4 ms of TCG before the autorun's fork, only when there is
 * none, or it cannot be opened.
 */
static char *sysfs_console_tty(void)
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

/*
 * The child tells the parent why it could not start bash through a
 * close-on-exec pipe: a successful exec closes it with nothing written.
 * Without this, bash missing from a truncated image would look like a
 * script that exited 127.
 */
static void child_failed(int fd, const char *what)
{
	char msg[STATUS_MSG_MAX];
	int n = snprintf(msg, sizeof(msg), "%s: %s", what, strerror(errno));

	if (n > 0)
		(void)write_all(fd, msg, strnlen(msg, sizeof(msg) - 1));
	_exit(127);
}

/*
 * Wait for the autorun's session leader, or for a power-off asked of PID 1
 * by a signal, as busybox's halt, poweroff and reboot ask their init
 * (SIGUSR1, SIGUSR2, SIGTERM) and the guest library's do from a shell
 * other than the autorun's own (rapido.sh). The signals and SIGCHLD are
 * blocked and taken with sigwaitinfo: one that comes before the wait is
 * not lost. *asked is the signal, 0 when the leader exited.
 */
static int wait_autorun(pid_t pid, const sigset_t *set, int *asked, pid_t *sender)
{
	*asked = 0;
	*sender = 0;
	for (;;) {
		siginfo_t si;
		int st, sig;
		pid_t w = waitpid(-1, &st, WNOHANG);

		if (w == pid)
			return init_status_code(st);
		if (w > 0)
			continue;
		if (w < 0 && errno != EINTR) {
			warn_errno("waitpid");
			return 255;
		}
		memset(&si, 0, sizeof(si));
		sig = sigwaitinfo(set, &si);
		if (sig < 0 && errno != EINTR) {
			warn_errno("sigwaitinfo");
			return 255;
		}
		if (sig == SIGUSR1 || sig == SIGUSR2 || sig == SIGTERM) {
			*asked = sig;
			*sender = si.si_pid;
			return 0;
		}
	}
}

int init_run_autorun(const struct init_cmdline *cl, struct status_record *r, pid_t *sender)
{
	static const char script[] = "/rapido/autorun.sh";
	char *tty = *cl->console ? xasprintf("/dev/%s", cl->console) : sysfs_console_tty();
	sigset_t set, old;
	int pfd[2], asked = 0;
	ssize_t got;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	*sender = 0;
	r->kind = STATUS_INIT_ERROR;
	r->code = 255;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, NULL, &old) < 0)
		warn_errno("sigprocmask");
	if (access(script, R_OK) < 0) {
		snprintf(r->msg, sizeof(r->msg), "%s: %s", script, strerror(errno));
		goto out;
	}
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(r->msg, sizeof(r->msg), "pipe: %s", strerror(errno));
		goto out;
	}
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		warn_errno("sigprocmask");
	pid = fork();
	if (pid < 0) {
		snprintf(r->msg, sizeof(r->msg), "fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		goto out;
	}
	if (pid == 0) {
		pid_t bash;
		int fd, code;

		/* the mask survives exec: bash and its children get PID 1's as it was */
		if (sigprocmask(SIG_SETMASK, &old, NULL) < 0)
			warn_errno("sigprocmask");
		close(pfd[0]);
		if (setsid() < 0)
			warn_errno("setsid");
		fd = open(tty, O_RDWR);
		if (fd < 0 && *cl->console) {
			free(tty);
			tty = sysfs_console_tty();
			fd = open(tty, O_RDWR);
		}
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
		/*
		 * This process stays the session leader and bash runs as its
		 * child: when a session leader exits, the kernel hangs up its
		 * controlling tty and so throws away what is still queued for
		 * the UART (slow under TCG): the last lines the profile printed.
		 * The leader waits for bash, drains the tty, then exits with
		 * bash's status.
		 */
		bash = fork();
		if (bash < 0)
			child_failed(pfd[1], "fork");
		if (bash == 0) {
			if (cl->batch)
				execl("/bin/bash", "bash", script, (char *)NULL);
			else
				execl("/bin/bash", "bash", "--rcfile", script, "-i", (char *)NULL);
			child_failed(pfd[1], "exec /bin/bash");
		}
		close(pfd[1]);
		code = wait_for(bash);
		if (tcdrain(STDOUT_FILENO) < 0 && errno != ENOTTY && errno != EBADF)
			warn_errno("tcdrain %s", tty);
		_exit(code);
	}
	close(pfd[1]);
	do
		got = read(pfd[0], r->msg, sizeof(r->msg) - 1);
	while (got < 0 && errno == EINTR);
	close(pfd[0]);
	if (got > 0) {
		r->msg[got] = '\0';
		wait_for(pid);
		goto out;
	}
	r->msg[0] = '\0';
	r->kind = STATUS_EXIT;
	r->code = wait_autorun(pid, &set, &asked, sender);
	if (asked)
		goto out;
	/*
	 * 127 is also what the dynamic loader exits with when bash's libraries
	 * are missing (exec itself worked). Only then, ask whether bash can
	 * run at all, so a script's own "command not found" stays its status.
	 */
	if (r->code == 127) {
		char *probe[] = { "/bin/bash", "-c", ":", NULL };
		int st = init_run(probe);

		if (st) {
			r->kind = STATUS_INIT_ERROR;
			r->code = 255;
			snprintf(r->msg, sizeof(r->msg),
				 "/bin/bash cannot run (exit status %d; its libraries may be missing from the image, see the console)",
				 st);
		}
	}
out:
	/* a power-off signal from now on finds no handler: PID 1 ignores it */
	if (sigprocmask(SIG_SETMASK, &old, NULL) < 0)
		warn_errno("sigprocmask");
	if (r->kind == STATUS_INIT_ERROR)
		warn("%s", r->msg);
	free(tty);
	return asked;
}

void init_kill_all(void)
{
	/* as PID 1, kill(-1) reaches every process except ourselves */
	if (kill(-1, SIGKILL) < 0 && errno != ESRCH)
		warn_errno("kill(-1, SIGKILL)");
	for (;;) {
		pid_t w = waitpid(-1, NULL, 0);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			break;	/* ECHILD: all gone */
	}
}

/* The status port's device: the virtio port (its module loaded at boot) may still be probing. */
static char *status_port(const struct init_cmdline *cl)
{
	char *port;

	if (!*cl->status_port)
		return xstrdup(STATUS_PORT);
	port = init_wait_port(cl->status_port, 300);
	if (!port)
		warn("the status port %s did not appear (is virtio_console loaded?)", cl->status_port);
	return port;
}

int init_open_status(const struct init_cmdline *cl)
{
	char *port;
	int fd;

	port = status_port(cl);
	if (!port)
		return -1;
	fd = open(port, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		warn_errno("cannot open the status port %s: no exit status will reach ./vm", port);
	free(port);
	return fd;
}

void init_report_status(const struct init_cmdline *cl, int fd, const struct status_record *r)
{
	char buf[STATUS_RECORD_MAX];
	struct termios t;
	size_t n;
	int tty;

	if (!*cl->nonce)
		warn("no " KP_NONCE " on the kernel command line: ./vm will not accept the status");
	if (fd < 0) {
		warn("cannot report exit status %d: the status port was not opened at boot", r->code);
		return;
	}
	/* raw output: no \n -> \r\n translation, no echo games on the host side */
	tty = tcgetattr(fd, &t) == 0;
	if (tty) {
		cfmakeraw(&t);
		if (tcsetattr(fd, TCSANOW, &t) < 0)
			warn_errno("tcsetattr of the status port");
	}
	n = status_record_format(buf, cl->nonce, r);
	if (write_all(fd, buf, n))
		warn_errno("write to the status port");
	/*
	 * wait until the UART has sent it: poweroff must not cut it off (a
	 * virtio port's write returns once the host has taken the bytes)
	 */
	if (tty && tcdrain(fd) < 0)
		warn_errno("tcdrain of the status port");
	close(fd);
}
