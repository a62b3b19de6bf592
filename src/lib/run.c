// SPDX-License-Identifier: GPL-2.0
/* run.c: fork/exec/wait with an argv array, and PATH lookup. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "run.h"

int run_wait(char *const argv[], int out_fd)
{
	pid_t pid, w;
	int status;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (out_fd >= 0 && (dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0))
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", err_prog, argv[0], strerror(errno));
		_exit(127);
	}
	do
		w = waitpid(pid, &status, 0);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return -errno;
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
