// SPDX-License-Identifier: GPL-2.0
/* main.c: rapido-configfs: apply, dry-run or tear down a configfs spec. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <linux/magic.h>

#include "cfs.h"
#include "err.h"
#include "guest.h"

/* fs/configfs/configfs_internal.h; not in the uapi headers */
#ifndef CONFIGFS_MAGIC
#define CONFIGFS_MAGIC 0x62656570
#endif

#define PROG "rapido-configfs"

struct opts {
	const char *root;
	const char *sysfs_root;
	const char *trace;
	const char *kmsg;
	const char *spec;
	bool dry_run;
	bool teardown;
	bool emulate;
	bool force;
};

enum {
	OPT_SYSFS_ROOT = CHAR_MAX + 1,
	OPT_TRACE,
	OPT_KMSG,
	OPT_EMULATE,
	OPT_FORCE,
};

static const struct option longopts[] = {
	{ "root", required_argument, NULL, 'r' },
	{ "sysfs-root", required_argument, NULL, OPT_SYSFS_ROOT },
	{ "define", required_argument, NULL, 'D' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "teardown", no_argument, NULL, 't' },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "kmsg", required_argument, NULL, OPT_KMSG },
	{ "emulate", no_argument, NULL, OPT_EMULATE },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	fputs("Usage:\n"
	      " " PROG " [options] SPEC\n"
	      " " PROG " [options] --teardown SPEC\n"
	      "\n"
	      "Apply a configfs spec: make directories, write attributes (one write(2)\n"
	      "each) and make links under the configfs root, in order. On the first\n"
	      "failure, undo what was done, in reverse order, and explain the failure.\n"
	      "SPEC - reads the spec from standard input.\n"
	      "\n"
	      "Spec lines (# starts a comment; \"...\" and '...' quote; ${NAME} expands):\n"
	      "  set NAME VALUE                  define a variable\n"
	      "  set-first NAME DIR              NAME = first entry of DIR under the sysfs root\n"
	      "  wait PATH [SECONDS]             wait for PATH to appear (default 5)\n"
	      "  mkdir PATH                      make a directory; an error if it exists\n"
	      "  ensure PATH                     make it unless it exists; kept on teardown\n"
	      "                                  while something else still uses it\n"
	      "  write PATH VALUE [undo VALUE]   write an attribute; undo VALUE on teardown\n"
	      "  link TARGET LINKPATH            symlink; TARGET is made absolute\n"
	      "Paths are relative to the configfs root.\n"
	      "\n"
	      "Options:\n"
	      " -r, --root DIR          configfs root (default /sys/kernel/config)\n"
	      "     --sysfs-root DIR    where set-first looks (default /sys)\n"
	      " -D, --define NAME=VAL   define a variable; wins over set in the spec\n"
	      " -n, --dry-run           check the order of the spec against the root and\n"
	      "                         print the plan (absolute paths); change nothing\n"
	      " -t, --teardown          undo the spec in reverse: unlink, write undo values,\n"
	      "                         rmdir; what is gone already counts as done\n"
	      "     --trace FILE        log each operation as performed (- for stdout)\n"
	      "     --kmsg PATH         kernel log quoted on failure (default /dev/kmsg;\n"
	      "                         an empty PATH turns it off)\n"
	      "     --emulate           the root is a plain directory standing in for\n"
	      "                         configfs (tests): writes create files, rmdir\n"
	      "                         removes them\n"
	      "     --force             change configfs outside a rapido guest too\n"
	      " -h, --help              display this help\n"
	      "\n"
	      "A rapido guest has " KP_VM "N on its kernel command line (/proc/cmdline).\n"
	      "Elsewhere applying or tearing down refuses to run without --force (run on\n"
	      "a host by mistake, it would reconfigure the host's own targets and\n"
	      "gadgets), unless --emulate points at a plain directory.\n"
	      "\n"
	      "Exit status:\n"
	      " 0  done\n"
	      " 1  an operation failed; everything done before it was rolled back\n"
	      " 2  usage or spec error, or --dry-run found a problem; nothing was changed\n"
	      " 3  rollback or teardown could not undo everything; what is left is listed\n",
	      stdout);
}

static noreturn void usage_error(const char *fmt, const char *arg)
{
	if (fmt) {
		fprintf(stderr, "%s: ", PROG);
		fprintf(stderr, fmt, arg);
		fputc('\n', stderr);
	}
	usage_die(CFS_EXIT_USAGE, NULL);
}

static int parse_spec(const struct opts *o, struct cfs_spec *spec)
{
	struct cfs_parse_opts po = { o->sysfs_root, o->teardown, stderr };
	bool is_stdin = !strcmp(o->spec, "-");
	char *err = NULL;
	FILE *f = is_stdin ? stdin : fopen(o->spec, "re");
	int rc;

	if (!f) {
		warn_errno("%s", o->spec);
		return -1;
	}
	rc = spec_parse(spec, is_stdin ? "<stdin>" : o->spec, f, &po, &err);
	if (!is_stdin)
		fclose(f);
	if (rc) {
		fprintf(stderr, "%s: %s\n", PROG, err);
		free(err);
		return -1;
	}
	return 0;
}

/*
 * Applying a spec to the host's own configfs would export its disks or
 * turn it into a USB gadget: only a rapido guest may, unless --force.
 * An --emulate root on an ordinary filesystem holds no kernel objects.
 */
static int may_change(const struct opts *o, const struct cfs_ctx *c)
{
	struct statfs fs;
	char *why;

	if (o->dry_run || o->force)
		return 1;
	if (o->emulate && (c->rootfd < 0 || (fstatfs(c->rootfd, &fs) == 0 &&
					     fs.f_type != CONFIGFS_MAGIC &&
					     fs.f_type != SYSFS_MAGIC)))
		return 1;
	if (!guest_check(GUEST_CMDLINE, &why))
		return 1;
	warn("refusing to %s %s: %s, so this would change this machine's own configfs;"
	     " --dry-run shows the plan, --force does it anyway",
	     o->teardown ? "tear down" : "apply", strcmp(o->spec, "-") ? o->spec : "<stdin>", why);
	free(why);
	return 0;
}

static int run(const struct opts *o, struct cfs_spec *spec)
{
	struct cfs_ctx c;
	int rc, status;

	rc = cfs_ctx_open(&c, o->root);
	if (rc) {
		warn_err(rc, "configfs root %s", o->root);
		return o->dry_run ? CFS_EXIT_USAGE : CFS_EXIT_FAILED;
	}
	c.emulate = o->emulate;
	if (!may_change(o, &c)) {
		cfs_ctx_close(&c);
		return CFS_EXIT_USAGE;
	}
	if (o->trace && !o->dry_run) {
		c.trace = strcmp(o->trace, "-") ? fopen(o->trace, "we") : stdout;
		if (!c.trace) {
			warn_errno("--trace %s", o->trace);
			cfs_ctx_close(&c);
			return CFS_EXIT_USAGE;
		}
	}
	/* Kernel log lines are only worth quoting when something is done. */
	if (!o->dry_run && o->kmsg[0]) {
		c.kmsg_fd = kmsg_open(o->kmsg);
		if (c.kmsg_fd < 0)
			c.kmsg_fd = -1;	/* no /dev/kmsg (or no right to it): go without */
	}

	if (o->dry_run)
		status = cfs_plan(&c, spec, o->teardown, stdout);
	else if (o->teardown)
		status = cfs_teardown(&c, spec);
	else
		status = cfs_apply(&c, spec);

	if (c.trace && c.trace != stdout && fclose(c.trace)) {
		warn_errno("--trace %s", o->trace);
		if (status == CFS_EXIT_OK)
			status = CFS_EXIT_FAILED;
	}
	cfs_ctx_close(&c);
	return status;
}

int main(int argc, char **argv)
{
	struct opts o = { "/sys/kernel/config", "/sys", NULL, "/dev/kmsg", NULL,
			  false, false, false, false };
	struct cfs_spec spec;
	char *err = NULL;
	int ch, status;

	err_prog = PROG;
	spec_init(&spec);
	opterr = 0;	/* our own messages, named PROG rather than argv[0] */
	while ((ch = getopt_long(argc, argv, ":r:D:nth", longopts, NULL)) != -1) {
		switch (ch) {
		case 'r':
			o.root = optarg;
			break;
		case OPT_SYSFS_ROOT:
			o.sysfs_root = optarg;
			break;
		case 'D':
			if (spec_define(&spec, optarg, &err)) {
				fprintf(stderr, "%s: %s\n", PROG, err);
				free(err);
				spec_free(&spec);
				usage_error(NULL, NULL);
			}
			break;
		case 'n':
			o.dry_run = true;
			break;
		case 't':
			o.teardown = true;
			break;
		case OPT_TRACE:
			o.trace = optarg;
			break;
		case OPT_KMSG:
			o.kmsg = optarg;
			break;
		case OPT_EMULATE:
			o.emulate = true;
			break;
		case OPT_FORCE:
			o.force = true;
			break;
		case 'h':
			usage();
			spec_free(&spec);
			close_stdout();
			return CFS_EXIT_OK;
		case ':':
			spec_free(&spec);
			usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			spec_free(&spec);
			if (!strncmp(argv[optind - 1], "--", 2))
				usage_error("bad option '%s'", argv[optind - 1]);
			else {
				char opt[3] = { '-', (char)optopt, '\0' };

				usage_error("unknown option '%s'", opt);
			}
		}
	}
	if (optind != argc - 1) {
		spec_free(&spec);
		usage_error(optind == argc ? "no SPEC given" : "one SPEC only, not '%s'",
			    optind == argc ? NULL : argv[optind + 1]);
	}
	if (!o.root[0]) {
		spec_free(&spec);
		usage_error("--root needs a directory", NULL);
	}
	o.spec = argv[optind];

	if (parse_spec(&o, &spec))
		status = CFS_EXIT_USAGE;
	else
		status = run(&o, &spec);
	spec_free(&spec);
	close_stdout();
	return status;
}
