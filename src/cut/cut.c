// SPDX-License-Identifier: GPL-2.0
/*
 * cut.c: ./cut PROFILE: check, write rapido's archive, run dracut, and put
 * the two together in a temporary file that is renamed over the image, so a
 * VM booting meanwhile never reads half an image.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cut.h"
#include "err.h"
#include "io.h"
#include "rapido.h"
#include "run.h"

/* Temporaries removed on any exit path, including SIGINT/SIGTERM. */
static char *tmp_paths[3];

static void tmp_cleanup(void)
{
	for (size_t i = 0; i < sizeof(tmp_paths) / sizeof(tmp_paths[0]); i++)
		if (tmp_paths[i])
			unlink(tmp_paths[i]);
}

static void on_signal(int sig)
{
	tmp_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void usage(void)
{
	printf("Usage:\n"
	       " cut [options] PROFILE\n"
	       " cut --list\n"
	       "\n"
	       "Build a bootable test image (initramfs) for PROFILE with dracut.\n"
	       "\n"
	       "Options:\n"
	       " -x, --cmd CMD          run CMD in the guest after the profile (repeatable)\n"
	       " -f, --file FILE        run the script FILE after the profile (repeatable)\n"
	       " -o, --output IMAGE     write the image to IMAGE (default: DRACUT_OUT or\n"
	       "                          initrds/myinitrd in the rapido directory)\n"
	       " -l, --list             list the profiles with their purpose\n"
	       " -n, --dry-run          check everything, print the dracut command, write nothing\n"
	       "     --ignore-kconfig   go on when the kernel config lacks a symbol the profile needs\n"
	       " -v, --verbose          show dracut's output\n"
	       " -h, --help             display this help\n"
	       "\n"
	       "-x and -f extras run in the order given, after the profile script, in the\n"
	       "same shell. Configuration: rapido.conf in the rapido directory, or\n"
	       "$RAPIDO_CONF; environment variables override its keys.\n");
}

static void add_extra(struct cut_opts *o, int is_file, const char *arg)
{
	o->extras = xrealloc(o->extras, (o->n_extras + 1) * sizeof(*o->extras));
	o->extras[o->n_extras].is_file = is_file;
	o->extras[o->n_extras].arg = xstrdup(arg);
	o->n_extras++;
}

enum { OPT_IGNORE_KCONFIG = CHAR_MAX + 1 };

static void parse_args(int argc, char **argv, struct cut_opts *o, int *list)
{
	static const struct option longopts[] = {
		{ "cmd", required_argument, NULL, 'x' },
		{ "file", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "list", no_argument, NULL, 'l' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "ignore-kconfig", no_argument, NULL, OPT_IGNORE_KCONFIG },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "x:f:o:lnvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'x':
			add_extra(o, 0, optarg);
			break;
		case 'f':
			add_extra(o, 1, optarg);
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'l':
			*list = 1;
			break;
		case 'n':
			o->dry_run = 1;
			break;
		case 'v':
			o->verbose = 1;
			break;
		case OPT_IGNORE_KCONFIG:
			o->ignore_kconfig = 1;
			break;
		case 'h':
			usage();
			close_stdout();
			exit(0);
		default:
			fprintf(stderr, "Try 'cut --help' for more information.\n");
			exit(1);
		}
	}
	if (*list)
		return;
	if (optind >= argc) {
		fprintf(stderr, "cut: no profile given\nTry 'cut --help' for more information.\n");
		exit(1);
	}
	o->profile = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "cut: one profile at a time ('%s' after '%s')\n"
			"Try 'cut --help' for more information.\n", argv[optind], o->profile);
		exit(1);
	}
}

/* Copy dracut's archive after ours; copy_file_range shares extents where it can. */
static int append_file(int dst, const char *src_path)
{
	int src = open(src_path, O_RDONLY | O_CLOEXEC);
	int err = 0;

	if (src < 0)
		return -errno;
	for (;;) {
		ssize_t n = copy_file_range(src, NULL, dst, NULL, 1 << 30, 0);

		if (n == 0)
			break;
		if (n > 0)
			continue;
		if (errno == EINTR)
			continue;
		if (errno == EXDEV || errno == ENOSYS || errno == EOPNOTSUPP || errno == EINVAL) {
			char buf[1 << 16];
			ssize_t r;

			while ((r = read(src, buf, sizeof(buf))) > 0) {
				err = write_all(dst, buf, (size_t)r);
				if (err)
					break;
			}
			if (r < 0 && !err)
				err = -errno;
			break;
		}
		err = -errno;
		break;
	}
	close(src);
	return err;
}

static void dracut_log_tail(const char *log)
{
	char *text;

	if (read_file(log, &text, NULL))
		return;
	fprintf(stderr, "---- dracut output ----\n%s---- end of dracut output ----\n", text);
	free(text);
}

static int build_image(const struct cut_opts *o, struct cut_plan *p)
{
	char *dir_copy = xstrdup(p->output), *outdir = dirname(dir_copy);
	struct strv argv = STRV_INIT;
	int fd, logfd = -1, status, rc;
	char *err;

	if (mkdir(outdir, 0755) < 0 && errno != EEXIST)
		die_errno("cannot create %s", outdir);
	tmp_paths[0] = xasprintf("%s.tmpXXXXXX", p->output);
	fd = mkostemp(tmp_paths[0], O_CLOEXEC);
	if (fd < 0)
		die_errno("cannot create a temporary file next to %s", p->output);
	tmp_paths[1] = xasprintf("%s.dracutXXXXXX", p->output);
	rc = mkostemp(tmp_paths[1], O_CLOEXEC);
	if (rc < 0)
		die_errno("cannot create a temporary file next to %s", p->output);
	close(rc);
	if (!o->verbose) {
		tmp_paths[2] = xasprintf("%s.logXXXXXX", p->output);
		logfd = mkostemp(tmp_paths[2], O_CLOEXEC);
		if (logfd < 0)
			die_errno("cannot create a temporary file next to %s", p->output);
	}

	if (cut_write_rapido_cpio(o, p, fd, &err))
		die("%s", err);

	cut_dracut_argv(o, p, tmp_paths[1], &argv);
	status = run_wait(strv_argv(&argv), logfd);
	if (status < 0)
		die_err(status, "cannot run %s", argv.v[0]);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		if (logfd >= 0)
			dracut_log_tail(tmp_paths[2]);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			die("%s could not be run (is dracut-core installed? make deps)", argv.v[0]);
		die("dracut failed (%s %d); no image written",
		    WIFEXITED(status) ? "exit status" : "signal",
		    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	}
	rc = append_file(fd, tmp_paths[1]);
	if (rc)
		die_err(rc, "appending dracut's archive to %s", tmp_paths[0]);
	if (fchmod(fd, 0644) < 0)
		die_errno("chmod %s", tmp_paths[0]);
	if (close(fd) < 0)
		die_errno("writing %s", tmp_paths[0]);
	if (rename(tmp_paths[0], p->output) < 0)
		die_errno("rename %s to %s", tmp_paths[0], p->output);
	free(tmp_paths[0]);
	tmp_paths[0] = NULL;
	strv_free(&argv);
	free(dir_copy);
	if (logfd >= 0)
		close(logfd);
	return 0;
}

int cmd_cut(int argc, char **argv)
{
	struct cut_opts o = { 0 };
	struct cut_plan p;
	int list = 0;

	err_prog = "cut";
	parse_args(argc, argv, &o, &list);
	if (list)
		return cut_list();

	cut_plan_or_die(&o, &p);
	if (o.dry_run) {
		struct strv dargv = STRV_INIT;

		cut_dracut_argv(&o, &p, p.output, &dargv);
		strv_print_quoted(stdout, &dargv);
		strv_free(&dargv);
		close_stdout();
		cut_plan_free(&p);
		return 0;
	}
	atexit(tmp_cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	build_image(&o, &p);
	printf("%s: profile %s, kernel %s\n", p.output, p.prof.name, p.kern.release);
	close_stdout();
	cut_plan_free(&p);
	for (size_t i = 0; i < o.n_extras; i++)
		free(o.extras[i].arg);
	free(o.extras);
	return 0;
}
