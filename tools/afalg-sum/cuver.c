// SPDX-License-Identifier: GPL-2.0
/* cuver.c: ask the coreutils on PATH its version, for what its -c prints (cuver.h). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuver.h"
#include "err.h"
#include "run.h"

/* ALGsum if ALG could be part of such a name ("md5", "sha512"), else NULL */
static char *alg_prog(const char *alg)
{
	if (!alg || !*alg || alg[strspn(alg, "abcdefghijklmnopqrstuvwxyz0123456789")])
		return NULL;
	return xasprintf("%ssum", alg);
}

enum afsum_check_escape afsum_check_escape_ask(const char *alg)
{
	char *prog = alg_prog(alg), *path = prog ? find_in_path(prog) : NULL;
	char *argv[] = { NULL, "--version", NULL }, *line = NULL;
	enum afsum_check_escape rule;
	int null_fd;

	if (!path)
		path = find_in_path("sha256sum");
	free(prog);
	if (!path)
		return AFSUM_CHECK_ESC_ALL;
	/* a busybox applet says its usage on stderr: not ours to show */
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	argv[0] = path;
	if (null_fd >= 0) {
		/* a hung program must not hang a check */
		line = run_first_line(argv, null_fd, 10);
		close(null_fd);
	}
	rule = afsum_check_escape_of(line);
	free(line);
	free(path);
	return rule;
}
