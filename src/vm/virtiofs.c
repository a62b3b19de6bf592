// SPDX-License-Identifier: GPL-2.0
/*
 * virtiofs.c: host directories shared over virtiofs (--virtiofs
 * DIR[:TAG[:ro]], VM_VIRTIOFS). ./vm starts one virtiofsd per share before
 * qemu, on a socket it has already bound and listens on (so qemu never
 * races the daemon), in the private state dir; each is a child of ./vm in
 * a process group of its own, dies with ./vm (PR_SET_PDEATHSIG) and is
 * killed by its PID when the VM stops. vhost-user needs the guest's RAM
 * shared with the daemon: a memfd backend as the one NUMA node. A
 * read-only share is read-only twice: the daemon's --readonly where it
 * has one, and always (as root) a read-only, nosuid, nodev clone of DIR
 * alone (no mounts under it: not the host's /proc, /sys or /dev) mounted
 * in a mount namespace of the daemon's own, which is all it can see.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "devices.h"
#include "io.h"
#include "lookup.h"
#include "protocol.h"
#include "qopt.h"
#include "run.h"
#include "toolver.h"
#include "vm.h"

/* virtio-fs's tag field is 36 bytes (struct virtio_fs_config) */
#define TAG_MAX 36
/* the listening socket's number in virtiofsd (--fd) */
#define VIRTIOFSD_FD 3

struct vm_virtiofsd {
	char *sock;		/* STATE/vmN.virtiofsI.sock */
	char *root;		/* STATE/vmN.virtiofsI.root: where a read-only clone is mounted */
	char *log;		/* LOG_DIR/vmN.virtiofsI.log: the daemon's stdout and stderr */
	pid_t pid;		/* 0: not started */
};

/*
 * DIR[:TAG[:ro|rw]] (DIR holds no ':'), TAG by default virtiofsI; dies
 * naming the spec as `what` ("--virtiofs SPEC", or the image's VIRTIOFS=SPEC).
 */
static void spec_or_die(const char *spec, const char *what, size_t i, struct vm_virtiofs *v)
{
	char *copy = xstrdup(spec), *dir = copy, *tag = NULL, *mode = NULL, *p;
	struct stat st;

	if ((p = strchr(dir, ':'))) {
		*p = '\0';
		tag = p + 1;
		if ((p = strchr(tag, ':'))) {
			*p = '\0';
			mode = p + 1;
		}
	}
	if (!*dir)
		die("%s: no directory (expected DIR[:TAG[:ro]])", what);
	if (mode && strcmp(mode, "ro") && strcmp(mode, "rw"))
		die("%s: '%s' is no mode (expected ro or rw after the tag)", what, mode);
	v->ro = mode && !strcmp(mode, "ro");
	if (tag && *tag) {
		size_t n = strspn(tag, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				       "0123456789._-");

		if (tag[n] || n > TAG_MAX)
			die("%s: tag '%s' must be 1-%d letters, digits, '.', '_' or '-'", what,
			    tag, TAG_MAX);
		v->tag = xstrdup(tag);
	} else {
		v->tag = xasprintf("virtiofs%zu", i);
	}
	v->dir = realpath(dir, NULL);
	if (!v->dir)
		die_errno("%s: directory %s", what, dir);
	if (stat(v->dir, &st) < 0)
		die_errno("%s: directory %s", what, v->dir);
	if (!S_ISDIR(st.st_mode))
		die("%s: %s is not a directory", what, v->dir);
	free(copy);
}

static void virtiofs_resolve(struct vm_settings *s, struct vm_opts *o, const struct conf *c)
{
	struct strv specs = STRV_INIT;
	struct virtiofsd_tool t;
	struct conf_value cv;
	struct vm_src src;
	const char *name;

	/* the options replace the key's list */
	if (o->virtiofs.n)
		strv_push_all(&specs, &o->virtiofs);
	else
		vm_split(c, "VM_VIRTIOFS", &specs);
	/* the profile's share (#@ virtiofs), unless one of these has its tag */
	if (s->im.virtiofs)
		strv_push(&specs, s->im.virtiofs);
	if (specs.n > 16)
		die("%zu virtiofs shares: at most 16", specs.n);
	s->n_virtiofs = specs.n;
	s->virtiofs = xcalloc(specs.n ? specs.n : 1, sizeof(*s->virtiofs));
	for (size_t i = 0; i < specs.n; i++) {
		/* the last is the image's own when it has one */
		char *what = s->im.virtiofs && i == specs.n - 1 ?
			xasprintf("%s: rapido/vm.conf: VIRTIOFS=%s", s->image, specs.v[i]) :
			xasprintf("--virtiofs %s", specs.v[i]);

		spec_or_die(specs.v[i], what, i, &s->virtiofs[i]);
		free(what);
		for (size_t j = 0; j < i; j++) {
			if (strcmp(s->virtiofs[i].tag, s->virtiofs[j].tag))
				continue;
			if (s->im.virtiofs && i == specs.n - 1) {
				/* the user's share of that tag wins */
				free(s->virtiofs[i].dir);
				free(s->virtiofs[i].tag);
				s->n_virtiofs--;
				break;
			}
			die("--virtiofs %s: tag %s is taken by %s", specs.v[i], s->virtiofs[i].tag,
			    specs.v[j]);
		}
	}
	strv_free(&specs);
	if (!s->n_virtiofs)
		return;
	name = vm_setting(c, NULL, NULL, "VIRTIOFSD", &src, &cv);
	if (toolver_virtiofsd(name && *name ? name : NULL, &t)) {
		static const char pkgs[] = "Debian 13: apt-get install virtiofsd; Debian 12: "
					   "apt-get install qemu-system-common";
		char at[128];

		if (name && *name)
			die("%s: %s not found or not executable (%s)", vm_src_str(&src, at, sizeof(at)),
			    name, pkgs);
		die("--virtiofs needs virtiofsd, found neither on PATH nor as /usr/libexec/virtiofsd "
		    "or /usr/lib/qemu/virtiofsd (%s; or set VIRTIOFSD)", pkgs);
	}
	s->virtiofsd = t.path;
	s->virtiofsd_rust = t.rust;
	s->virtiofsd_readonly = t.readonly;
	/* what this daemon cannot do for this user: refused before any share's daemon starts */
	if (!s->virtiofsd_rust && geteuid())
		die("--virtiofs: %s (qemu's virtiofsd, Debian 12) runs as root only: run ./vm "
		    "as root, or install the Rust virtiofsd (Debian 13: virtiofsd) and set "
		    "VIRTIOFSD", s->virtiofsd);
	for (size_t i = 0; i < s->n_virtiofs; i++) {
		const struct vm_virtiofs *v = &s->virtiofs[i];

		if (v->ro && geteuid() && !s->virtiofsd_readonly)
			die("--virtiofs %s:%s:ro: %s has no --readonly, and only root can make a "
			    "read-only view of %s", v->dir, v->tag, s->virtiofsd, v->dir);
	}
}

static void virtiofs_plan(struct vm_launch *l)
{
	const struct vm_settings *s = l->s;

	l->virtiofsd = xcalloc(s->n_virtiofs ? s->n_virtiofs : 1, sizeof(*l->virtiofsd));
	for (size_t i = 0; i < s->n_virtiofs; i++) {
		struct vm_virtiofsd *d = &l->virtiofsd[i];

		d->sock = xasprintf("%s/vm%u.virtiofs%zu.sock", s->state_dir, l->vm, i);
		d->root = xasprintf("%s/vm%u.virtiofs%zu.root", s->state_dir, l->vm, i);
		d->log = xasprintf("%s/vm%u.virtiofs%zu.log", s->log_dir, l->vm, i);
		if (strlen(d->sock) >= sizeof(((struct sockaddr_un *)0)->sun_path))
			die("virtiofs socket %s: longer than a unix socket's path may be (set "
			    "VM_STATE_DIR shorter)", d->sock);
	}
}

static void virtiofs_argv(const struct vm_launch *l, struct strv *argv)
{
	const struct vm_settings *s = l->s;

	if (!s->n_virtiofs)
		return;
	/* vhost-user: virtiofsd maps the guest's RAM, so RAM is a shared memfd */
	strv_push(argv, "-object");
	strv_pushf(argv, "memory-backend-memfd,id=rapido-mem,size=%lluM,share=on",
		   (unsigned long long)(s->memory >> 20));
	strv_push(argv, "-numa");
	strv_push(argv, "node,memdev=rapido-mem");
	for (size_t i = 0; i < s->n_virtiofs; i++) {
		char *sock = qopt(l->virtiofsd[i].sock);

		strv_push(argv, "-chardev");
		strv_pushf(argv, "socket,id=virtiofs%zu,path=%s", i, sock);
		strv_push(argv, "-device");
		strv_pushf(argv, "vhost-user-fs-pci,chardev=virtiofs%zu,tag=%s", i, s->virtiofs[i].tag);
		free(sock);
	}
}

static void virtiofs_kparams(const struct vm_launch *l, struct strv *k)
{
	if (l->s->n_virtiofs)
		strv_pushf(k, KP_VIRTIOFS "%zu", l->s->n_virtiofs);
}

/* virtiofsd's argv for share v on fd VIRTIOFSD_FD, sharing dir */
static void daemon_argv(const struct vm_settings *s, const struct vm_virtiofs *v, const char *dir,
			struct strv *argv)
{
	strv_push(argv, s->virtiofsd);
	strv_pushf(argv, "--fd=%d", VIRTIOFSD_FD);
	if (s->virtiofsd_rust) {
		strv_push(argv, "--shared-dir");
		strv_push(argv, dir);
		strv_push(argv, "--log-level");
		strv_push(argv, "error");
		/*
		 * A user: never --sandbox none, which leaves the daemon (and so,
		 * by a link or "..", the guest) the host's whole /. Its namespace
		 * sandbox (the default, said here) makes a user namespace of its
		 * own (uid mapped 1:1) and pivots into DIR, all it can reach.
		 */
		if (geteuid()) {
			strv_push(argv, "--sandbox");
			strv_push(argv, "namespace");
		}
	} else {
		/* libfuse's -o list: a ',' or a backslash in the path escaped with a backslash */
		char *q = xmalloc(2 * strlen(dir) + sizeof("source=")), *o = q;

		o = stpcpy(o, "source=");
		for (const char *c = dir; *c; c++) {
			if (*c == ',' || *c == '\\')
				*o++ = '\\';
			*o++ = *c;
		}
		*o = '\0';
		strv_push(argv, "-o");
		strv_push(argv, q);
		strv_push(argv, "-o");
		strv_push(argv, "log_level=err");
		free(q);
	}
	if (v->ro && s->virtiofsd_readonly)
		strv_push(argv, "--readonly");
}

/*
 * In the child, as root: a mount namespace of its own (nothing mounted
 * in it reaches the host's), and there DIR's mount alone, cloned, made
 * read-only, nosuid, nodev and private, mounted on root. Returns 0 or
 * -errno with *what saying which step failed.
 */
static int readonly_view(const char *dir, const char *root, const char **what)
{
	struct mount_attr attr = {
		.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
		.propagation = MS_PRIVATE,
	};
	int tree;

	*what = "unshare(CLONE_NEWNS)";
	if (unshare(CLONE_NEWNS) < 0)
		return -errno;
	*what = "making / a slave in the new namespace";
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0) {
		int err = errno;

		if (err == EINVAL)	/* / is a directory, not a mount: chroot DIR */
			*what = "making / a slave in the new namespace (/ is no mount point here, "
				"as in a chroot: bind-mount the chroot's directory onto itself first)";
		return -err;
	}
	*what = "open_tree";
	tree = open_tree(AT_FDCWD, dir, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (tree < 0)
		return -errno;
	*what = "mount_setattr read-only";
	if (mount_setattr(tree, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0)
		return -errno;
	*what = "move_mount";
	if (move_mount(tree, "", AT_FDCWD, root, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return -errno;
	close(tree);
	return 0;
}

/* In the child of parent, its socket fd and its log: never returns. */
static noreturn void exec_daemon(const struct vm_settings *s, const struct vm_virtiofs *v,
				 const struct vm_virtiofsd *d, pid_t parent, int fd, int log)
{
	struct strv argv = STRV_INIT;
	const char *dir = v->dir, *what;
	int null, rc;

	/* dies with ./vm, whatever way ./vm ends */
	if (run_die_with_parent(parent))
		_exit(127);
	/* its own group: a Ctrl-c at the terminal is ./vm's to handle, and ./vm kills the group */
	setpgid(0, 0);
	/*
	 * Everything close-on-exec but what dup2() puts in place: the socket
	 * and the log moved above the numbers they go to first, so neither
	 * is overwritten by the other, nor left close-on-exec by a dup2() onto
	 * itself; /dev/null never reaches the daemon as a descriptor of its own.
	 */
	fd = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	log = fcntl(log, F_DUPFD_CLOEXEC, 10);
	null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || log < 0 || null < 0 || dup2(null, STDIN_FILENO) < 0 ||
	    (null == STDIN_FILENO && fcntl(null, F_SETFD, 0) < 0) || dup2(fd, VIRTIOFSD_FD) < 0)
		_exit(127);
	if (v->ro && !geteuid()) {
		rc = readonly_view(v->dir, d->root, &what);
		if (rc) {
			fprintf(stderr, "vm: virtiofs %s: a read-only view of %s: %s: %s\n", v->tag,
				v->dir, what, strerror(-rc));
			_exit(127);
		}
		dir = d->root;
	}
	/* its messages (a vhost-user disconnect when qemu ends is one) into a log of its own */
	if (dup2(log, STDOUT_FILENO) < 0 || dup2(log, STDERR_FILENO) < 0)
		_exit(127);
	daemon_argv(s, v, dir, &argv);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	execv(argv.v[0], argv.v);
	fprintf(stderr, "vm: cannot run %s: %s\n", argv.v[0], strerror(errno));
	_exit(127);
}

/* A socket bound at path and listening (close-on-exec): qemu may connect before the daemon runs. */
static int listen_or_die(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	/* a stale socket of an earlier run of this VM number */
	if (unlink(path) < 0 && errno != ENOENT)
		die_errno("virtiofs socket %s", path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die_errno("socket");
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die_errno("bind %s", path);
	if (listen(fd, 1) < 0)
		die_errno("listen %s", path);
	return fd;
}

static void virtiofs_start(const struct vm_launch *l)
{
	const struct vm_settings *s = l->s;

	for (size_t i = 0; i < s->n_virtiofs; i++) {
		const struct vm_virtiofs *v = &s->virtiofs[i];
		struct vm_virtiofsd *d = &l->virtiofsd[i];
		pid_t parent = getpid();
		struct stat st;
		int fd, log;

		if (v->ro && !geteuid() && mkdir(d->root, 0700) < 0 && errno != EEXIST)
			die_errno("virtiofs mount point %s", d->root);
		/* VM_LOG_DIR may be everyone's: never through a link, a FIFO or a hard link there */
		log = open_output(d->log, 0600, &st);
		if (log < 0)
			die("virtiofs %s: its log %s cannot be written (%s)", v->tag, d->log,
			    file_strerror(log, &st));
		fd = listen_or_die(d->sock);
		fflush(NULL);
		d->pid = fork();
		if (d->pid < 0)
			die_errno("fork");
		if (d->pid == 0)
			exec_daemon(s, v, d, parent, fd, log);
		/* in the parent too: stop() may signal the group before the child got to it */
		setpgid(d->pid, d->pid);
		close(fd);
		close(log);
	}
}

/*
 * Stop daemon pid and reap it: SIGTERM to its group (the C virtiofsd
 * forks its sandboxed worker into it), two seconds for the leader to go,
 * then SIGKILL to the group.
 */
static void daemon_stop(pid_t pid)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	struct pollfd p = { .fd = pidfd, .events = POLLIN };

	kill(-pid, SIGTERM);
	if (pidfd >= 0)
		poll(&p, 1, 2000);
	/* what is left of the group, while the unreaped leader keeps its number ours */
	kill(-pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (pidfd >= 0)
		close(pidfd);
}

static void virtiofs_stop(const struct vm_launch *l)
{
	const struct vm_settings *s = l->s;

	for (size_t i = 0; i < s->n_virtiofs; i++) {
		struct vm_virtiofsd *d = &l->virtiofsd[i];

		if (d->pid > 0) {
			daemon_stop(d->pid);
			d->pid = 0;
		}
		unlink(d->sock);
		/* empty: the clone was mounted in the daemon's namespace only */
		if (s->virtiofs[i].ro)
			rmdir(d->root);
	}
}

static void virtiofs_free(struct vm_settings *s, struct vm_launch *l)
{
	if (l && l->virtiofsd) {
		for (size_t i = 0; i < l->s->n_virtiofs; i++) {
			free(l->virtiofsd[i].sock);
			free(l->virtiofsd[i].root);
			free(l->virtiofsd[i].log);
		}
		free(l->virtiofsd);
		l->virtiofsd = NULL;
	}
	if (s) {
		for (size_t i = 0; i < s->n_virtiofs; i++) {
			free(s->virtiofs[i].dir);
			free(s->virtiofs[i].tag);
		}
		free(s->virtiofs);
		free(s->virtiofsd);
		s->virtiofs = NULL;
		s->virtiofsd = NULL;
		s->n_virtiofs = 0;
	}
}

const struct vm_device vm_dev_virtiofs = {
	.name = "virtiofs",
	.resolve = virtiofs_resolve,
	.plan = virtiofs_plan,
	.start = virtiofs_start,
	.stop = virtiofs_stop,
	.argv = virtiofs_argv,
	.kparams = virtiofs_kparams,
	.free = virtiofs_free,
};
