// SPDX-License-Identifier: GPL-2.0
/*
 * settings.c: resolve ./vm's settings once (see settings.h). Each value is
 * looked up through vm_setting() (lookup.c), the image's own need before
 * the table's default; each device resolves its own (devices.h). Nothing
 * here creates anything: the directories, the probes and the assembled
 * initrd are launch's (vm.c).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "confget.h"
#include "num.h"
#include "protocol.h"
#include "rapido.h"
#include "results.h"
#include "shwords.h"
#include "devices.h"
#include "jobs.h"
#include "lookup.h"
#include "tree.h"
#include "vm.h"

int vm_accel_parse(const char *s, enum vm_accel *out)
{
	if (!s || !*s || !strcasecmp(s, "auto"))
		*out = ACCEL_AUTO;
	else if (!strcasecmp(s, "kvm"))
		*out = ACCEL_KVM;
	else if (!strcasecmp(s, "tcg"))
		*out = ACCEL_TCG;
	else
		return -1;
	return 0;
}

static void resolve_machine(struct vm_settings *s, const struct vm_opts *o, const struct conf *c)
{
	struct vm_src src;
	struct conf_value v;

	/* the profile's own need comes before the table's default */
	s->cpus = vm_opt_number(c, o, "VM_CPUS", &s->cpus_src);
	if (s->cpus_src.kind == SRC_DEFAULT && s->im.cpus) {
		s->cpus = s->im.cpus;
		s->cpus_src.kind = SRC_IMAGE;
		s->cpus_src.name = s->im.profile;
	}
	vm_opt_setting(c, o, "VM_MEMORY", &s->memory_src, &v);
	s->memory = v.n;
	if (s->memory_src.kind == SRC_DEFAULT && s->im.memory) {
		s->memory = s->im.memory;
		s->memory_src.kind = SRC_IMAGE;
		s->memory_src.name = s->im.profile;
	}

	s->kvm_probe_secs = vm_number(c, NULL, NULL, "KVM_PROBE_SECS", &src);
	s->max_vms = vm_number(c, NULL, NULL, "VM_MAX", &src);
	vm_split(c, "QEMU_EXTRA_KERNEL_PARAMS", &s->kparams);
	vm_split(c, "QEMU_EXTRA_ARGS", &s->extra);
}

static void resolve_vmcore(struct vm_settings *s, const struct conf *c)
{
	struct vm_src src;
	struct conf_value v;

	s->vmcore_keep = vm_number(c, NULL, NULL, "VM_VMCORE_KEEP", &src);
	vm_setting(c, NULL, NULL, "VM_VMCORE_FORMAT", &src, &v);
	s->vmcore_format = v.word;
}

static void resolve_dirs(struct vm_settings *s, const struct vm_opts *o, const struct conf *c)
{
	struct vm_src src;
	struct conf_value cv;
	const char *v;

	s->state_dir = rapido_state_dir_or_die(c);
	s->lock_dir = vm_lock_dir_or_die(c);
	v = vm_setting(c, NULL, NULL, "VM_LOG_DIR", &src, &cv);
	/* created at launch (vm.c) */
	s->log_dir = xstrdup(v ? v : s->state_dir);
	s->log = o->log;
}

/*
 * path made absolute without creating anything: the real path of its
 * deepest existing directory, then the components still to be made.
 */
static char *abs_path(const char *path)
{
	char *p = xstrdup(path), *rest = NULL, *real, *out;

	for (;;) {
		char *slash;

		real = realpath(*p ? p : "/", NULL);
		if (real || errno != ENOENT)
			break;
		slash = strrchr(p, '/');
		if (!slash) {
			/* nothing of it exists: it starts in the working directory */
			rest = xstrdup(path);
			real = getcwd(NULL, 0);
			if (!real)
				die_errno("getcwd");
			break;
		}
		free(rest);
		rest = xstrdup(path + (slash - p) + 1);
		*slash = '\0';
	}
	free(p);
	if (!real || !rest)
		return real;
	out = xasprintf("%s%s%s", real, real[strlen(real) - 1] == '/' ? "" : "/", rest);
	free(real);
	free(rest);
	return out;
}

/*
 * On a terminal, a profile whose tests send records (#@ results: yes) keeps
 * them and the suite's own report (xfstests' result.xml, check.log, a
 * failed test's .full and .out.bad under files/) without --results: in
 * VM_STATE_DIR/results/PROFILE-YYYYmmdd-HHMMSS, named at the end. Not in
 * CI (stdout not a terminal): there --results says where, or nothing is
 * kept, as before.
 */
static void default_results(struct vm_settings *s)
{
	char stamp[32], *parent, *failed = NULL;
	time_t now = time(NULL);
	struct tm tm;
	int rc;

	if (s->results_dir || !s->im.results || s->dry_run || s->exec || !isatty(STDOUT_FILENO))
		return;
	if (!localtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm))
		die("the time for the default results dir");
	parent = xasprintf("%s/results", s->state_dir);
	rc = mkdir_p(parent, &failed);
	if (rc)
		die("cannot create %s: %s", failed ? failed : parent, strerror(-rc));
	/*
	 * made here, not only named: two runs of a profile in one second
	 * (the second gets "-2", ...) never share one, whichever is first
	 */
	s->results_dir = xasprintf("%s/%s-%s", parent, s->im.profile, stamp);
	for (unsigned int i = 2; mkdir(s->results_dir, 0755) < 0; i++) {
		if (errno != EEXIST || i > 1000)
			die_errno("cannot create the results dir %s", s->results_dir);
		free(s->results_dir);
		s->results_dir = xasprintf("%s/%s-%s-%u", parent, s->im.profile, stamp, i);
	}
	free(parent);
	free(failed);
	s->results_src.kind = SRC_IMAGE;
	s->results_src.name = s->im.profile;
}

static void resolve_results(struct vm_settings *s, const struct vm_opts *o, const struct conf *c)
{
	struct vm_src src;
	struct conf_value cv;
	const char *v;
	char where[512];

	v = vm_opt_setting(c, o, "VM_RESULTS_DIR", &s->results_src, &cv);
	if (v) {
		vm_src_str(&s->results_src, where, sizeof(where));
		if (strchr(v, ','))
			vm_die_src(&s->results_src, "expected a directory without ',' (qemu's option syntax)", v);
		/* created by a run, with DIR/files (collect.c); --dry-run creates nothing */
		s->results_dir = abs_path(v);
		if (!s->results_dir)
			die_errno("%s: %s", where, v);
	}
	v = vm_opt_setting(c, o, "VM_SHARD", &src, &cv);
	/* vm_setting checked both values (confkeys[]'s check): these parses succeed */
	if (v && num_parse_shard(v, &s->shard_i, &s->shard_n, NULL))
		die("internal error: --shard %s", v);
	v = vm_opt_setting(c, o, "VM_SPLATS", &src, &cv);
	if (v) {
		char *err;

		if (splat_mask_parse(v, &s->splat_mask, &err))
			die("internal error: --splats: %s", err);
	}
}

/*
 * rapido.* on the kernel command line is ./vm's and the guest init's
 * (rapido.nonce, rapido.vm, rapido.batch, rapido.status, rapido.results,
 * ...): a second rapido.nonce= could forge the verdict's frame.
 */
static void kparams_own_or_die(const struct strv *k, size_t from, const char *what)
{
	for (size_t i = from; i < k->n; i++)
		if (kparam_value(k->v[i], KP_PREFIX))
			die("%s: '%s': the kernel's " KP_PREFIX "* parameters are set by ./vm ("
			    KP_NONCE ", " KP_VM ", " KP_BATCH ", ...) and read by the guest init; use "
			    "the profile or rapido.conf instead", what, k->v[i]);
}

void vm_settings_resolve_or_die(struct vm_settings *s, struct vm_opts *o, const struct conf *c)
{
	struct vm_src src;
	struct conf_value cv;
	int last = 0;
	const char *v;
	char *err;

	memset(s, 0, sizeof(*s));
	s->batch = o->batch || o->exec;
	s->dry_run = o->dry_run;
	s->exec = o->exec;
	if (o->verbose && o->quiet)
		die("-v (--verbose) and -q (--quiet) ask for opposite consoles: give one");
	if (s->exec)
		s->display = DISPLAY_ALL;	/* rapido run: the console in the log only (execout.c) */
	else if (o->quiet)
		s->display = s->batch ? DISPLAY_REPORTS : DISPLAY_BOOT_QUIET;
	else if (!o->verbose && isatty(STDOUT_FILENO))
		s->display = DISPLAY_BOOT_QUIET;
	else
		s->display = DISPLAY_ALL;
	/* first: --timeout covers every step from here, reading the image included */
	s->timeout = vm_opt_number(c, o, "VM_TIMEOUT", &s->timeout_src);
	vm_deadline_arm(s->timeout);
	vm_deadline_step("reading the image");
	/* what needs no image first: a typo must not hide behind a missing image */
	s->qemu = vm_setting(c, NULL, NULL, "QEMU_BIN", &s->qemu_src, &cv);
	vm_opt_setting(c, o, "QEMU_ACCEL", &s->accel_src, &cv);
	if (vm_accel_parse(cv.word, &s->accel))
		die("internal error: QEMU_ACCEL=%s", cv.word);

	if (o->image) {
		s->image = xstrdup(o->image);
		s->image_src.kind = SRC_OPTION;
		s->image_src.name = "IMAGE";
	} else {
		/* what ./cut wrote last (-o anywhere), while it is there; else its default */
		s->image = rapido_last_image(c, &err);
		if (err) {
			warn("%s", err);
			free(err);
		}
		if (s->image && access(s->image, F_OK) < 0) {
			free(s->image);
			s->image = NULL;
		}
		last = s->image != NULL;
		if (!last)
			s->image = rapido_default_image(c);
		vm_setting(c, NULL, NULL, "DRACUT_OUT", &s->image_src, &cv);
	}
	if (vm_image_read(s->image, &s->im, &err))
		die("%s", err);
	/* no IMAGE given: which one, for a person at a terminal */
	if (!o->image && !o->dry_run && isatty(2))
		fprintf(stderr, "vm: booting %s (profile %s%s)\n", s->image, s->im.profile,
			last ? ", the last ./cut output" : "");
	/*
	 * VM_KERNEL: the kernel shipped next to an image cut on another
	 * machine (a CI artifact), where the recorded /boot path may not be
	 */
	v = vm_setting(c, NULL, NULL, "VM_KERNEL", &src, &cv);
	if (v) {
		char where[512];

		if (access(v, R_OK) < 0)
			die_errno("%s: kernel %s", vm_src_str(&src, where, sizeof(where)), v);
		free(s->im.kernel);
		s->im.kernel = xstrdup(v);
	} else if (access(s->im.kernel, R_OK) < 0) {
		die_errno("kernel %s recorded in %s (an image cut elsewhere: set VM_KERNEL)",
			  s->im.kernel, s->image);
	}
	vm_kernel_match_or_die(s, v ? &src : NULL);
	vm_setting(c, NULL, NULL, "VM_KERNEL_ENTRY", &src, &cv);
	s->kernel_pvh = !strcmp(cv.word, "pvh");
	s->cache_dir = rapido_cut_cache_dir(c);
	/* the image's architecture decides qemu's; QEMU_BIN still overrides it */
	if (!s->qemu)
		s->qemu = s->im.arch->qemu;
	if (s->accel == ACCEL_KVM && arch_foreign(s->im.arch)) {
		char buf[128];

		die("%s: kvm: the image %s is for %s, this host is %s; KVM runs only the host's "
		    "architecture (use tcg or auto)", vm_src_str(&s->accel_src, buf, sizeof(buf)),
		    s->image, s->im.arch->name, arch_host()->name);
	}
	/* what the image is; a cached one is put together at launch (vm.c) */
	if (vm_initrd_prepare(s->image, 1, NULL, &s->initrd, &err))
		die("%s", err);
	if (s->initrd.needs_cache && s->dry_run)
		warn("%s takes its layers from ./cut's cache: qemu alone cannot boot it "
		     "(./cut --standalone writes one that it can)", s->image);

	vm_deadline_step("checking the settings");
	resolve_machine(s, o, c);
	for (const struct vm_device *const *d = vm_devices; *d; d++)
		if ((*d)->resolve)
			(*d)->resolve(s, o, c);
	/* the user's extra qemu arguments come after everything ./vm adds */
	strv_push_all(&s->extra, &o->extra);
	kparams_own_or_die(&s->kparams, 0, "QEMU_EXTRA_KERNEL_PARAMS");
	for (size_t i = 0; i < o->append.n; i++) {
		size_t from = s->kparams.n;

		if (shwords_split(o->append.v[i], &s->kparams, &err))
			die("--append: %s", err);
		kparams_own_or_die(&s->kparams, from, "--append");
	}
	resolve_vmcore(s, c);
	resolve_results(s, o, c);
	resolve_dirs(s, o, c);
	default_results(s);
	/* last: --jobs checks what every other setting came to */
	vm_jobs_resolve_or_die(s, o, c);
}

void vm_settings_free(struct vm_settings *s)
{
	for (const struct vm_device *const *d = vm_devices; *d; d++)
		if ((*d)->free)
			(*d)->free(s, NULL);
	free(s->image);
	vm_image_free(&s->im);
	vm_initrd_free(&s->initrd);
	strv_free(&s->kparams);
	free(s->cache_dir);
	strv_free(&s->extra);
	free(s->results_dir);
	free(s->state_dir);
	free(s->lock_dir);
	free(s->log_dir);
	memset(s, 0, sizeof(*s));
}

void vm_opts_free(struct vm_opts *o)
{
	strv_free(&o->shares);
	strv_free(&o->virtiofs);
	strv_free(&o->mpath);
	strv_free(&o->rbd);
	strv_free(&o->hostfwd);
	free(o->links);
	strv_free(&o->extra);
	strv_free(&o->append);
	known_cli_free(&o->known);
}
