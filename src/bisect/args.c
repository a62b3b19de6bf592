// SPDX-License-Identifier: GPL-2.0
/* args.c: ./bisect's command line, and the copy of it --continue reads back. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect.h"
#include "err.h"
#include "io.h"
#include "num.h"

static void usage(void)
{
	printf("Usage:\n"
	       " bisect [options] --good REV --bad REV PROFILE [CUT-OPTIONS...] [-- VM-OPTIONS...]\n"
	       " bisect --continue\n"
	       " bisect --reset\n"
	       " bisect [options] --compare REV_A REV_B PROFILE [CUT-OPTIONS...] [-- VM-OPTIONS...]\n"
	       "\n"
	       "Find the first kernel commit that fails PROFILE the way REV (--bad) does, with\n"
	       "git bisect in the git tree KERNEL_SRC: each step configures the tree for the\n"
	       "profile, builds it incrementally, cuts the image and boots it --runs times.\n"
	       "\n"
	       "Options:\n"
	       "     --good REV         a commit that passes\n"
	       "     --bad REV          a commit that fails; a bad step must fail the same way\n"
	       "     --runs N           boot each step N times (default 1)\n"
	       "     --flaky=fail|skip|pass  a step whose runs disagree counts as bad (fail),\n"
	       "                          skip or good (pass), as ./vm's --flaky counts a\n"
	       "                          flaky test (default skip; bad and good, the old\n"
	       "                          words, still work with a warning)\n"
	       "     --match REGEX      bad: a failed run whose console or results match REGEX\n"
	       "                          (extended, per line), whatever its status\n"
	       "     --results          boot with --results: bad must fail the same tests\n"
	       "     --build-cmd PROG   run PROG in KERNEL_SRC instead of configuring and building\n"
	       "                          (it gets RAPIDO_BISECT_OBJ, _MODS, _JOBS, _REV)\n"
	       " -j, --jobs N           make -jN (default: the number of CPUs)\n"
	       " -O, --build-dir DIR    build in DIR (the kernel's O=; default: the tree itself)\n"
	       "     --base TARGET      kernel-config's --base (default tinyconfig)\n"
	       "     --fragment FILE    add a kconfig fragment after the profile's (repeatable)\n"
	       "     --state DIR        keep the bisection's state and logs in DIR\n"
	       "                          (default GIT_DIR/rapido-bisect)\n"
	       "     --allow-dirty      go on in a tree with uncommitted changes to tracked files\n"
	       "     --continue         resume the bisection after an interruption\n"
	       "     --reset            end it: git bisect reset, remove the state directory\n"
	       "     --compare          build and boot REV_A and REV_B, print the per-test\n"
	       "                          differences that hold over --runs re-runs\n"
	       " -h, --help             display this help\n"
	       "\n"
	       "Exit status:\n"
	       " 0  the first bad commit was found (--compare: no difference held)\n"
	       " 1  git bisect could not decide: only skipped commits are left\n"
	       "    (--compare: a difference held)\n"
	       " 2  usage error, or input that cannot be bisected (not a git tree, an unknown\n"
	       "    REV, good not an ancestor of bad, a dirty tree, no KERNEL_SRC, a build\n"
	       "    command that is not executable, an unknown profile, a bisection already\n"
	       "    in progress, none to continue or reset, a --state bisect did not make)\n"
	       " 3  the bisection could not go on: the bad commit passed or did not build,\n"
	       "    or a git command failed (--compare: a side did not build)\n");
}

enum {
	OPT_GOOD = CHAR_MAX + 1, OPT_BAD, OPT_RUNS, OPT_FLAKY, OPT_MATCH, OPT_RESULTS,
	OPT_BUILD_CMD, OPT_BASE, OPT_FRAGMENT, OPT_STATE, OPT_ALLOW_DIRTY, OPT_CONTINUE,
	OPT_RESET, OPT_COMPARE,
};

static const struct option longopts[] = {
	{ "good", required_argument, NULL, OPT_GOOD },
	{ "bad", required_argument, NULL, OPT_BAD },
	{ "runs", required_argument, NULL, OPT_RUNS },
	{ "flaky", required_argument, NULL, OPT_FLAKY },
	{ "match", required_argument, NULL, OPT_MATCH },
	{ "results", no_argument, NULL, OPT_RESULTS },
	{ "build-cmd", required_argument, NULL, OPT_BUILD_CMD },
	{ "jobs", required_argument, NULL, 'j' },
	{ "build-dir", required_argument, NULL, 'O' },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "fragment", required_argument, NULL, OPT_FRAGMENT },
	{ "state", required_argument, NULL, OPT_STATE },
	{ "allow-dirty", no_argument, NULL, OPT_ALLOW_DIRTY },
	{ "continue", no_argument, NULL, OPT_CONTINUE },
	{ "reset", no_argument, NULL, OPT_RESET },
	{ "compare", no_argument, NULL, OPT_COMPARE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* An option's path v (optarg): an empty one is a usage error naming the option as typed. */
static char *path_arg(char **argv, char *v)
{
	char *opt = argv[optind - 1];
	int len;

	if (*v)
		return v;
	/* "-O ''": the option is the word before its value; "--state=": the word itself */
	if (opt == v && optind >= 2)
		opt = argv[optind - 2];
	len = (int)strcspn(opt, "=");
	usage_die(BISECT_EXIT_USAGE, "%.*s: an empty path", len, opt);
}

static unsigned int count_or_die(const char *opt, const char *v, unsigned int max)
{
	char why[NUM_WHY_LEN];
	unsigned int n;

	if (num_parse_uint(v, 1, max, &n, why) < 0)
		usage_die(BISECT_EXIT_USAGE, "%s: %s", opt, why);
	return n;
}

static void set_mode(struct bopts *o, enum bmode m, const char *opt)
{
	if (o->mode != BM_START && o->mode != m)
		usage_die(BISECT_EXIT_USAGE, "%s goes with none of --continue, --reset, --compare",
			  opt);
	o->mode = m;
}

void bopts_parse_or_die(struct bopts *o, int argc, char **argv)
{
	int c, i;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	memset(o, 0, sizeof(*o));
	o->runs = 1;
	o->flaky = FLAKY_SKIP;
	o->jobs = ncpu > 0 ? (unsigned int)ncpu : 1;
	o->base = "tinyconfig";
	optind = 1;
	/* "+": the options end at PROFILE; what follows is the cut's and the vm's */
	while ((c = getopt_long(argc, argv, "+j:O:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_GOOD: o->good = optarg; break;
		case OPT_BAD: o->bad = optarg; break;
		case OPT_RUNS: o->runs = count_or_die("--runs", optarg, 1000); break;
		case OPT_FLAKY:
			i = flaky_parse(optarg, FLAKY_BISECT, &o->flaky);
			if (i < 0)
				usage_die(BISECT_EXIT_USAGE, "--flaky '%s': expected fail, skip or pass",
					  optarg);
			if (i)
				warn("--flaky=%s is deprecated: say --flaky=%s (the one meaning ./vm's "
				     "--flaky has too)", optarg, flaky_name(o->flaky));
			break;
		case OPT_MATCH: o->match = optarg; break;
		case OPT_RESULTS: o->results = 1; break;
		case OPT_BUILD_CMD: o->build_cmd = path_arg(argv, optarg); break;
		case 'j': o->jobs = count_or_die("--jobs", optarg, 4096); break;
		case 'O': o->build_dir = path_arg(argv, optarg); break;
		case OPT_BASE: o->base = optarg; break;
		case OPT_FRAGMENT: strv_push(&o->fragments, path_arg(argv, optarg)); break;
		case OPT_STATE: o->state = path_arg(argv, optarg); break;
		case OPT_ALLOW_DIRTY: o->allow_dirty = 1; break;
		case OPT_CONTINUE: set_mode(o, BM_CONTINUE, "--continue"); break;
		case OPT_RESET: set_mode(o, BM_RESET, "--reset"); break;
		case OPT_COMPARE: set_mode(o, BM_COMPARE, "--compare"); break;
		case 'h': usage(); exit(0);
		default: usage_die(BISECT_EXIT_USAGE, NULL);
		}
	}
	if (o->mode == BM_CONTINUE || o->mode == BM_RESET) {
		if (optind < argc || o->good || o->bad)
			usage_die(BISECT_EXIT_USAGE, "--%s takes no REV, PROFILE or arguments: "
				  "the bisection's own are in its state directory",
				  o->mode == BM_RESET ? "reset" : "continue");
		return;
	}
	if (o->mode == BM_COMPARE) {
		if (o->good || o->bad)
			usage_die(BISECT_EXIT_USAGE, "--compare takes REV_A REV_B, not --good/--bad");
		if (argc - optind < 3)
			usage_die(BISECT_EXIT_USAGE, "--compare needs REV_A REV_B PROFILE");
		o->good = argv[optind++];
		o->bad = argv[optind++];
	} else {
		if (!o->good || !o->bad)
			usage_die(BISECT_EXIT_USAGE, "--good REV and --bad REV are both needed");
		if (optind >= argc)
			usage_die(BISECT_EXIT_USAGE, "no PROFILE");
	}
	o->profile = argv[optind++];
	for (i = optind; i < argc && strcmp(argv[i], "--"); i++)
		strv_push(&o->cut_args, argv[i]);
	for (i++; i < argc; i++)
		strv_push(&o->vm_args, argv[i]);
	if (o->match) {
		int rc = regcomp(&o->match_re, o->match, REG_EXTENDED | REG_NEWLINE | REG_NOSUB);

		if (rc) {
			char msg[256];

			regerror(rc, &o->match_re, msg, sizeof(msg));
			usage_die(BISECT_EXIT_USAGE, "--match '%s': %s", o->match, msg);
		}
	}
	for (i = 1; i < argc; i++)
		strv_push(&o->saved, argv[i]);
}

void bopts_free(struct bopts *o)
{
	strv_free(&o->cut_args);
	strv_free(&o->vm_args);
	strv_free(&o->fragments);
	strv_free(&o->saved);
	free(o->build_prog);
	if (o->match)
		regfree(&o->match_re);
	memset(o, 0, sizeof(*o));
}

void bopts_save_or_die(const struct bopts *o, const char *state)
{
	char *path = xasprintf("%s/args", state), *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		die_errno("open_memstream");
	/* NUL-separated: an argument may hold any other byte */
	for (size_t i = 0; i < o->saved.n; i++)
		fwrite(o->saved.v[i], 1, strlen(o->saved.v[i]) + 1, f);
	if (fclose(f))
		die_errno("open_memstream");
	/* a new file renamed in: never written through a link in the state dir */
	rc = write_file_atomic(path, buf, len, 0644);
	if (rc)
		die("%s: %s", path, err_str(rc));
	free(buf);
	free(path);
}

void bopts_load_or_die(struct bopts *o, const char *state)
{
	size_t len;
	char *text = state_read_or_die(state, "args", &len);
	/* static: the options point into its strings for the rest of the run */
	static struct strv av = STRV_INIT;
	const char *keep_state = o->state;

	if (!text) {
		err_exit_status = BISECT_EXIT_USAGE;
		die("%s/args: no bisection to continue here", state);
	}
	strv_push(&av, err_prog);
	for (size_t at = 0; at < len; at += strlen(text + at) + 1)
		strv_push(&av, text + at);
	bopts_free(o);
	bopts_parse_or_die(o, (int)av.n, strv_argv(&av));
	o->mode = BM_CONTINUE;
	if (keep_state)
		o->state = keep_state;
	/* av's strings stay: o points into them */
	free(text);
}
