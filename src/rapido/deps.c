// SPDX-License-Identifier: GPL-2.0
/*
 * deps.c: rapido deps [--install|--check] [--tests|--all] [PROFILE...]: the
 * Debian packages cutting and booting those profiles needs. It is
 * host/install-deps (installed beside the profiles too), run with this
 * rapido to resolve the profile names: one table (autorun/packages), one
 * reader of the #@ headers, one way to install with no service started.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "front.h"
#include "rapido.h"
#include "strv.h"

static void deps_usage(FILE *f)
{
	fprintf(f, "Usage:\n"
		" rapido deps [--install|--check] [--tests|--all] [PROFILE...]\n"
		"\n"
		"Print the Debian packages that building, cutting and booting simple need\n"
		"(the lean set) and those the PROFILEs' programs come from (their #@ bins;\n"
		"upstream Rapido's names and your own profiles too), one a line, each as\n"
		"this release names it; on stderr, those not installed and how to install\n"
		"them. The table is autorun/packages, the code host/install-deps's.\n"
		"\n"
		"Options:\n"
		"     --install    install the missing ones (apt-get, as root or with sudo),\n"
		"                    no service started or enabled (host/install-deps PROFILE...)\n"
		"     --check      list the missing ones; exit 1 if any is\n"
		"     --tests      add what the test suite needs (every profile's packages)\n"
		"     --all        add everything (arm64's qemu and cross compiler too)\n"
		" -h, --help       display this help\n"
		"\n"
		"Without apt (not Debian): the commands that are missing, exit 1 if any is.\n"
		"\n"
		"Exit status:\n"
		" 0      printed (installed, checked: nothing missing)\n"
		" 1      an unknown profile (the nearest named), a package this release does\n"
		"          not have (named, nothing installed), something missing (--check)\n");
}

int cmd_deps(int argc, char **argv)
{
	const char *dir, *mode = "--list";
	struct strv args = STRV_INIT;
	char *script;

	err_prog = "rapido deps";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			deps_usage(stdout);
			close_stdout();
			return 0;
		}
		if (!strcmp(a, "--install"))
			mode = NULL;
		else if (!strcmp(a, "--check"))
			mode = "--check";
		else if (a[0] == '-' && strcmp(a, "--tests") && strcmp(a, "--all"))
			usage_die(1, "unknown option '%s'", a);
	}
	dir = rapido_dir();
	if (!dir)
		die_errno("cannot find the rapido directory: readlink /proc/self/exe (set RAPIDO_DIR)");
	script = xasprintf("%s/host/install-deps", dir);
	if (access(script, X_OK) < 0)
		die_errno("%s", script);
	strv_push(&args, script);
	if (mode)
		strv_push(&args, mode);
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--install") && strcmp(argv[i], "--check"))
			strv_push(&args, argv[i]);
	/* install-deps asks this rapido which file a profile name means */
	if (readlink_self_into_env() < 0 || setenv("INSTALL_DEPS_AS", "rapido deps", 1))
		die_errno("readlink /proc/self/exe");
	execv(script, strv_argv(&args));
	die_errno("cannot run %s", script);
}
