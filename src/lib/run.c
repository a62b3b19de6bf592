// SPDX-License-Identifier: GPL-2.0
/* run.c: fork/exec/wait with an argv array, and PATH lookup. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "mono.h"
#include "run.h"

static pid_t run_start(char *const argv[], int in_fd, int out_fd, int err_fd)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if ((in_fd >= 0 && dup2(in_fd, 0) < 0) || (out_fd >= 0 && dup2(out_fd, 1) < 0) ||
		    (err_fd >= 0 && dup2(err_fd, 2) < 0))
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", err_prog, argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

pid_t run_daemon(char *const argv[], int out_fd, char **err)
{
	int pfd[2], child_errno = 0;
	ssize_t n;
	pid_t pid;

	*err = NULL;
	/* the write end closes on exec: EOF says it ran, an errno says it did not */
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		*err = xasprintf("pipe: %s", strerror(errno));
		return -errno;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(pfd[0]);
		close(pfd[1]);
		*err = xasprintf("fork: %s", strerror(e));
		return -e;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		close(pfd[0]);
		if (setsid() < 0 || null < 0 || dup2(null, 0) < 0 || dup2(out_fd, 1) < 0 ||
		    dup2(out_fd, 2) < 0)
			child_errno = errno;
		else
			execvp(argv[0], argv);
		child_errno = errno;
		if (write(pfd[1], &child_errno, sizeof(child_errno)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	do
		n = read(pfd[0], &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	close(pfd[0]);
	if (n == 0)
		return pid;
	if (n < 0)
		child_errno = errno;
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	*err = xasprintf("cannot run %s: %s", argv[0], strerror(child_errno));
	return -child_errno;
}

int run_wait(char *const argv[], int out_fd)
{
	pid_t pid = run_start(argv, -1, out_fd, out_fd);

	if (pid < 0)
		return pid;
	return run_reap(pid);
}

int run_reap(pid_t pid)
{
	pid_t w;
	int status;

	do
		w = waitpid(pid, &status, 0);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return -errno;
	return status;
}

int run_wait_timeout(char *const argv[], int out_fd, int err_fd, unsigned int secs,
		     int *timed_out)
{
	return run_wait_io(argv, -1, out_fd, err_fd, secs, timed_out);
}

int run_wait_io(char *const argv[], int in_fd, int out_fd, int err_fd, unsigned int secs,
		int *timed_out)
{
	long long end = mono_ms() + secs * 1000LL;
	pid_t pid, w;
	int pidfd, status, err = 0;

	*timed_out = 0;
	pid = run_start(argv, in_fd, out_fd, err_fd);
	if (pid < 0)
		return pid;
	/* the pidfd becomes readable when the child exits: a deadline without polling */
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		err = -errno;
		kill(pid, SIGKILL);
	}
	while (pidfd >= 0) {
		struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
		long long left = end - mono_ms();
		int n = left > 0 ? poll(&pfd, 1, (int)left) : 0;

		if (n > 0)
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = -errno;
		else
			*timed_out = 1;
		kill(pid, SIGKILL);
		break;
	}
	if (pidfd >= 0)
		close(pidfd);
	do
		w = waitpid(pid, &status, 0);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return -errno;
	return err ? err : status;
}

int run_capture(char *const argv[], int err_fd, unsigned int secs, char **out)
{
	int fd = memfd_create("rapido-capture", MFD_CLOEXEC), status, timed_out, rc;
	off_t len;

	*out = NULL;
	if (fd < 0)
		return -errno;
	status = run_wait_timeout(argv, fd, err_fd, secs, &timed_out);
	if (status < 0 || timed_out) {
		close(fd);
		return status < 0 ? status : -ETIMEDOUT;
	}
	len = lseek(fd, 0, SEEK_CUR);
	if (len < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	*out = xmalloc((size_t)len + 1);
	rc = (int)read_full(fd, *out, (size_t)len);
	close(fd);
	if (rc < 0) {
		free(*out);
		*out = NULL;
		return rc;
	}
	(*out)[rc] = '\0';
	return status;
}

static int is_exec(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

char *find_in_path(const char *name)
{
	const char *path = getenv("PATH");
	char *dirs, *save = NULL;

	if (strchr(name, '/'))
		return is_exec(name) ? xstrdup(name) : NULL;
	dirs = xasprintf("%s:/usr/sbin:/sbin:/usr/bin:/bin", path && *path ? path : "");
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", *d ? d : ".", name);

		if (is_exec(p)) {
			free(dirs);
			return p;
		}
		free(p);
	}
	free(dirs);
	return NULL;
}

char *run_first_line(char *const argv[], int err_fd, unsigned int secs)
{
	char *out;

	if (run_capture(argv, err_fd, secs, &out) < 0)
		return NULL;
	if (!*out) {
		free(out);
		return NULL;
	}
	out[strcspn(out, "\n")] = '\0';
	return out;
}
