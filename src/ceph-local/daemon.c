// SPDX-License-Identifier: GPL-2.0
/*
 * daemon.c: the cluster's processes. Each daemon runs in the foreground
 * (-f) of a session of its own, so its PID is the one fork() returned and
 * is written down before anything else happens; stopping goes by that PID
 * alone (never by name), after /proc/PID/cmdline shows it is still that
 * daemon of this cluster, through a pidfd so it cannot be recycled between
 * the check and the signal.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ceph-local.h"
#include "err.h"
#include "io.h"
#include "mono.h"
#include "run.h"

int cl_daemons_read(const char *dir, struct cl_daemon **d, size_t *n)
{
	char *path = xasprintf("%s/%s", dir, CL_DAEMONS), *text, *line, *next;
	int rc = read_file(path, &text, NULL);

	*d = NULL;
	*n = 0;
	free(path);
	if (rc == -ENOENT)
		return 0;
	if (rc)
		return rc;
	for (line = text; line && *line; line = next) {
		struct cl_daemon x;
		char extra;
		long pid;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (sscanf(line, "%31s %ld %c", x.name, &pid, &extra) != 2 || pid <= 1) {
			rc = -EINVAL;
			break;
		}
		x.pid = (pid_t)pid;
		*d = xrealloc(*d, (*n + 1) * sizeof(**d));
		(*d)[(*n)++] = x;
	}
	free(text);
	if (rc) {
		free(*d);
		*d = NULL;
		*n = 0;
	}
	return rc;
}

int cl_daemon_is_ours(pid_t pid, const char *name, const char *conf)
{
	char *path = xasprintf("/proc/%ld/cmdline", (long)pid), *text;
	const char *id = strchr(name, '.');
	int has_conf = 0, has_id = 0;
	size_t len, i;

	if (read_file(path, &text, &len)) {
		free(path);
		return 0;
	}
	free(path);
	/* argv: ceph-TYPE -f -c CONF -i ID ...; a zombie's is empty */
	for (i = 0; i < len; i += strlen(text + i) + 1) {
		const char *a = text + i, *next = i + strlen(a) + 1 < len ? a + strlen(a) + 1 : "";

		if (!strcmp(a, "-c") && !strcmp(next, conf))
			has_conf = 1;
		if (!strcmp(a, "-i") && id && !strcmp(next, id + 1))
			has_id = 1;
	}
	free(text);
	return has_conf && has_id;
}

pid_t cl_daemon_start(const char *dir, const char *name, char *const argv[])
{
	char *log = xasprintf("%s/log/%s.out", dir, name);
	char *list = xasprintf("%s/%s", dir, CL_DAEMONS);
	char line[64], *err;
	int fd, lfd;
	pid_t pid;

	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		die_errno("%s", log);
	lfd = open(list, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (lfd < 0)
		die_errno("%s", list);
	pid = run_daemon(argv, fd, &err);
	if (pid < 0)
		die("%s (log: %s)", err, log);
	snprintf(line, sizeof(line), "%s %ld\n", name, (long)pid);
	if (write_all(lfd, line, strlen(line)) || fsync(lfd) < 0 || close(lfd) < 0) {
		kill(pid, SIGKILL);
		die_errno("%s", list);
	}
	close(fd);
	free(log);
	free(list);
	return pid;
}

/* Wait until every pidfd in fds (-1: none) is readable (exited) or ms pass. */
static void wait_exit(int *fds, size_t n, long long ms)
{
	long long end = mono_ms() + ms;

	for (;;) {
		struct pollfd *p = xcalloc(n ? n : 1, sizeof(*p));
		size_t k = 0;
		long long left = end - mono_ms();
		int r;

		for (size_t i = 0; i < n; i++)
			if (fds[i] >= 0) {
				p[k].fd = fds[i];
				p[k++].events = POLLIN;
			}
		if (!k || left <= 0) {
			free(p);
			return;
		}
		r = poll(p, k, (int)left);
		for (size_t j = 0; r > 0 && j < k; j++)
			if (p[j].revents)
				for (size_t i = 0; i < n; i++)
					if (fds[i] == p[j].fd) {
						close(fds[i]);
						fds[i] = -1;
					}
		free(p);
		if (r < 0 && errno != EINTR)
			return;
	}
}

/*
 * SIGTERM the daemons of d[] that are still ours, all at once, wait up to
 * grace_secs, SIGKILL the rest. Returns how many survived that.
 */
static int stop_all(const struct cl_daemon *d, size_t n, const char *conf,
		    unsigned int grace_secs)
{
	int *fds = xcalloc(n ? n : 1, sizeof(*fds)), left = 0;

	for (size_t i = 0; i < n; i++) {
		fds[i] = (int)syscall(SYS_pidfd_open, d[i].pid, 0);
		if (fds[i] < 0)
			continue;	/* gone already */
		if (!cl_daemon_is_ours(d[i].pid, d[i].name, conf)) {
			close(fds[i]);
			fds[i] = -1;
			continue;	/* gone, a zombie, or the PID is someone else's now */
		}
		if (syscall(SYS_pidfd_send_signal, fds[i], SIGTERM, NULL, 0) < 0 && errno != ESRCH)
			warn_errno("cannot stop %s (pid %ld)", d[i].name, (long)d[i].pid);
	}
	wait_exit(fds, n, grace_secs * 1000LL);
	/*
	 * An MDS takes some 10s to leave after SIGTERM; its cluster is about
	 * to be deleted, so there is nothing to wait for.
	 */
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0)
			syscall(SYS_pidfd_send_signal, fds[i], SIGKILL, NULL, 0);
	wait_exit(fds, n, 10000);
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0) {
			warn("%s (pid %ld) survived SIGKILL", d[i].name, (long)d[i].pid);
			close(fds[i]);
			left++;
		}
	free(fds);
	return left;
}

int cl_daemons_stop(const char *dir, unsigned int grace_secs)
{
	char *conf = xasprintf("%s/ceph.conf", dir);
	struct cl_daemon *d;
	size_t n;
	int left, rc;

	rc = cl_daemons_read(dir, &d, &n);
	if (rc) {
		/* no die(): this runs at exit too, when up fails */
		warn_err(rc, "%s/%s: cannot tell which daemons to stop", dir, CL_DAEMONS);
		free(conf);
		return 1;
	}
	left = stop_all(d, n, conf, grace_secs);
	free(d);
	free(conf);
	return left;
}

unsigned long cl_rss_kib(pid_t pid)
{
	char *path = xasprintf("/proc/%ld/status", (long)pid), *text, *p;
	unsigned long kib = 0;

	if (!read_file(path, &text, NULL)) {
		p = strstr(text, "\nVmRSS:");
		if (p)
			kib = strtoul(p + 7, NULL, 10);
		free(text);
	}
	free(path);
	return kib;
}
