// SPDX-License-Identifier: GPL-2.0
/*
 * main.c: rapido-ceph, the guest's Ceph client: mount CephFS and map RBD
 * images with the kernel's own clients (no Ceph userspace in the image),
 * from the ceph.conf and keyring ./cut put there. Every wait on the
 * cluster is bounded (the kernel's mount_timeout), and a failure is
 * explained from the kernel's log, since mount(2) says EHOSTUNREACH for a
 * wrong key and a dead cluster alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "guest.h"
#include "num.h"
#include "rceph.h"
#include "tree.h"

#define PROG "rapido-ceph"

enum { OPT_FS = CHAR_MAX + 1, OPT_PATH, OPT_FORCE };

static const struct option longopts[] = {
	{ "conf",	required_argument,	NULL, 'c' },
	{ "keyring",	required_argument,	NULL, 'k' },
	{ "name",	required_argument,	NULL, 'n' },
	{ "timeout",	required_argument,	NULL, 't' },
	{ "fs",		required_argument,	NULL, OPT_FS },
	{ "options",	required_argument,	NULL, 'o' },
	{ "path",	required_argument,	NULL, OPT_PATH },
	{ "force",	no_argument,		NULL, OPT_FORCE },
	{ "help",	no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct options {
	const char *conf, *keyring, *name;
	unsigned int timeout;
	const char *fs, *extra, *path;
	int force;
};

static void usage(void)
{
	fputs("Usage:\n"
	      " " PROG " [options] mount [--fs NAME] [--path PATH] [-o OPTS] DIR\n"
	      " " PROG " [options] map POOL/IMAGE\n"
	      " " PROG " [options] unmap DEV\n"
	      " " PROG " [options] source [PATH]\n"
	      " " PROG " [options] options [--fs NAME] [-o OPTS]\n"
	      "\n"
	      "Connect the kernel's Ceph clients to the cluster of a ceph.conf and keyring.\n"
	      "\n"
	      "mount mounts CephFS (PATH of it, default /) on DIR, made if absent.\n"
	      "map maps an RBD image and prints its device (/dev/rbdN); unmap removes\n"
	      "it (DEV is /dev/rbdN, rbdN or N). source and options print what mount(8)\n"
	      "takes, for programs that mount by themselves (xfstests).\n"
	      "\n"
	      "Options:\n"
	      " -c, --conf FILE        ceph.conf with 'mon host' (default " RCEPH_CONF ")\n"
	      " -k, --keyring FILE     keyring with the client's key (default " RCEPH_KEYRING ")\n"
	      " -n, --name NAME        the client (default admin, i.e. client.admin)\n"
	      " -t, --timeout SECS     give up on the cluster after SECS (default 20)\n"
	      "     --fs NAME          the file system (default: the cluster's default)\n"
	      "     --path PATH        mount: the directory of the file system to mount\n"
	      " -o, --options OPTS     more mount options, comma separated\n"
	      "     --force            mount, map or unmap outside a rapido guest too\n"
	      " -h, --help             display this help\n"
	      "\n"
	      "Exit status: 0 on success, 1 on any error (said on stderr, with the\n"
	      "kernel's messages about it).\n",
	      stdout);
}

static noreturn void bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static noreturn void bad_usage(const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		fprintf(stderr, "%s: ", PROG);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	usage_die(1, NULL);
}

static void load_or_die(struct rceph_client *cl, const struct options *o)
{
	char *err;

	if (rceph_client_load(cl, o->conf, o->keyring, o->name, o->timeout, &err))
		die("%s", err);
}

/* Say what the kernel said about it, and what it means; then exit 1. */
static noreturn void fail(const struct rceph_client *cl, int kfd, const char *what,
			  const char *desc, int err)
{
	struct strv klines = STRV_INIT;
	char *advice;

	rceph_kmsg_collect(kfd, &klines);
	for (size_t i = 0; i < klines.n; i++)
		fprintf(stderr, "%s: kernel: %s\n", PROG, klines.v[i]);
	advice = rceph_advice(cl, what, err, &klines);
	fprintf(stderr, "%s: %s: %s: %s\n", PROG, desc, strerror(err), advice);
	exit(1);
}

/* mkdir -p DIR: the mount point may be anywhere, /mnt included */
static void cmd_mount(const struct options *o, const char *dir)
{
	struct rceph_client cl;
	char *src, *opts, *failed = NULL;
	int kfd, err;

	load_or_die(&cl, o);
	src = rceph_mount_source(&cl, o->path ? o->path : "/");
	opts = rceph_mount_options(&cl, o->fs, o->extra);
	err = mkdir_p(dir, &failed);
	if (err < 0) {
		errno = -err;
		die_errno("mkdir %s", failed ? failed : dir);
	}
	kfd = rceph_kmsg_open();
	if (mount(src, dir, "ceph", 0, opts) < 0) {
		err = errno;
		fail(&cl, kfd, "mount", xasprintf("mount %s on %s", src, dir), err);
	}
	if (kfd >= 0)
		close(kfd);
	free(src);
	free(opts);
	rceph_client_free(&cl);
}

static int write_sysfs(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	/* one write(2): the kernel parses the value in one go */
	if (write(fd, val, strlen(val)) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	return err;
}

static void cmd_map(const struct options *o, const char *spec)
{
	const char *add = "/sys/bus/rbd/add_single_major";
	char *pool = xstrdup(spec), *image = strchr(pool, '/'), *line, *dev;
	struct rceph_client cl;
	unsigned int id;
	int kfd, rc;

	if (!image || image == pool || !image[1] || strchr(image + 1, '/') ||
	    strpbrk(spec, " \t\n,"))
		die("map: expected POOL/IMAGE such as rbd/rapido, got '%s'", spec);
	*image++ = '\0';
	load_or_die(&cl, o);
	if (access(add, W_OK) < 0)
		die_errno("%s (is the rbd module loaded?)", add);
	line = rceph_rbd_add_line(&cl, pool, image);
	kfd = rceph_kmsg_open();
	rc = write_sysfs(add, line);
	free(line);
	if (rc)
		fail(&cl, kfd, "map", xasprintf("map %s", spec), -rc);
	if (kfd >= 0)
		close(kfd);
	if (rceph_rbd_find("/sys", pool, image, &id))
		die("map %s: the kernel took it, but no /sys/bus/rbd/devices entry names it", spec);
	dev = xasprintf("/dev/rbd%u", id);
	/* devtmpfs makes the node soon after the device appears */
	for (int i = 0; access(dev, F_OK) < 0; i++) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		if (i == 100)
			die("map %s: %s did not appear within 5s", spec, dev);
		nanosleep(&ts, NULL);
	}
	printf("%s\n", dev);
	free(dev);
	free(pool);
	rceph_client_free(&cl);
}

static void cmd_unmap(const char *dev)
{
	int id = rceph_rbd_parse_dev(dev), rc;
	char buf[32];

	if (id < 0)
		die("unmap: expected /dev/rbdN, rbdN or N, got '%s'", dev);
	snprintf(buf, sizeof(buf), "%d", id);
	rc = write_sysfs("/sys/bus/rbd/remove_single_major", buf);
	if (rc == -EBUSY)
		die("unmap /dev/rbd%d: %s (still mounted or open?)", id, strerror(-rc));
	if (rc)
		die_err(rc, "unmap /dev/rbd%d", id);
}

static unsigned int timeout_arg(const char *s)
{
	char why[NUM_WHY_LEN];
	unsigned int n;

	if (num_parse_uint(s, 1, 3600, &n, why))
		die("--timeout: %s (seconds)", why);
	return n;
}

int main(int argc, char **argv)
{
	struct options o = { .conf = RCEPH_CONF, .keyring = RCEPH_KEYRING, .name = "admin", .timeout = 20 };
	const char *cmd;
	int c;

	err_prog = PROG;
	while ((c = getopt_long(argc, argv, "c:k:n:t:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o.conf = optarg;
			break;
		case 'k':
			o.keyring = optarg;
			break;
		case 'n':
			o.name = optarg;
			break;
		case 't':
			o.timeout = timeout_arg(optarg);
			break;
		case OPT_FS:
			o.fs = optarg;
			break;
		case 'o':
			o.extra = optarg;
			break;
		case OPT_PATH:
			o.path = optarg;
			break;
		case OPT_FORCE:
			o.force = 1;
			break;
		case 'h':
			usage();
			close_stdout();
			return 0;
		default:
			bad_usage(NULL);
		}
	}
	if (optind >= argc)
		bad_usage("no command given (mount, map, unmap, source or options)");
	cmd = argv[optind++];
	if (o.fs && strpbrk(o.fs, ", \t\n="))
		die("--fs: '%s' is not a file system name", o.fs);
	if (o.extra && strpbrk(o.extra, " \t\n"))
		die("--options: '%s' has blanks (options are comma separated)", o.extra);
	/* the host's own mounts and rbd devices are not this helper's to change */
	if (!o.force && (!strcmp(cmd, "mount") || !strcmp(cmd, "map") || !strcmp(cmd, "unmap"))) {
		char *why;

		if (guest_check(GUEST_CMDLINE, &why))
			die("refusing to %s: %s, so this would change this machine's own mounts or "
			    "devices; --force does it anyway", cmd, why);
	}
	/*
	 * The kernel waits mount_timeout for the monitors, but not for
	 * everything after them: past that and a margin, stop regardless.
	 */
	alarm(o.timeout * 2 + 30);

	if (!strcmp(cmd, "mount") && optind + 1 == argc) {
		cmd_mount(&o, argv[optind]);
	} else if (!strcmp(cmd, "map") && optind + 1 == argc) {
		cmd_map(&o, argv[optind]);
	} else if (!strcmp(cmd, "unmap") && optind + 1 == argc) {
		cmd_unmap(argv[optind]);
	} else if (!strcmp(cmd, "source") && optind + 1 >= argc) {
		struct rceph_client cl;
		char *src;

		load_or_die(&cl, &o);
		src = rceph_mount_source(&cl, optind < argc ? argv[optind] : "/");
		printf("%s\n", src);
		free(src);
		rceph_client_free(&cl);
	} else if (!strcmp(cmd, "options") && optind == argc) {
		struct rceph_client cl;
		char *opts;

		load_or_die(&cl, &o);
		opts = rceph_mount_options(&cl, o.fs, o.extra);
		printf("%s\n", opts);
		free(opts);
		rceph_client_free(&cl);
	} else if (!strcmp(cmd, "mount") || !strcmp(cmd, "map") || !strcmp(cmd, "unmap") ||
		   !strcmp(cmd, "source") || !strcmp(cmd, "options")) {
		bad_usage("%s: wrong number of arguments", cmd);
	} else {
		bad_usage("unknown command '%s' (mount, map, unmap, source or options)", cmd);
	}
	close_stdout();
	return 0;
}
