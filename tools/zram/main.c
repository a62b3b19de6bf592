// SPDX-License-Identifier: GPL-2.0
/* main.c: rapido-zram command line: parse, validate, then add/reset/remove. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "guest.h"
#include "size.h"
#include "zram.h"

#define PROG "rapido-zram"

enum {
	OPT_MKFS = CHAR_MAX + 1,
	OPT_MKFS_ARG,
	OPT_MOUNT,
	OPT_ROOT,
	OPT_TRACE,
	OPT_FORCE,
};

static const struct option longopts[] = {
	{ "size",	required_argument,	NULL, 's' },
	{ "algorithm",	required_argument,	NULL, 'a' },
	{ "mem-limit",	required_argument,	NULL, 'm' },
	{ "device",	required_argument,	NULL, 'd' },
	{ "mkfs",	required_argument,	NULL, OPT_MKFS },
	{ "mkfs-arg",	required_argument,	NULL, OPT_MKFS_ARG },
	{ "mount",	required_argument,	NULL, OPT_MOUNT },
	{ "dry-run",	no_argument,		NULL, 'n' },
	{ "root",	required_argument,	NULL, OPT_ROOT },
	{ "trace",	required_argument,	NULL, OPT_TRACE },
	{ "force",	no_argument,		NULL, OPT_FORCE },
	{ "help",	no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct options {
	const char *cmd;
	const char *dev;		/* reset/remove argument */
	int idx;			/* its N */
	const char *add_only;		/* first add-only option seen, for errors */
	const char *trace;
	struct zram_add_opts add;
	int has_size;
	int force;
};

static void usage(void)
{
	fputs("Usage:\n"
	      " " PROG " [options] add -s SIZE [add options]\n"
	      " " PROG " [options] reset DEV\n"
	      " " PROG " [options] remove DEV\n"
	      "\n"
	      "Create, reset and remove zram block devices through sysfs.\n"
	      "\n"
	      "add sets up a free zram device, or a new one from hot_add, optionally\n"
	      "makes a filesystem on it and mounts it, and prints its path (/dev/zramN).\n"
	      "reset empties DEV. remove unmounts DEV wherever it is mounted, turns off\n"
	      "swap on it, resets it and deletes it with hot_remove.\n"
	      "DEV is /dev/zramN, zramN or N.\n"
	      "\n"
	      "Options for add:\n"
	      " -s, --size SIZE        disk size: bytes, or with a K, M, G or T suffix\n"
	      " -a, --algorithm ALG    compression algorithm (default: the kernel's)\n"
	      " -m, --mem-limit SIZE   most memory the device may use (0: no limit)\n"
	      " -d, --device DEV       use DEV (reset first if set up) rather than\n"
	      "                          a free or new device\n"
	      "     --mkfs FSTYPE      run mkfs.FSTYPE on the device (with -F for ext2/3/4)\n"
	      "     --mkfs-arg ARG     pass ARG to mkfs; repeat for more (e.g. -f for xfs)\n"
	      "     --mount DIR        mount the new filesystem on DIR, made if absent\n"
	      "\n"
	      "Options:\n"
	      " -n, --dry-run          print the writes and commands planned, change nothing\n"
	      "     --force            change devices outside a rapido guest too\n"
	      "     --root DIR         use DIR/sys, DIR/dev and DIR/proc (for tests);\n"
	      "                          paths are printed as seen inside DIR\n"
	      "     --trace FILE       log each write, command and mount to FILE\n"
	      " -h, --help             display this help\n"
	      "\n"
	      "A rapido guest has " KP_VM "N on its kernel command line (/proc/cmdline).\n"
	      "Elsewhere add, reset and remove refuse to run without --force: run on a\n"
	      "host by mistake, they would reconfigure the host's own zram devices.\n"
	      "On failure nothing half-made is left: a device made by hot_add is\n"
	      "removed again. Exit status: 0 on success, 1 on any error.\n",
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

static uint64_t size_arg(const char *opt, const char *s)
{
	uint64_t v;
	int rc = parse_size(s, &v);

	if (rc == -ERANGE)
		die("%s: size '%s' is too large", opt, s);
	if (rc < 0)
		die("%s: invalid size '%s' (expected bytes, or a number with a K, M, G or T suffix)",
		    opt, s);
	return v;
}

/* mkfs.FSTYPE is looked up in PATH: no slashes, nothing odd. */
static int fstype_ok(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyz"
			       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == strlen(s);
}

static void parse_args(int argc, char **argv, struct options *opt, struct zram_ctx *z)
{
	struct zram_add_opts *a = &opt->add;
	const char *mem_limit = NULL, *size = NULL, *device = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "s:a:m:d:nh", longopts, NULL)) != -1) {
		const char *add_only = NULL;

		switch (c) {
		case 's':
			size = optarg;
			add_only = "size";
			break;
		case 'a':
			a->algorithm = optarg;
			add_only = "algorithm";
			break;
		case 'm':
			mem_limit = optarg;
			add_only = "mem-limit";
			break;
		case 'd':
			device = optarg;
			add_only = "device";
			break;
		case OPT_MKFS:
			a->mkfs = optarg;
			add_only = "mkfs";
			break;
		case OPT_MKFS_ARG:
			strv_push(&a->mkfs_args, optarg);
			add_only = "mkfs-arg";
			break;
		case OPT_MOUNT:
			a->mount = optarg;
			add_only = "mount";
			break;
		case 'n':
			z->dry_run = 1;
			break;
		case OPT_ROOT:
			z->root = optarg;
			break;
		case OPT_TRACE:
			opt->trace = optarg;
			break;
		case OPT_FORCE:
			opt->force = 1;
			break;
		case 'h':
			usage();
			close_stdout();
			exit(0);
		default:
			bad_usage(NULL);
		}
		if (add_only && !opt->add_only)
			opt->add_only = add_only;
	}
	if (optind >= argc)
		bad_usage("no command given (add, reset or remove)");
	opt->cmd = argv[optind++];

	if (!strcmp(opt->cmd, "add")) {
		if (optind < argc)
			bad_usage("add takes no arguments, only options (got '%s')", argv[optind]);
		if (!size)
			bad_usage("add needs --size");
		a->size = size_arg("--size", size);
		if (!a->size)
			die("--size: the size must be more than 0");
		if (mem_limit) {
			a->mem_limit = size_arg("--mem-limit", mem_limit);
			a->has_mem_limit = 1;
		}
		if (device && zram_parse_dev(device, &a->device) < 0)
			die("--device: invalid zram device '%s' (expected /dev/zramN, zramN or N)",
			    device);
		if (a->algorithm && (!*a->algorithm || strchr(a->algorithm, '\n')))
			die("--algorithm: invalid algorithm name '%s'", a->algorithm);
		if (a->mkfs && !fstype_ok(a->mkfs))
			die("--mkfs: invalid filesystem type '%s'", a->mkfs);
		if (a->mkfs_args.n && !a->mkfs)
			bad_usage("--mkfs-arg needs --mkfs");
		if (a->mount && !a->mkfs)
			bad_usage("--mount needs --mkfs: a new zram device holds no filesystem");
		if (a->mount && !*a->mount)
			die("--mount: empty directory name");
	} else if (!strcmp(opt->cmd, "reset") || !strcmp(opt->cmd, "remove")) {
		if (opt->add_only)
			bad_usage("--%s is an option of add, not of %s", opt->add_only, opt->cmd);
		if (optind != argc - 1)
			bad_usage("%s takes one device (/dev/zramN, zramN or N)", opt->cmd);
		opt->dev = argv[optind];
		if (zram_parse_dev(opt->dev, &opt->idx) < 0)
			die("invalid zram device '%s' (expected /dev/zramN, zramN or N)", opt->dev);
	} else {
		bad_usage("unknown command '%s' (add, reset or remove)", opt->cmd);
	}
}

/*
 * The host's own zram (swap, /tmp) is one "add -d 0" or "reset 0" away:
 * change nothing unless this is a guest. Under --root the fixture's
 * /proc/cmdline speaks for it, like the rest of its /proc.
 */
static void refuse_outside_guest(const struct zram_ctx *z, const char *cmd)
{
	char *path = xasprintf("%s" GUEST_CMDLINE, z->root), *why;

	if (guest_check(path, &why))
		die("refusing to %s: %s, so this would change this machine's own zram devices;"
		    " --dry-run shows the plan, --force does it anyway", cmd, why);
	free(path);
}

int main(int argc, char **argv)
{
	struct options opt = { 0 };
	struct zram_ctx z;
	struct zram_dev d;
	char *root = NULL;
	int rc;

	err_prog = PROG;
	zram_ctx_init(&z);
	zram_add_opts_init(&opt.add);
	parse_args(argc, argv, &opt, &z);

	if (*z.root) {
		/* "/" and "dir/" become "" and "dir": paths are appended to it. */
		size_t n = strlen(z.root);

		while (n && z.root[n - 1] == '/')
			n--;
		root = xstrndup(z.root, n);
		z.root = root;
	}
	if (!z.dry_run && !opt.force)
		refuse_outside_guest(&z, opt.cmd);
	if (opt.trace) {
		z.trace = fopen(opt.trace, "we");
		if (!z.trace)
			die_errno("open %s", opt.trace);
	}

	if (!strcmp(opt.cmd, "add")) {
		rc = zram_add(&z, &opt.add, &d);
	} else {
		rc = !strcmp(opt.cmd, "reset") ? zram_reset(&z, opt.idx) : zram_remove(&z, opt.idx);
	}

	for (size_t i = 0; i < z.notes.n; i++)
		warn("%s", z.notes.v[i]);
	if (z.trace && fclose(z.trace) != 0)
		die_errno("write %s", opt.trace);
	if (rc < 0)
		die("%s", z.msg);
	if (!strcmp(opt.cmd, "add") && !z.dry_run)
		printf("/dev/%s\n", d.name);
	zram_ctx_free(&z);
	strv_free(&opt.add.mkfs_args);
	free(root);
	close_stdout();
	return 0;
}
