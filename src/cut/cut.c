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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cut.h"
#include "err.h"
#include "fsinfo.h"
#include "io.h"
#include "rapido.h"

/* This run's private directory (work.c), removed on every exit path. */
static struct cut_work work = { NULL, -1 };

static void cleanup(void)
{
	int rc;

	/* nothing of the run may still write in the directory being removed */
	cut_child_kill();
	rc = cut_work_remove(&work);
	if (rc)
		warn_err(rc, "cannot remove this run's temporary directory");
}

/* A signal taken while no dracut ran: stop here, clean, die of it. */
static void stop_if_signalled(void)
{
	int sig = cut_signal_pending();

	if (sig)
		cut_die_signal(sig, cleanup);
}

static void usage(void)
{
	printf("Usage:\n"
	       " cut [options] PROFILE\n"
	       " cut --list\n"
	       " cut --check-conf\n"
	       " cut --kconfig PROFILE\n"
	       "\n"
	       "Build a bootable test image (initramfs) for PROFILE with dracut.\n"
	       "\n"
	       "Options:\n"
	       " -x, --cmd CMD          run CMD in the guest after the profile (repeatable)\n"
	       " -f, --file FILE        run the script FILE after the profile (repeatable)\n"
	       " -o, --output IMAGE     write the image to IMAGE (default: DRACUT_OUT, else\n"
	       "                          initrds/myinitrd in the checkout or, installed,\n"
	       "                          in $XDG_CACHE_HOME/rapido)\n"
	       " -l, --list             list the profiles with their purpose\n"
	       "     --kconfig          print the kernel config fragment PROFILE asks for\n"
	       "                          (its #@ kconfig lines; make kernel-config merges it)\n"
	       " -n, --dry-run          check everything, print the dracut command, write nothing\n"
	       "     --ignore-kconfig   go on when the kernel config lacks a symbol the profile needs\n"
	       "     --check-conf       lint rapido.conf: each value and where it came from,\n"
	       "                          unknown keys, values of the wrong type (exit 1)\n"
	       " -v, --verbose          show dracut's output\n"
	       " -h, --help             display this help\n"
	       "\n"
	       "-x and -f extras run in the order given, after the profile script, in the\n"
	       "same shell. Configuration: $RAPIDO_CONF, else the first rapido.conf found in\n"
	       "the checkout, $XDG_CONFIG_HOME/rapido (~/.config/rapido), /etc/rapido;\n"
	       "environment variables override its keys (see rapido.conf(5)).\n");
}

static void add_extra(struct cut_opts *o, int is_file, const char *arg)
{
	o->extras = xrealloc(o->extras, (o->n_extras + 1) * sizeof(*o->extras));
	o->extras[o->n_extras].is_file = is_file;
	o->extras[o->n_extras].arg = xstrdup(arg);
	o->n_extras++;
}

enum { OPT_IGNORE_KCONFIG = CHAR_MAX + 1, OPT_CHECK_CONF, OPT_KCONFIG };

/* *list: 1 for --list, 2 for --check-conf, 3 for --kconfig PROFILE (print, no cut) */
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
		{ "check-conf", no_argument, NULL, OPT_CHECK_CONF },
		{ "kconfig", no_argument, NULL, OPT_KCONFIG },
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
		case OPT_CHECK_CONF:
			*list = 2;	/* like --list: no profile */
			break;
		case OPT_KCONFIG:
			*list = 3;
			break;
		case 'h':
			usage();
			close_stdout();
			exit(0);
		default:
			usage_die(1, NULL);
		}
	}
	if (*list && *list != 3)
		return;
	if (optind >= argc) {
		usage_die(1, "no profile given");
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

static const char *space_text(int err)
{
	return err == ENOSPC ? "no space left on device" : "disk quota exceeded";
}

/* Writing PATH failed with -err: on a full disk, say which disk and how full. */
static noreturn void die_write(int err, const char *what, const char *path)
{
	if (err == -ENOSPC || err == -EDQUOT) {
		char *copy = xstrdup(path);

		die("%s %s: %s on %s; no image written", what, path, space_text(-err),
		    fs_describe(dirname(copy)));
	}
	die_err(err, "%s %s", what, path);
}

static void run_dracut(const struct cut_opts *o, struct cut_plan *p, const char *out)
{
	struct cut_child_result r;
	struct strv argv = STRV_INIT;
	char *tmpdir = cut_work_path(&work, "tmp");
	int rc;

	if (mkdir(tmpdir, 0700) < 0)
		die_write(-errno, "creating", tmpdir);
	cut_dracut_argv(o, p, out, tmpdir, &argv);
	rc = cut_child_run(strv_argv(&argv), o->verbose, &r);
	if (rc)
		die_err(rc, "cannot run %s", argv.v[0]);
	if (r.stop_sig)
		cut_die_signal(r.stop_sig, cleanup);
	if (!WIFEXITED(r.status) || WEXITSTATUS(r.status)) {
		char *copy = xstrdup(p->output);
		char *how = WIFEXITED(r.status) ? xasprintf("exit status %d", WEXITSTATUS(r.status)) :
			xasprintf("signal %d", WTERMSIG(r.status));

		if (!o->verbose && r.len)
			fprintf(stderr, "---- dracut output%s ----\n%s%s---- end of dracut output ----\n",
				r.truncated ? " (its end)" : "", r.tail,
				r.tail[r.len - 1] == '\n' ? "" : "\n");
		if (WIFEXITED(r.status) && WEXITSTATUS(r.status) == 127)
			die("%s could not be run (is dracut-core installed? make deps)", argv.v[0]);
		/* dracut's tools say ENOSPC in words; the file system is ours to name */
		if (r.space_err)
			die("dracut failed (%s): %s on %s; no image written", how,
			    space_text(r.space_err), fs_describe(dirname(copy)));
		die("dracut failed (%s); no image written", how);
	}
	cut_child_result_free(&r);
	strv_free(&argv);
	free(tmpdir);
}

/*
 * Everything is written in this run's own directory next to the image:
 * rapido's archive, then dracut's appended to it, then one rename() puts
 * the image in place.
 */
static int build_image(const struct cut_opts *o, struct cut_plan *p)
{
	char *dir_copy = xstrdup(p->output), *outdir = dirname(dir_copy);
	char *image, *dracut_out;
	int fd, rc;
	char *err;

	if (p->make_outdir && mkdir(outdir, 0755) < 0 && errno != EEXIST)
		die_errno("cannot create %s", outdir);
	cut_work_reap_stale(p->output);
	rc = cut_work_create(&work, p->output);
	if (rc)
		die_write(rc, "cannot create a temporary directory next to", p->output);
	stop_if_signalled();

	/*
	 * Born with its final mode: a secret is never readable by others,
	 * not even for a moment; anything else follows the umask.
	 */
	image = cut_work_path(&work, "image");
	fd = open(image, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, p->secret ? 0600 : 0666);
	if (fd < 0)
		die_write(-errno, "cannot create", image);
	rc = cut_write_rapido_cpio(o, p, fd, &err);
	if (rc == -ENOSPC || rc == -EDQUOT)
		die_write(rc, "writing", image);
	if (rc)
		die("%s", err);
	stop_if_signalled();

	dracut_out = cut_work_path(&work, "dracut.img");
	run_dracut(o, p, dracut_out);
	rc = append_file(fd, dracut_out);
	if (rc)
		die_write(rc, "appending dracut's archive to", image);
	if (close(fd) < 0)
		die_write(-errno, "writing", image);
	stop_if_signalled();
	if (rename(image, p->output) < 0)
		die_errno("rename %s to %s", image, p->output);
	rc = cut_work_remove(&work);
	if (rc)
		warn_err(rc, "cannot remove this run's temporary directory");
	free(image);
	free(dracut_out);
	free(dir_copy);
	return 0;
}

int cmd_cut(int argc, char **argv)
{
	struct cut_opts o = { 0 };
	struct cut_plan p;
	int list = 0;

	err_prog = "cut";
	parse_args(argc, argv, &o, &list);
	if (list == 2)
		return cut_check_conf();
	if (list == 1)
		return cut_list();
	if (list == 3)
		return cut_kconfig(o.profile);

	cut_plan_or_die(&o, &p);
	if (o.dry_run) {
		struct strv dargv = STRV_INIT;
		char *out = xasprintf("%s.cut-XXXXXX/dracut.img", p.output);
		char *tmp = xasprintf("%s.cut-XXXXXX/tmp", p.output);

		/* what a real run passes, up to the random letters */
		cut_dracut_argv(&o, &p, out, tmp, &dargv);
		free(out);
		free(tmp);
		strv_print_quoted(stdout, &dargv);
		strv_free(&dargv);
		close_stdout();
		cut_plan_free(&p);
		return 0;
	}
	/* from here on a signal is taken in turn, so that it can stop dracut and clean up */
	cut_signals_take();
	atexit(cleanup);
	build_image(&o, &p);
	printf("%s: profile %s, kernel %s\n", p.output, p.prof.name, p.kern.release);
	close_stdout();
	cut_plan_free(&p);
	for (size_t i = 0; i < o.n_extras; i++)
		free(o.extras[i].arg);
	free(o.extras);
	return 0;
}
