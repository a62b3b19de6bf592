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
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "hash.h"
#include "io.h"
#include "mono.h"
#include "run.h"
#include "strv.h"

static void path_dirs_forget_names(void);

static pid_t run_start(char *const argv[], int in_fd, int out_fd, int err_fd)
{
	pid_t pid;

	path_dirs_forget_names();	/* what it runs may install a program (a profile's prepare) */
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

int run_die_with_parent(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		return -1;
	/* set after parent ended: no signal comes, the new parent is another */
	return getppid() == parent ? 0 : -1;
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
		/*
		 * in /, as systemd starts a daemon: it pins no one's mount, and
		 * a relative path built into it resolves as its packager meant
		 * (Debian 13's ceph-osd looks for its object classes in
		 * "lib/x86_64-linux-gnu/rados-classes": rbd create then fails
		 * with EOPNOTSUPP anywhere else)
		 */
		if (setsid() < 0 || chdir("/") < 0 || null < 0 || dup2(null, 0) < 0 ||
		    dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
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

/* A regular file we may execute, named relative to dirfd (AT_FDCWD: name is a path). */
static int is_exec_at(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, 0) == 0 && S_ISREG(st.st_mode) &&
	       faccessat(dirfd, name, X_OK, 0) == 0;
}

/*
 * The directories find_in_path searches, each opened once (O_PATH): a
 * profile looks up over a hundred programs, and a lookup relative to an
 * open directory walks one name instead of the directory's whole path.
 * A directory that is one already listed (a PATH that names one twice,
 * /bin beside /usr/bin on a merged /usr) is left out: whatever it holds
 * was found there first. A relative entry is searched by its path, from
 * the working directory of the moment; one that does not exist is skipped.
 * Rebuilt when PATH changes.
 */
struct path_dir {
	char *dir;
	int fd;			/* AT_FDCWD: look up by path */
	dev_t dev;
	ino_t ino;
	/* its names, once listed: a hash set (power-of-two slots, NULL empty) */
	char **names;
	size_t slots;
	int unlisted;		/* it could not be listed: stat each name */
	unsigned int misses;	/* names asked for that it did not hold */
};

/*
 * A directory that did not hold this many names asked for is listed once,
 * and a name it does not hold costs no stat from then on. A profile looks
 * up over a hundred programs on PATHs of ten directories, most of them
 * small ones that hold none; ./vm and a small profile look up a few, and
 * /usr/bin, where most are found, is seldom listed. The names are trusted
 * for a burst of lookups only: until this process runs a program
 * (run_start), and for at most LIST_MS.
 */
#define LIST_AFTER_MISSES 32
#define LIST_MS 1000
static long long listed_ms;	/* when the first directory of this set was listed; 0 none */

static struct path_dir *path_dirs;
static size_t n_path_dirs;
static char *path_dirs_of;	/* the PATH they were made from */

/* Drop the directories' listings: the next lookups stat, and list anew. */
static void path_dirs_forget_names(void)
{
	for (size_t i = 0; i < n_path_dirs; i++) {
		struct path_dir *pd = &path_dirs[i];

		for (size_t k = 0; k < pd->slots; k++)
			free(pd->names[k]);
		free(pd->names);
		pd->names = NULL;
		pd->slots = 0;
		pd->unlisted = 0;
		pd->misses = 0;
	}
	listed_ms = 0;
}

static void path_dirs_free(void)
{
	path_dirs_forget_names();
	for (size_t i = 0; i < n_path_dirs; i++) {
		if (path_dirs[i].fd >= 0)
			close(path_dirs[i].fd);
		free(path_dirs[i].dir);
	}
	free(path_dirs);
	free(path_dirs_of);
	path_dirs = NULL;
	n_path_dirs = 0;
	path_dirs_of = NULL;
}

/* pd->dir opened (fd, dev, ino), or looked up by path (AT_FDCWD); -1: it does not exist */
static int path_dir_open(struct path_dir *pd)
{
	struct stat st;
	int fd;

	pd->fd = AT_FDCWD;
	if (pd->dir[0] != '/')
		return 0;	/* relative: by path, from the working directory of the moment */
	fd = open(pd->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? -1 : 0;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return 0;	/* by path, as before */
	}
	pd->fd = fd;
	pd->dev = st.st_dev;
	pd->ino = st.st_ino;
	return 0;
}

/* Searched already: the same directory opened (dev, inode), or the same path */
static int path_dir_seen(const struct path_dir *pd)
{
	for (size_t i = 0; i < n_path_dirs; i++) {
		const struct path_dir *o = &path_dirs[i];

		if (pd->fd >= 0 ? o->fd >= 0 && o->dev == pd->dev && o->ino == pd->ino
				: !strcmp(o->dir, pd->dir))
			return 1;
	}
	return 0;
}

static void path_dirs_load(const char *path)
{
	char *dirs, *save = NULL;

	if (path_dirs_of && !strcmp(path_dirs_of, path))
		return;
	path_dirs_free();
	path_dirs_of = xstrdup(path);
	dirs = xasprintf("%s:/usr/sbin:/sbin:/usr/bin:/bin", path);
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		struct path_dir pd = { .dir = xstrdup(d) };

		/* nothing can be found there, or it was searched already */
		if (path_dir_open(&pd) < 0 || path_dir_seen(&pd)) {
			if (pd.fd >= 0)
				close(pd.fd);
			free(pd.dir);
			continue;
		}
		path_dirs = xrealloc(path_dirs, (n_path_dirs + 1) * sizeof(*path_dirs));
		path_dirs[n_path_dirs++] = pd;
	}
	free(dirs);
}

static size_t name_slot(const struct path_dir *pd, const char *name)
{
	size_t h = (size_t)fnv1a64(name, strlen(name)) & (pd->slots - 1);

	while (pd->names[h] && strcmp(pd->names[h], name))
		h = (h + 1) & (pd->slots - 1);
	return h;
}

/* Read pd's names into its set; a directory that cannot be read is looked up name by name. */
static void path_dir_list(struct path_dir *pd)
{
	struct strv all = STRV_INIT;

	if (strv_list_dir(&all, pd->dir, "")) {
		pd->unlisted = 1;
		return;
	}
	for (pd->slots = 16; pd->slots < 2 * all.n; pd->slots *= 2)
		;
	pd->names = xcalloc(pd->slots, sizeof(*pd->names));
	for (size_t i = 0; i < all.n; i++)
		pd->names[name_slot(pd, all.v[i])] = xstrdup(all.v[i]);
	strv_free(&all);
}

/* 0 if pd surely does not hold name (listed without it), else 1: stat it */
static int path_dir_may_hold(struct path_dir *pd, const char *name)
{
	if (!pd->names && !pd->unlisted && pd->misses >= LIST_AFTER_MISSES) {
		if (!listed_ms)
			listed_ms = mono_ms();
		path_dir_list(pd);
	}
	return !pd->names || pd->names[name_slot(pd, name)] != NULL;
}

char *find_in_path(const char *name)
{
	const char *path = getenv("PATH");

	if (strchr(name, '/'))
		return is_exec_at(AT_FDCWD, name) ? xstrdup(name) : NULL;
	if (!*name)
		return NULL;
	path_dirs_load(path ? path : "");
	if (listed_ms && mono_ms() - listed_ms > LIST_MS)
		path_dirs_forget_names();
	for (size_t i = 0; i < n_path_dirs; i++) {
		struct path_dir *pd = &path_dirs[i];
		char *p;

		if (!path_dir_may_hold(pd, name))
			continue;
		p = xasprintf("%s/%s", pd->dir, name);
		if (is_exec_at(pd->fd, pd->fd == AT_FDCWD ? p : name))
			return p;
		pd->misses++;
		free(p);
	}
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
