// SPDX-License-Identifier: GPL-2.0
/*
 * step.c: one commit, as a kernel developer would test it by hand:
 * configured as `make kernel-config` does for the profile (host/kernel-config:
 * BASE, kernel/base.config, the profile's #@ kconfig lines, olddefconfig),
 * built incrementally (make bzImage modules, modules_install into the
 * bisection's own mods dir) or by --build-cmd, cut (the layer cache keeps
 * all but the modules layer) and booted --runs times, each run's console
 * and results kept in the step's directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bisect.h"
#include "conf.h"
#include "confget.h"
#include "err.h"
#include "io.h"
#include "mono.h"
#include "profile.h"
#include "rapido.h"
#include "results.h"
#include "run.h"
#include "tree.h"

/* DIR's absolute path, created (with its parents) when create is set */
static char *abs_dir_or_die(const char *dir, int create, const char *what)
{
	char *failed = NULL, *real;

	if (create && mkdir_p(dir, &failed) < 0)
		die_errno("%s %s: cannot create %s", what, dir, failed ? failed : dir);
	real = realpath(dir, NULL);
	if (!real)
		die_errno("%s %s", what, dir);
	free(failed);
	return real;
}

/*
 * How to run ./cut and ./vm: beside this program in a checkout (./cut,
 * ./vm); as "rapido cut" when rapido started this program (rapido bisect:
 * RAPIDO_FRONT names it); else installed, as BINDIR/rapido CMD
 * (this program lives in BINDIR/../lib/rapido).
 */
static void programs_or_die(struct bctx *c, const char *dir)
{
	char *cut = xasprintf("%s/cut", dir), *vm = xasprintf("%s/vm", dir), *front;

	if (access(cut, X_OK) == 0 && access(vm, X_OK) == 0) {
		strv_push(&c->cut, cut);
		strv_push(&c->vm, vm);
		free(cut);
		free(vm);
		return;
	}
	free(cut);
	free(vm);
	front = getenv("RAPIDO_FRONT") ? xstrdup(getenv("RAPIDO_FRONT")) :
		xasprintf("%s/../../bin/rapido", dir);
	if (access(front, X_OK) < 0)
		die_errno("neither %s/cut nor %s (./bisect runs cut and vm; run make)", dir, front);
	strv_push(&c->cut, front);
	strv_push(&c->cut, "cut");
	strv_push(&c->vm, front);
	strv_push(&c->vm, "vm");
	free(front);
}

void bctx_init_or_die(struct bctx *c, struct bopts *o)
{
	struct conf conf = { 0 };
	const char *src;
	char *exe, *top, *gitdir;

	memset(c, 0, sizeof(*c));
	c->o = o;
	exe = realpath("/proc/self/exe", NULL);
	if (!exe)
		die_errno("/proc/self/exe");
	/* host/kernel-config: beside the program, in the checkout or lib/rapido */
	top = xasprintf("%.*s", (int)(strrchr(exe, '/') - exe), exe);
	programs_or_die(c, top);
	c->kconfig = xasprintf("%s/host/kernel-config", top);
	if (access(c->kconfig, X_OK) < 0 && rapido_dir()) {
		free(c->kconfig);
		c->kconfig = xasprintf("%s/host/kernel-config", rapido_dir());
	}
	free(top);
	free(exe);

	rapido_conf_load_or_die(&conf);
	src = conf_str(&conf, "KERNEL_SRC", NULL);
	if (!src || !*src)
		usage_die(BISECT_EXIT_USAGE, "no KERNEL_SRC: set it to the kernel git tree to bisect "
			  "(environment or rapido.conf)");
	err_exit_status = BISECT_EXIT_USAGE;
	c->src = realpath(src, NULL);
	if (!c->src)
		die_errno("KERNEL_SRC=%s", src);
	conf_free(&conf);
	gitdir = git_out(c, "rev-parse", "--absolute-git-dir", NULL);
	top = gitdir ? git_out(c, "rev-parse", "--show-toplevel", NULL) : NULL;
	if (!gitdir)
		die("KERNEL_SRC=%s: not a git tree (git rev-parse failed: see above)", c->src);
	/* git -C SUBDIR works on the repository above: its bisection is not this tree's */
	if (!top || strcmp(top, c->src))
		die("KERNEL_SRC=%s: not a git tree of its own, but a directory inside %s: set "
		    "KERNEL_SRC to the top of the kernel's git tree", c->src, top ? top : gitdir);
	free(top);
	err_exit_status = 1;
	if (o->state) {
		char *cwd = getcwd(NULL, 0);

		if (!cwd)
			die_errno("getcwd");
		c->state = o->state[0] == '/' ? xstrdup(o->state) : xasprintf("%s/%s", cwd, o->state);
		free(cwd);
	} else {
		c->state = xasprintf("%s/rapido-%s", gitdir, o->mode == BM_COMPARE ? "compare" : "bisect");
	}
	c->gitdir = gitdir;
	c->obj = o->build_dir ? abs_dir_or_die(o->build_dir, 1, "--build-dir") : xstrdup(c->src);
	c->mods = xasprintf("%s/mods", c->state);
	c->image = xasprintf("%s/image", c->state);
	if (o->build_cmd) {
		c->o->build_prog = find_in_path(o->build_cmd);
		if (!c->o->build_prog) {
			err_exit_status = BISECT_EXIT_USAGE;
			die("--build-cmd %s: not an executable file%s", o->build_cmd,
			    strchr(o->build_cmd, '/') ? "" : " in PATH");
		}
	} else if (access(c->kconfig, X_OK) < 0) {
		die_errno("%s (configures each step)", c->kconfig);
	}
}

/* a tree file at REV, as git has it (the tree is not checked out there yet) */
static int rev_has(const struct bctx *c, const char *rev, const char *file)
{
	char *spec = xasprintf("%s:%s", rev, file);
	char *sha = git_out(c, "rev-parse", "-q", "--verify", "--end-of-options", spec, NULL);
	int yes = sha && *sha;

	free(sha);
	free(spec);
	return yes;
}

void inputs_or_die(const struct bctx *c, const char *good, const char *bad)
{
	const struct bopts *o = c->o;
	struct profile prof;
	char *path, *err = NULL;
	const char *revs[] = { good, bad };
	int status = err_exit_status;

	err_exit_status = BISECT_EXIT_USAGE;
	if (!profile_name_valid(o->profile))
		die("invalid profile name '%s' (letters, digits, '-' and '_' only)", o->profile);
	path = rapido_profile_find(o->profile);
	if (!path)
		die("unknown profile '%s' (./cut --list shows the profiles)", o->profile);
	if (profile_load(&prof, o->profile, path, &err))
		die("%s", err);
	profile_free(&prof);
	free(path);
	for (size_t i = 0; i < o->fragments.n; i++) {
		struct stat st;
		char *text;
		int rc = read_regular_file(o->fragments.v[i], 0, BISECT_STATE_MAX, &text, NULL, &st);

		if (rc)
			die("--fragment %s: %s", o->fragments.v[i], file_strerror(rc, &st));
		free(text);
	}
	/* --build-cmd builds what it likes; kernel-config and make need a kernel tree */
	for (size_t i = 0; !o->build_prog && i < 2; i++)
		if (!rev_has(c, revs[i], "Kconfig") || !rev_has(c, revs[i], "Makefile"))
			die("KERNEL_SRC=%s: %.12s has no Kconfig and Makefile at its top: not a kernel "
			    "tree (--build-cmd builds anything else)", c->src, revs[i]);
	err_exit_status = status;
}

void bctx_free(struct bctx *c)
{
	strv_free(&c->cut);
	strv_free(&c->vm);
	free(c->kconfig);
	free(c->src);
	free(c->obj);
	free(c->gitdir);
	free(c->state);
	free(c->kernel);
	free(c->mods);
	free(c->image);
	memset(c, 0, sizeof(*c));
}

void bctx_env(const struct bctx *c)
{
	char *lm = xasprintf("%s/lib/modules", c->mods);
	struct stat st;

	/* what ./cut and ./vm read: the step's kernel, its modules, the bisection's image */
	setenv("KERNEL_SRC", c->kernel ? c->kernel : c->obj, 1);
	if (stat(lm, &st) == 0 && S_ISDIR(st.st_mode))
		setenv("KERNEL_INSTALL_MOD_PATH", c->mods, 1);
	else
		unsetenv("KERNEL_INSTALL_MOD_PATH");
	setenv("DRACUT_OUT", c->image, 1);
	free(lm);
}

static int exit_of(int status)
{
	if (status < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* run av with stdout and stderr appended to log; its exit status (-1: could not run) */
static int run_logged(struct strv *av, const char *log)
{
	struct stat st;
	int fd = open_append(log, 0644, &st), rc;

	if (fd < 0)
		die("%s: %s", log, file_strerror(fd, &st));
	dprintf(fd, "+");
	for (size_t i = 0; i < av->n; i++)
		dprintf(fd, " %s", av->v[i]);
	dprintf(fd, "\n");
	rc = exit_of(run_wait(strv_argv(av), fd));
	if (close(fd) < 0)
		die_errno("%s", log);
	return rc;
}

static int config_has_modules(const struct bctx *c)
{
	char *path = xasprintf("%s/.config", c->obj), *text;
	int yes = 0;

	if (read_regular_file(path, 0, BISECT_LOG_MAX, &text, NULL, NULL) == 0) {
		yes = strstr(text, "\nCONFIG_MODULES=y\n") != NULL;
		free(text);
	}
	free(path);
	return yes;
}

static void kmake_argv(const struct bctx *c, struct strv *av)
{
	strv_push(av, "make");
	strv_push(av, "-C");
	strv_push(av, c->src);
	if (strcmp(c->obj, c->src))
		strv_pushf(av, "O=%s", c->obj);
	/* as host/kernel-config configured it (its ARCH default) */
	if (!getenv("ARCH"))
		strv_push(av, "ARCH=x86_64");
}

/* configure and build HEAD; NULL, or why not (malloc'd) */
static char *build(const struct bctx *c, const char *sha, const char *log)
{
	const struct bopts *o = c->o;
	struct strv av = STRV_INIT;
	char *failed = NULL, *why = NULL;
	int rc;

	if (remove_tree(c->mods, &failed) < 0 && errno != ENOENT)
		die_errno("cannot remove %s", failed ? failed : c->mods);
	if (mkdir_p(c->mods, &failed) < 0)
		die_errno("cannot create %s", failed ? failed : c->mods);
	free(failed);
	if (o->build_prog) {
		char jobs[16];

		snprintf(jobs, sizeof(jobs), "%u", o->jobs);
		setenv("RAPIDO_BISECT_SRC", c->src, 1);
		setenv("RAPIDO_BISECT_OBJ", c->obj, 1);
		setenv("RAPIDO_BISECT_MODS", c->mods, 1);
		setenv("RAPIDO_BISECT_JOBS", jobs, 1);
		setenv("RAPIDO_BISECT_REV", sha, 1);
		strv_push(&av, o->build_prog);
		rc = run_logged(&av, log);
		if (rc)
			why = xasprintf("--build-cmd %s exited %d", o->build_cmd, rc);
		strv_free(&av);
		return why;
	}
	strv_push(&av, c->kconfig);
	strv_push(&av, "-k");
	strv_push(&av, c->src);
	if (strcmp(c->obj, c->src)) {
		strv_push(&av, "-O");
		strv_push(&av, c->obj);
	}
	strv_push(&av, "-b");
	strv_push(&av, o->base);
	strv_push(&av, "-p");
	strv_push(&av, o->profile);
	for (size_t i = 0; i < o->fragments.n; i++) {
		strv_push(&av, "-f");
		strv_push(&av, o->fragments.v[i]);
	}
	/* kernel-config runs ./cut --kconfig: this one (rapido cut, installed) */
	setenv("RAPIDO_CUT", c->cut.v[0], 1);
	if (c->cut.n > 1)
		setenv("RAPIDO_CUT_CMD", c->cut.v[1], 1);
	else
		unsetenv("RAPIDO_CUT_CMD");
	rc = run_logged(&av, log);
	strv_free(&av);
	if (rc)
		return xasprintf("kernel-config exited %d", rc);
	kmake_argv(c, &av);
	strv_pushf(&av, "-j%u", o->jobs);
	strv_push(&av, "bzImage");
	if (config_has_modules(c))
		strv_push(&av, "modules");
	rc = run_logged(&av, log);
	strv_free(&av);
	if (rc)
		return xasprintf("make exited %d", rc);
	if (!config_has_modules(c))
		return NULL;
	kmake_argv(c, &av);
	strv_push(&av, "modules_install");
	strv_pushf(&av, "INSTALL_MOD_PATH=%s", c->mods);
	rc = run_logged(&av, log);
	strv_free(&av);
	return rc ? xasprintf("make modules_install exited %d", rc) : NULL;
}

/* a compiler's, linker's or tool's error line (make's own "*** [...] Error 2" is not one) */
static int error_line(const char *l)
{
	return strcasestr(l, "error:") || strstr(l, "undefined reference to") ||
	       strstr(l, "fatal: ") || (strstr(l, "*** ") && !strstr(l, "] Error "));
}

/*
 * Why FILE's command failed, in one line (malloc'd): its first error line
 * (make's last line only says that make stopped), else its last line; the
 * first BUILD_ERRORS_MAX error lines go to errors.
 */
static char *failure_lines(const char *file, struct strv *errors)
{
	char *text = log_read(file, NULL), *save = NULL, *last = NULL, *why;

	if (!text)
		return xasprintf("(%s cannot be read)", file);
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		/* run_logged's own "+ COMMAND" lines */
		if (!strncmp(l, "+ ", 2) || !*l)
			continue;
		last = l;
		if (errors->n < BUILD_ERRORS_MAX && error_line(l))
			strv_push(errors, l);
	}
	why = xstrdup(errors->n ? errors->v[0] : last ? last : "(no output)");
	free(text);
	return why;
}

/* what the kernel's panic said on the console ("Kernel panic - not syncing: WHAT"), or NULL */
static char *panic_words(const char *console)
{
	static const char mark[] = "Kernel panic - not syncing: ";
	char *text, *at, *words = NULL;

	text = log_read(console, NULL);
	if (!text)
		return NULL;
	at = strstr(text, mark);
	if (at) {
		at += strlen(mark);
		words = xstrndup(at, strcspn(at, "\r\n"));
	}
	free(text);
	return words;
}

static int file_matches(const regex_t *re, const char *path)
{
	char *text;
	int hit;

	text = log_read(path, NULL);
	if (!text)
		return 0;
	hit = regexec(re, text, 0, NULL, 0) == 0;
	free(text);
	return hit;
}

int brun_results(struct brun *r, struct abrun *ab, const char *path, char **err)
{
	int rc = abrun_load(ab, path, err);

	if (rc)
		return rc;
	r->have_results = 1;
	for (size_t i = 0; i < ab->n; i++)
		if (outcome_failing(ab->e[i].v))
			strv_push(&r->fails, ab->e[i].name);
	strv_sort(&r->fails);
	return 0;
}

/* one boot: its status, its results (brun_results) and whether --match saw its text */
static void boot(const struct bctx *c, const char *rdir, int results, struct brun *r,
		 struct abrun *ab)
{
	struct strv av = STRV_INIT;
	char *console = xasprintf("%s/console.log", rdir), *res = xasprintf("%s/results", rdir);
	char *txt = xasprintf("%s/results.txt", res), *err = NULL;

	strv_push_all(&av, &c->vm);
	strv_push(&av, "--batch");
	if (results) {
		strv_push(&av, "--results");
		strv_push(&av, res);
	}
	strv_push_all(&av, &c->o->vm_args);
	brun_init(r);
	r->rc = run_logged(&av, console);
	strv_free(&av);
	if (r->rc)
		r->panic = panic_words(console);
	memset(ab, 0, sizeof(*ab));
	if (results && brun_results(r, ab, txt, &err))
		warn("%s: %s", rdir, err);
	/* the status ./vm exited with, whatever its results.txt says */
	ab->exit = r->rc;
	free(err);
	if (c->o->match)
		r->matched = file_matches(&c->o->match_re, console) ||
			file_matches(&c->o->match_re, txt);
	free(console);
	free(res);
	free(txt);
}

/* through a new temporary and a rename: a link or a FIFO in to's place is replaced, not followed */
static void copy_or_die(const char *from, const char *to)
{
	char *text;
	size_t len;
	int rc = read_file(from, &text, &len);

	if (rc)
		die_err(-rc, "%s", from);
	rc = write_file_atomic(to, text, len, 0644);
	if (rc)
		die_err(-rc, "%s", to);
	free(text);
}

/* the built kernel's files ./cut and ./vm read, copied into c->kernel: the next build keeps them */
static void snapshot_or_die(const struct bctx *c)
{
	static const char *const files[] = {
		"arch/x86/boot/bzImage", "include/config/kernel.release", ".config",
	};
	char *failed = NULL;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *from = xasprintf("%s/%s", c->obj, files[i]);
		char *to = xasprintf("%s/%s", c->kernel, files[i]);
		char *dir = xstrndup(to, (size_t)(strrchr(to, '/') - to));

		if (mkdir_p(dir, &failed) < 0)
			die_errno("cannot create %s", failed ? failed : dir);
		copy_or_die(from, to);
		free(from);
		free(to);
		free(dir);
	}
	free(failed);
}

void step_boots(const struct bctx *c, const char *dir, unsigned int runs, int results,
		struct bstep_out *out)
{
	double t0 = mono_secs();

	bctx_env(c);
	out->runs = xrealloc(out->runs, (out->nruns + runs) * sizeof(*out->runs));
	out->ab = xrealloc(out->ab, (out->nruns + runs) * sizeof(*out->ab));
	for (unsigned int i = 0; i < runs; i++) {
		size_t k = out->nruns;
		char *rdir = xasprintf("%s/run-%zu", dir, k + 1);

		if (mkdir(rdir, 0755) < 0)
			die_errno("%s", rdir);
		boot(c, rdir, results, &out->runs[k], &out->ab[k]);
		free(rdir);
		out->nruns++;
	}
	out->boot_secs += mono_secs() - t0;
}

void step_run(struct bctx *c, const char *sha, const char *label, unsigned int runs,
	      int results, struct bstep_out *out)
{
	char *log, *cutlog, *failed = NULL;
	struct strv av = STRV_INIT;
	double t0;
	int rc;

	memset(out, 0, sizeof(*out));
	c->nstep++;
	out->dir = xasprintf("%s/%03u-%s-%.12s", c->state, c->nstep, label, sha);
	if (remove_tree(out->dir, &failed) < 0 && errno != ENOENT)
		die_errno("cannot remove %s", failed ? failed : out->dir);
	if (mkdir_p(out->dir, &failed) < 0)
		die_errno("cannot create %s", failed ? failed : out->dir);
	free(failed);
	log = xasprintf("%s/build.log", out->dir);
	cutlog = xasprintf("%s/cut.log", out->dir);
	t0 = mono_secs();
	out->build_why = build(c, sha, log);
	if (out->build_why) {
		char *l = failure_lines(log, &out->errors), *w = out->build_why;

		out->errors_log = "build.log";
		out->build_why = xasprintf("%s: %s", w, l);
		free(w);
		free(l);
	}
	out->build_secs = mono_secs() - t0;
	if (!out->build_why && c->kernel)
		snapshot_or_die(c);
	if (!out->build_why) {
		t0 = mono_secs();
		bctx_env(c);
		strv_push_all(&av, &c->cut);
		strv_push(&av, "-q");
		strv_push(&av, c->o->profile);
		strv_push_all(&av, &c->o->cut_args);
		rc = run_logged(&av, cutlog);
		strv_free(&av);
		out->cut_secs = mono_secs() - t0;
		if (rc) {
			char *l = failure_lines(cutlog, &out->errors);

			out->errors_log = "cut.log";
			out->build_why = xasprintf("cut exited %d: %s", rc, l);
			free(l);
		}
	}
	free(log);
	free(cutlog);
	if (out->build_why)
		return;
	step_boots(c, out->dir, runs, results, out);
}

void step_out_free(struct bstep_out *s)
{
	for (size_t i = 0; i < s->nruns; i++) {
		brun_free(&s->runs[i]);
		abrun_free(&s->ab[i]);
	}
	free(s->runs);
	free(s->ab);
	free(s->dir);
	free(s->build_why);
	strv_free(&s->errors);
	memset(s, 0, sizeof(*s));
}
