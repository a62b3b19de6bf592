// SPDX-License-Identifier: GPL-2.0
/*
 * front.c: rapido SUBCOMMAND [ARGS]: the programs of the checkout (./cut,
 * ./vm, ...) in one binary, as git and kw are one command. Each
 * subcommand is the program's own cmd_NAME(), called with its arguments,
 * so that `rapido cut` and `./cut` cannot differ.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ceph-local.h"
#include "cut.h"
#include "err.h"
#include "front.h"
#include "netsetup.h"
#include "rapido.h"
#include "verbs.h"
#include "version.h"
#include "vm.h"
#include "vmctl.h"

static int cmd_list(int argc, char **argv);
static int cmd_bisect(int argc, char **argv);

static const struct sub {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *what;
} subs[] = {
	{ "run", cmd_run, "cut a profile and boot it: -- CMD prints CMD's output, exits with its status" },
	{ "cut", cmd_cut, "build a test image (initramfs) for a profile, only build it" },
	{ "boot", cmd_vm, "boot the last image cut (rapido vm without an IMAGE)" },
	{ "vm", cmd_vm, "boot an image in qemu, exit with the guest's status" },
	{ "vmctl", cmd_vmctl, "act on a running VM (QMP): exec, shell, paths, quit" },
	{ "results", cmd_results, "merge, compare, known: finished runs' result dirs" },
	{ "list", cmd_list, "list the profiles (cut --list)" },
	{ "deps", cmd_deps, "the Debian packages profiles need; --install installs them" },
	{ "netsetup", cmd_netsetup, "bridge and TAP devices for the VMs (as root)" },
	{ "ceph-local", cmd_ceph_local, "a small local Ceph cluster (as root)" },
	{ "bisect", cmd_bisect, "find the commit that broke a profile (a separate program)" },
};
#define N_SUBS (sizeof(subs) / sizeof(subs[0]))

static const struct sub *sub_find(const char *name)
{
	for (size_t i = 0; i < N_SUBS; i++)
		if (!strcmp(subs[i].name, name))
			return &subs[i];
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage:\n"
		" rapido COMMAND [ARGS]\n"
		" rapido help COMMAND\n"
		"\n"
		"Cut a small test image for a kernel and boot it in qemu.\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; i < N_SUBS; i++)
		fprintf(f, " %-12s %s\n", subs[i].name, subs[i].what);
	fprintf(f, "\n"
		"Options:\n"
		"     --version    print the version, and dracut's and qemu's\n"
		" -h, --help       display this help\n"
		"\n"
		"rapido COMMAND --help (or rapido help COMMAND) shows a command's options;\n"
		"its manual is rapido-COMMAND(1). Profiles are found in $RAPIDO_PROFILE_PATH\n"
		"(colon-separated), $XDG_CONFIG_HOME/rapido/profiles (~/.config/rapido/profiles)\n"
		"and the shipped ones; configuration in rapido.conf(5).\n");
}

/* rapido list [ARGS]: cut --list [ARGS] */
static int cmd_list(int argc, char **argv)
{
	char **args = xmalloc((argc + 2) * sizeof(*args));
	int rc;

	args[0] = "cut";
	args[1] = "--list";
	memcpy(args + 2, argv + 1, argc * sizeof(*args));	/* argv[argc] is NULL */
	rc = cmd_cut(argc + 1, args);
	/* the vector is ours (cut keeps no pointer to it): LeakSanitizer says so */
	free(args);
	return rc;
}

/*
 * bisect is a program of its own (./bisect in a checkout, installed next
 * to the profiles): run when it is there, named when it is not.
 */
static int cmd_bisect(int argc, char **argv)
{
	const char *dir = rapido_dir();
	char *path;

	(void)argc;
	if (!dir)
		die_errno("cannot find the rapido directory: readlink /proc/self/exe (set RAPIDO_DIR)");
	path = xasprintf("%s/bisect", dir);
	if (access(path, X_OK) < 0)
		die_errno("bisect is not installed in this rapido (%s)", path);
	argv[0] = path;
	/* bisect runs "rapido cut" and "rapido vm": this rapido, wherever it is */
	if (readlink_self_into_env() < 0)
		die_errno("readlink /proc/self/exe");
	execv(path, argv);
	die_errno("cannot run %s", path);
}

int cmd_rapido(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	const struct sub *s;

	if (!strncmp(base, "rapido-", strlen("rapido-")))
		base += strlen("rapido-");
	s = sub_find(base);
	if (s) {
		err_cmd = argv[0];
		return s->run(argc, argv);
	}
	err_prog = "rapido";
	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    (!strcmp(argv[1], "help") && argc == 2)) {
		usage(stdout);
		close_stdout();
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		version_print("rapido");
		return 0;
	}
	if (!strcmp(argv[1], "help") && argc == 3) {
		/* rapido help cut: cut --help */
		char *args[] = { argv[2], "--help", NULL };

		s = sub_find(argv[2]);
		if (!s)
			usage_die(1, "unknown command '%s'", argv[2]);
		return s->run(2, args);
	}
	if (argv[1][0] == '-')
		usage_die(1, "unknown option '%s' (options go after the command)", argv[1]);
	s = sub_find(argv[1]);
	if (!s)
		usage_die(1, "unknown command '%s'", argv[1]);
	err_cmd = xasprintf("rapido %s", argv[1]);
	return s->run(argc - 1, argv + 1);
}
