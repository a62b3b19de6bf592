// SPDX-License-Identifier: GPL-2.0
/*
 * run.c: rapido run [PROFILE] [CUT OPTIONS] [-- CMD [ARG]...], from
 * nothing to a command's output in one step (vng -- CMD's habit): cut
 * PROFILE (simple by default; the layer cache makes a re-cut quick), then
 * boot what was cut. With CMD, in batch: only CMD's stdout and stderr on
 * ./vm's (src/vm/execout.c), the exit status the verdict's (CMD's, unless
 * the kernel reported a problem or the guest never reported); without, an
 * interactive shell.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cut.h"
#include "err.h"
#include "front.h"
#include "io.h"
#include "strv.h"
#include "vm.h"

static void run_usage(FILE *f)
{
	fprintf(f, "Usage:\n"
		" rapido run [PROFILE] [CUT OPTIONS] [-- CMD [ARG]...]\n"
		"\n"
		"Cut PROFILE (default: simple; rapido cut's options) and boot it. With\n"
		"CMD: run it in the guest after the profile, print only its own output (stdout\n"
		"and stderr; the console goes to the log) and exit with its status, or with\n"
		"./vm's own when the kernel reported a problem (121), the guest stopped\n"
		"without a status (123), ... (see rapido vm --help). Without CMD: a shell.\n"
		"Settings of the VM come from rapido.conf or the environment (VM_MEMORY, ...).\n"
		"rapido boot boots the last image again; rapido cut only builds one.\n");
}

/* cut's options that build no image: rapido run would boot what it did not cut */
static int not_an_image(const char *a)
{
	static const char *const opts[] = { "-l", "--list", "--check-conf", "--kconfig",
					     "--cache-info", "-n", "--dry-run", "-h", "--help",
					     "--version" };

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (!strcmp(a, opts[i]))
			return 1;
	return 0;
}

/* cut's options that take a value in the next argument */
static int takes_value(const char *a)
{
	static const char *const opts[] = { "-x", "--cmd", "-f", "--file", "-o", "--output",
					     "-b", "--bins" };

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (!strcmp(a, opts[i]))
			return 1;
	return 0;
}

/*
 * cut ARGS (PROFILE added when none is given), its stdout on our stderr: 0
 * with the image it built in *image (malloc'd), or its status.
 */
static int run_cut(char **args, int n, char **image)
{
	struct strv v = STRV_INIT;
	int profile = 0, st, pfd[2], got;
	char *path = NULL;
	size_t len = 0;
	pid_t pid;

	strv_push(&v, "cut");
	for (int i = 0; i < n; i++) {
		if (not_an_image(args[i]))
			usage_die(1, "%s: rapido cut's, which builds no image to boot (rapido cut %s)",
				  args[i], args[i]);
		strv_push(&v, args[i]);
		if (takes_value(args[i]) && i + 1 < n)
			strv_push(&v, args[++i]);
		else if (args[i][0] != '-')
			profile = 1;
	}
	if (!profile)
		strv_push(&v, "simple");
	if (pipe2(pfd, O_CLOEXEC) < 0)
		die_errno("pipe");
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (pid == 0) {
		/* stdout is the command's: cut's lines go with ./vm's own messages */
		if (dup2(2, 1) < 0)
			die_errno("dup2");
		close(pfd[0]);
		cut_image_fd = pfd[1];
		exit(cmd_cut((int)v.n, v.v));
	}
	close(pfd[1]);
	strv_free(&v);
	/* the path cut built, whatever the record of the last image in the state dir says */
	got = read_fd_max(pfd[0], PATH_MAX + 1, &path, &len);
	close(pfd[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			die_errno("waitpid");
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		free(path);
		if (!WIFEXITED(st))
			return 128 + WTERMSIG(st);
		return WEXITSTATUS(st);
	}
	if (got || !len || path[len - 1] != '\0' || path[0] != '/')
		die("cut exited 0 but did not say which image it built%s%s: nothing to boot",
		    got ? ": " : "", got ? err_str(got) : "");
	*image = path;
	return 0;
}

/* CMD [ARG]... as one bash -c command line, each word quoted (malloc'd). */
static char *command_line(char **words, int n)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		die_errno("open_memstream");
	for (int i = 0; i < n; i++) {
		if (i)
			fputc(' ', f);
		shell_quote(f, words[i]);
	}
	if (fclose(f))
		die_errno("open_memstream");
	return s;
}

int cmd_run(int argc, char **argv)
{
	int split = argc, rc;
	char *cmd = NULL, *image = NULL;

	err_prog = "rapido run";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			split = i;
			break;
		}
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			run_usage(stdout);
			close_stdout();
			return 0;
		}
	}
	if (split < argc && split + 1 == argc)
		usage_die(1, "-- with no command after it (leave out -- for a shell)");
	rc = run_cut(argv + 1, split - 1, &image);
	if (rc)
		return rc;
	if (split < argc)
		cmd = command_line(argv + split + 1, argc - split - 1);
	{
		char *vargv[] = { "vm", image, NULL };

		rc = cmd ? cmd_vm_exec(2, vargv, cmd) : cmd_vm(2, vargv);
	}
	free(cmd);
	free(image);
	return rc;
}
