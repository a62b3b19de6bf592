// SPDX-License-Identifier: GPL-2.0
/*
 * cut.c: ./cut PROFILE: check, then build the image from cached layers
 * (build.c) in a temporary file that is renamed over the image, so a VM
 * booting meanwhile never reads half an image.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cut.h"
#include "err.h"
#include "rapido.h"
#include "io.h"
#include "layer.h"
#include "shwords.h"
#include "version.h"

/* This run's private directory (work.c), removed on every exit path. */
static struct cut_work work = { NULL, -1 };

static void cleanup(void)
{
	int rc;

	/* nothing of the run may still write in the directory being removed */
	cut_child_kill();
	/* the cache's temporaries (its tmp/), outside the work directory */
	cut_tmp_cleanup();
	rc = cut_work_remove(&work);
	if (rc)
		warn_err(rc, "cannot remove this run's temporary directory");
}

static void usage(void)
{
	printf("Usage:\n"
	       " cut [options] PROFILE\n"
	       " cut --list\n"
	       " cut --check-conf\n"
	       " cut --kconfig PROFILE\n"
	       " cut --locate PROFILE\n"
	       "\n"
	       "Build a bootable test image (initramfs) for PROFILE with dracut; build only:\n"
	       "./vm (rapido boot) boots the last one. Cut and boot in one step, printing\n"
	       "a command's output and exiting with its status: rapido run PROFILE -- CMD.\n"
	       "\n"
	       "Options:\n"
	       " -x, --cmd CMD          run CMD in the guest after the profile (repeatable)\n"
	       " -f, --file FILE        run the script FILE after the profile (repeatable)\n"
	       " -b, --bins 'PROG...'   add host programs (names in PATH or absolute paths)\n"
	       "                          and their libraries to the image (repeatable; with\n"
	       "                          rapido.conf's CUT_EXTRA_BINS)\n"
	       " -o, --output IMAGE     write the image to IMAGE (default: DRACUT_OUT, else\n"
	       "                          initrds/myinitrd in the checkout or, installed,\n"
	       "                          in $XDG_CACHE_HOME/rapido)\n"
	       " -l, --list             list the profiles with their purpose\n"
	       "     --kconfig          print the kernel config fragment PROFILE asks for\n"
	       "                          (its #@ kconfig lines; make kernel-config merges it)\n"
	       "     --locate           print the file PROFILE is read from (upstream Rapido's\n"
	       "                          names: their profile's; host/install-deps asks it)\n"
	       " -n, --dry-run          check everything, print the dracut command, write nothing\n"
	       "     --standalone       put the layers into the image file itself, so it boots\n"
	       "                          without the cache (on another machine, by a bare qemu)\n"
	       "     --no-cache         neither use nor fill the layer cache (implies --standalone)\n"
	       "     --dracut-modules   have dracut write the kernel modules layer too (by\n"
	       "                          default ./cut writes it from modules.dep and depmod)\n"
	       "     --cache-info       show the layer cache: where, how big, what it holds\n"
	       "     --ignore-kconfig   go on when the kernel config lacks a symbol the profile needs\n"
	       "     --check-conf       lint rapido.conf: each value and where it came from,\n"
	       "                          unknown keys, values of the wrong type (exit 1)\n"
	       " -v, --verbose          show dracut's output\n"
	       " -q, --quiet            print nothing but errors and warnings (no progress\n"
	       "                          lines, which go to stderr when it is a terminal)\n"
	       "     --version          print the version, and dracut's and qemu's\n"
	       " -h, --help             display this help\n"
	       "\n"
	       "-x and -f extras run in the order given, after the profile script, in the\n"
	       "same shell. Configuration: $RAPIDO_CONF, else the first rapido.conf found in\n"
	       "the checkout, $XDG_CONFIG_HOME/rapido (~/.config/rapido), /etc/rapido;\n"
	       "environment variables override its keys (see rapido.conf(5)). Layers dracut\n"
	       "built are cached in CUT_CACHE_DIR (see docs/CACHE.md), so a re-cut that\n"
	       "changes only extras, the profile script or rapido.conf runs no dracut.\n"
	       "\n"
	       "PROFILE may be upstream Rapido's name for one (fstests_xfs is fstests_local\n"
	       "with FSTESTS_FS=xfs): ./cut says what it cuts; --list shows them all.\n"
	       "\n"
	       "Exit status:\n"
	       " 0      the image was written (or --list, --kconfig, --locate, --dry-run, --check-conf,\n"
	       "          --cache-info printed what they print)\n"
	       " 1      anything refused or failed, each cause named on stderr: a bad option, an\n"
	       "          unknown profile, a missing binary, module, key or kconfig symbol,\n"
	       "          dracut's failure; --check-conf found a problem; no image was written\n"
	       " 128+N  stopped by signal N (SIGINT, SIGTERM, SIGHUP): dracut's run stopped,\n"
	       "          its temporary files removed, no image written\n");
}

static void add_extra(struct cut_opts *o, int is_file, const char *arg)
{
	o->extras = xrealloc(o->extras, (o->n_extras + 1) * sizeof(*o->extras));
	o->extras[o->n_extras].is_file = is_file;
	o->extras[o->n_extras].arg = xstrdup(arg);
	o->n_extras++;
}

enum {
	OPT_IGNORE_KCONFIG = CHAR_MAX + 1, OPT_NO_CACHE, OPT_STANDALONE, OPT_CACHE_INFO,
	OPT_CHECK_CONF, OPT_KCONFIG, OPT_DRACUT_MODULES, OPT_LOCATE
};

/* What this run of ./cut does: cut an image, or only print something. */
enum cut_mode {
	CUT_IMAGE,		/* ./cut PROFILE */
	CUT_LIST,		/* --list */
	CUT_CHECK_CONF,		/* --check-conf */
	CUT_KCONFIG,		/* --kconfig PROFILE: print, no cut */
	CUT_LOCATE,		/* --locate PROFILE: its file, no cut */
	CUT_CACHE_INFO,		/* --cache-info */
};

static void parse_args(int argc, char **argv, struct cut_opts *o, enum cut_mode *mode)
{
	static const struct option longopts[] = {
		{ "cmd", required_argument, NULL, 'x' },
		{ "file", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "bins", required_argument, NULL, 'b' },
		{ "list", no_argument, NULL, 'l' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "ignore-kconfig", no_argument, NULL, OPT_IGNORE_KCONFIG },
		{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
		{ "standalone", no_argument, NULL, OPT_STANDALONE },
		{ "dracut-modules", no_argument, NULL, OPT_DRACUT_MODULES },
		{ "cache-info", no_argument, NULL, OPT_CACHE_INFO },
		{ "check-conf", no_argument, NULL, OPT_CHECK_CONF },
		{ "kconfig", no_argument, NULL, OPT_KCONFIG },
		{ "locate", no_argument, NULL, OPT_LOCATE },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "x:f:o:b:lnvqh", longopts, NULL)) != -1) {
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
		case 'b': {
			char *err = NULL;

			if (shwords_split(optarg, &o->bins, &err) < 0) {
				fprintf(stderr, "cut: --bins '%s': %s\n", optarg, err);
				free(err);
				exit(1);
			}
			break;
		}
		case 'l':
			*mode = CUT_LIST;
			break;
		case 'n':
			o->dry_run = 1;
			break;
		case 'v':
			o->verbose = 1;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case OPT_IGNORE_KCONFIG:
			o->ignore_kconfig = 1;
			break;
		case OPT_NO_CACHE:
			o->no_cache = 1;
			break;
		case OPT_STANDALONE:
			o->standalone = 1;
			break;
		case OPT_DRACUT_MODULES:
			o->dracut_modules = 1;
			break;
		case OPT_CACHE_INFO:
			*mode = CUT_CACHE_INFO;
			break;
		case OPT_CHECK_CONF:
			*mode = CUT_CHECK_CONF;
			break;
		case OPT_KCONFIG:
			*mode = CUT_KCONFIG;
			break;
		case OPT_LOCATE:
			*mode = CUT_LOCATE;
			break;
		case 'V':
			version_print("cut");
			exit(0);
		case 'h':
			usage();
			close_stdout();
			exit(0);
		default:
			usage_die(1, NULL);
		}
	}
	/* --list, --check-conf and --cache-info take no profile */
	if (*mode != CUT_IMAGE && *mode != CUT_KCONFIG && *mode != CUT_LOCATE)
		return;
	if (optind >= argc)
		usage_die(1, "no profile given (%scut --list shows the profiles; %scut simple is the smallest)",
			  rapido_cmd_prefix(), rapido_cmd_prefix());
	o->profile = argv[optind++];
	if (optind < argc)
		usage_die(1, "one profile at a time ('%s' after '%s')", argv[optind], o->profile);
}

static void cut_opts_free(struct cut_opts *o)
{
	strv_free(&o->bins);
	for (size_t i = 0; i < o->n_extras; i++)
		free(o->extras[i].arg);
	free(o->extras);
}

/* ./vm without an IMAGE boots what was cut last; failing to say so costs only that */
static void last_image_record(const struct cut_plan *p)
{
	char *err;

	if (rapido_last_image_save(&p->conf, p->output, &err)) {
		warn("%s is not recorded as the last image (./vm without an IMAGE will not find "
		     "it): %s", p->output, err);
		free(err);
	}
}

int cut_image_fd = -1;

/* rapido run: the image just built, to boot */
static void image_report(const struct cut_plan *p)
{
	char *abs = realpath(p->output, NULL);
	int rc;

	if (!abs)
		die_errno("%s", p->output);
	rc = write_all(cut_image_fd, abs, strlen(abs) + 1);
	if (rc)
		die_err(rc, "writing the image's path to rapido run");
	free(abs);
}

int cmd_cut(int argc, char **argv)
{
	struct cut_opts o = { 0 };
	struct cut_plan p;
	enum cut_mode mode = CUT_IMAGE;

	err_prog = "cut";
	parse_args(argc, argv, &o, &mode);
	/* --locate prints a path for a script: no "cutting ..." beside it */
	if (o.profile)
		o.profile = cut_profile_resolve(o.profile, o.quiet || mode == CUT_LOCATE);
	switch (mode) {
	case CUT_CHECK_CONF:
		return cut_check_conf();
	case CUT_LIST:
		return cut_list();
	case CUT_CACHE_INFO:
		return cut_cache_info();
	case CUT_KCONFIG:
		return cut_kconfig(o.profile);
	case CUT_LOCATE:
		return cut_locate(o.profile);
	case CUT_IMAGE:
		break;
	}

	/* a dry run prints the dracut command and nothing else */
	cut_progress_init(o.quiet || o.dry_run);
	cut_progress("checking %s: rapido.conf, the profile, the kernel, binaries, modules",
		     o.profile);
	cut_plan_or_die(&o, &p);
	if (o.dry_run) {
		struct strv dargv = STRV_INIT;
		char *out = xasprintf("%s.cut-XXXXXX/dracut.img", p.output);
		char *tmp = xasprintf("%s.cut-XXXXXX/tmp", p.output);

		/* what a real run passes, up to the random letters */
		cut_dracut_argv(&o, &p, out, DRACUT_ALL, NULL, tmp, NULL, &dargv);
		free(out);
		free(tmp);
		strv_print_quoted(stdout, &dargv);
		strv_free(&dargv);
		close_stdout();
		cut_plan_free(&p);
		cut_opts_free(&o);	/* -n -x CMD: the extras are ours to free here too */
		return 0;
	}
	/* from here on a signal is taken in turn, so that it can stop dracut and clean up */
	cut_signals_take();
	atexit(cleanup);
	cut_build(&o, &p, &work, cleanup);
	last_image_record(&p);
	if (cut_image_fd >= 0)
		image_report(&p);
	close_stdout();
	cut_plan_free(&p);
	cut_opts_free(&o);
	return 0;
}
