// SPDX-License-Identifier: GPL-2.0
/* dracut.c: the dracut command line, built as a vector so no value meets a shell. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confget.h"
#include "cut.h"
#include "err.h"
#include "io.h"
#include "layer.h"
#include "run.h"

/* dracut takes space-separated lists; our names never contain blanks (checked). */
static void push_list(struct strv *argv, const char *opt, const struct strv *items)
{
	size_t len = 1;
	char *s, *p;

	if (!items->n)
		return;
	for (size_t i = 0; i < items->n; i++)
		len += strlen(items->v[i]) + 1;
	s = p = xmalloc(len);
	for (size_t i = 0; i < items->n; i++) {
		size_t l = strlen(items->v[i]);

		if (i)
			*p++ = ' ';
		memcpy(p, items->v[i], l);
		p += l;
	}
	*p = '\0';
	strv_push(argv, opt);
	strv_push(argv, s);
	free(s);
}

int cut_dracut_sink_ok(const char *path)
{
	return path[0] == '/' && !strpbrk(path, " \t\n*?[]\\");
}

/*
 * --libdirs: the guest ABI's own library directories, those that exist in
 * the root dracut reads. Left to itself dracut takes every directory
 * ldconfig lists, /lib32 too where the host has 32-bit libraries, and its
 * pthread_cancel workaround copies libgcc_s.so* from each: a 32-bit
 * libgcc_s (153 KiB) in every image, none of which has a 32-bit program,
 * unpacked by the guest's kernel on every boot. The base pair is the one
 * dracut picks: lib64 where the C library lives there, else lib.
 */
static void push_libdirs(const struct cut_plan *p, struct strv *argv)
{
	const char *root = p->sysroot ? p->sysroot : "";
	char *libc = xasprintf("%s/lib64/libc.so.6", root);
	int lib64 = access(libc, F_OK) == 0;
	struct strv cand = STRV_INIT, dirs = STRV_INIT;

	free(libc);
	strv_push(&cand, lib64 ? "/lib64" : "/lib");
	strv_push(&cand, lib64 ? "/usr/lib64" : "/usr/lib");
	if (p->arch) {
		strv_pushf(&cand, "/lib/%s", p->arch->triplet);
		strv_pushf(&cand, "/usr/lib/%s", p->arch->triplet);
	}
	for (size_t i = 0; i < cand.n; i++) {
		char *path = xasprintf("%s%s", root, cand.v[i]);
		struct stat st;

		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			strv_push(&dirs, cand.v[i]);
		free(path);
	}
	/* none there: dracut's own choice, which finds nothing either */
	push_list(argv, "--libdirs", &dirs);
	strv_free(&cand);
	strv_free(&dirs);
}

/*
 * The command line of one dracut run: DRACUT_ALL builds the modules and the
 * bins layer at once (a first cut), DRACUT_MODULES and DRACUT_BINS one of
 * them. Helpers and "#@ files:" trees are not dracut's: they go into
 * rapido's tail and the tree layers. libs: what the trees' programs need.
 */
void cut_dracut_argv(const struct cut_opts *o, const struct cut_plan *p, const char *out,
		     enum cut_dracut_part part, const struct strv *libs, const char *tmpdir,
		     const char *sink, struct strv *argv)
{
	const char *dracut = conf_str(&p->conf, "DRACUT", NULL);
	int mods = part != DRACUT_BINS &&
		   (p->modules.n || p->extra_modules.n || p->ondemand_modules.n);

	if (p->sysroot || sink)
		strv_push(argv, "env");
	if (sink)
		/*
		 * dracut 106 asks the kernel's config whether it can unpack
		 * the compressor's output, by the compressor's name, and
		 * says "unknown kernel config option for compressor dd";
		 * its "no compression" program (as 059 names it too) is not
		 * asked about: dd is that here
		 */
		strv_push(argv, "DRACUT_COMPRESS_CAT=dd");
	if (p->sysroot) {
		/*
		 * A foreign sysroot: dracut would look for its own modules in
		 * it and run ldd on programs the host cannot run; the plan
		 * lists every library already (sysroot.c), so dracut's ldd
		 * is told to find none, and its test binary is our bash.
		 */
		strv_push(argv, "dracutbasedir=/usr/lib/dracut");
		strv_push(argv, "DRACUT_LDD=true");
		strv_push(argv, "DRACUT_TESTBIN=/bin/bash");
	}
	strv_push(argv, dracut);
	if (p->sysroot) {
		strv_push(argv, "--sysroot");
		strv_push(argv, p->sysroot);
	}
	/* a generic image, not one tailored to (or reading config from) this host */
	strv_push(argv, "--no-hostonly");
	strv_push(argv, "--no-hostonly-cmdline");
	if (sink) {
		/*
		 * dracut pipes its archive through the "compressor" into a
		 * temporary, then copies that to out: dd writes it where
		 * ./cut reads it, once, and out and the copy are empty
		 */
		strv_push(argv, "--compress");
		strv_pushf(argv, "dd of=%s bs=1M status=none", sink);
	} else {
		strv_push(argv, "--no-compress");
	}
	strv_push(argv, "--no-early-microcode");
	strv_push(argv, "--reproducible");
	/* newc stores a hard-linked file's data once: splitting into layers could lose it */
	strv_push(argv, "--nohardlink");
	/*
	 * the host's files as they are, as ./cut's own layers (trees, modules)
	 * hold them: a distribution's are stripped already, and dracut's strip
	 * -g pass rewrote every one of them for nothing (a tenth of a first cut)
	 */
	strv_push(argv, "--nostrip");
	/* the host's /etc/dracut.conf{,.d} must not change the image */
	strv_pushf(argv, "--confdir=%s/dracut.conf.d", p->rapido_dir);
	strv_push(argv, "--conf=/dev/null");
	/* bash alone: our init replaces dracut's, none of its hooks run */
	strv_push(argv, "--modules");
	strv_push(argv, "bash");
	strv_push(argv, "--kver");
	strv_push(argv, p->kern.release);
	push_libdirs(p, argv);
	if (mods) {
		struct strv all = STRV_INIT;

		if (p->kern.kmoddir_root) {
			strv_push(argv, "--kmoddir");
			strv_push(argv, p->kern.moddir);
		}
		strv_push_all(&all, &p->modules);
		strv_push_all(&all, &p->extra_modules);
		/* dracut's layer holds them all: every boot gets them (kmods.c splits its own) */
		strv_push_all(&all, &p->ondemand_modules);
		push_list(argv, "--drivers", &all);
		strv_free(&all);
	} else {
		strv_push(argv, "--no-kernel");
	}
	if (part != DRACUT_MODULES) {
		struct strv all = STRV_INIT;

		strv_push_all(&all, &p->bins);
		for (size_t i = 0; libs && i < libs->n; i++)
			if (!strv_contains(&all, libs->v[i]))
				strv_push(&all, libs->v[i]);
		push_list(argv, "--install", &all);
		strv_free(&all);
	}
	/*
	 * dracut's tree goes where the image goes (default /var/tmp): cut
	 * removes it even after a kill, and a full disk is one disk
	 */
	if (tmpdir) {
		strv_push(argv, "--tmpdir");
		strv_push(argv, tmpdir);
	}
	if (!o->verbose)
		strv_push(argv, "--quiet");
	strv_push(argv, "--force");
	strv_push(argv, out);
}

char *cut_dracut_ldd(const struct cut_plan *p)
{
	char *path;

	if (p->sysroot || getenv("DRACUT_LDD"))
		return NULL;
	path = xasprintf("%s/build/rapido-ldd", p->rapido_dir);
	if (access(path, X_OK)) {
		free(path);
		return NULL;
	}
	return path;
}

/* dracut's base directory: next to a dracut.sh checkout, else the installed one. */
static char *dracut_basedir(const char *prog)
{
	char *real = prog ? realpath(prog, NULL) : NULL, *slash, *probe;

	if (real && (slash = strrchr(real, '/'))) {
		*slash = '\0';
		probe = xasprintf("%s/dracut-functions.sh", real);
		if (access(probe, F_OK) == 0) {
			free(probe);
			return real;
		}
		free(probe);
	}
	free(real);
	return xstrdup("/usr/lib/dracut");
}

/* Everything about dracut and our configuration of it that can change what it writes. */
static void key_dracut(const struct cut_plan *p, const char *prog, struct sha256 *s)
{
	static const char *const files[] = {
		"dracut-functions.sh", "dracut-init.sh", "dracut-install", "dracut-version.sh",
		"modules.d/00bash/module-setup.sh",
	};
	static const char *const path_vars[] = { "PATH", "DRACUT_PATH" };
	char *path = prog ? find_in_path(prog) : NULL, *base = dracut_basedir(path);
	char *confdir = xasprintf("%s/dracut.conf.d", p->rapido_dir);
	struct strv names = STRV_INIT;

	sha256_update(s, CACHE_FORMAT " dracut", sizeof(CACHE_FORMAT " dracut"));
	cut_key_stat(s, path ? path : "(dracut not found)");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *f = xasprintf("%s/%s", base, files[i]);

		cut_key_stat(s, f);
		free(f);
	}
	/*
	 * dracut finds its own tools in DRACUT_PATH (unset or empty: /sbin
	 * /bin /usr/sbin /usr/bin), then in PATH: both are inputs
	 */
	for (size_t i = 0; i < sizeof(path_vars) / sizeof(path_vars[0]); i++) {
		const char *env = getenv(path_vars[i]);

		sha256_update(s, env ? env : "", strlen(env ? env : "") + 1);
	}
	/* our dracut.conf.d by content: an edit that keeps the mtime still counts */
	strv_list_dir(&names, confdir, ".conf");
	for (size_t i = 0; i < names.n; i++) {
		char *f = xasprintf("%s/%s", confdir, names.v[i]), *text;
		size_t len;

		sha256_update(s, names.v[i], strlen(names.v[i]) + 1);
		if (!read_file(f, &text, &len)) {
			sha256_update(s, text, len);
			free(text);
		}
		free(f);
	}
	strv_free(&names);
	free(confdir);
	free(base);
	free(path);
}

static void key_argv(const struct cut_opts *o, const struct cut_plan *p, enum cut_dracut_part part,
		     const struct strv *libs, struct sha256 *s)
{
	struct cut_opts quiet = *o;
	struct strv argv = STRV_INIT;

	/* neither the output path, dracut's --tmpdir nor --verbose changes the bytes */
	quiet.verbose = 0;
	cut_dracut_argv(&quiet, p, "OUT", part, libs, NULL, NULL, &argv);
	for (size_t i = 0; i < argv.n; i++)
		sha256_update(s, argv.v[i], strlen(argv.v[i]) + 1);
	strv_free(&argv);
}

void cut_dracut_key(const struct cut_opts *o, const struct cut_plan *p, enum cut_dracut_part part,
		    const struct strv *libs, struct cut_layer *ly)
{
	const char *dracut = conf_str(&p->conf, "DRACUT", NULL);
	struct sha256 s;

	sha256_init(&s);
	key_dracut(p, dracut, &s);
	key_argv(o, p, part, libs, &s);
	if (part == DRACUT_MODULES) {
		static const char *const files[] = {
			"modules.dep", "modules.order", "modules.builtin", "modules.builtin.modinfo",
			"modules.alias", "modules.softdep",
		};

		ly->kind = "modules";
		for (size_t i = 0; p->kern.moddir && i < sizeof(files) / sizeof(files[0]); i++) {
			char *f = xasprintf("%s/%s", p->kern.moddir, files[i]);

			cut_key_stat(&s, f);
			free(f);
		}
		ly->desc = xasprintf("kernel %s: %zu modules asked for", p->kern.release,
				     p->modules.n + p->extra_modules.n + p->ondemand_modules.n);
	} else {
		ly->kind = "bins";
		/* the named binaries; what dracut pulls in besides is checked as "dep" lines */
		for (size_t i = 0; i < p->bins.n; i++) {
			/* a foreign ARCH's bins are guest paths in its sysroot */
			char *f = xasprintf("%s%s", p->sysroot ? p->sysroot : "", p->bins.v[i]);

			cut_key_stat(&s, f);
			free(f);
		}
		for (size_t i = 0; libs && i < libs->n; i++)
			cut_key_stat(&s, libs->v[i]);
		/* which bash (bash.c): a layer with the other one must not serve */
		sha256_update(&s, p->static_bash ? "static bash" : "dynamic bash",
			      strlen(p->static_bash ? "static bash" : "dynamic bash") + 1);
		if (p->static_bash)
			cut_key_stat(&s, p->static_bash);
		/* its shared libraries go to a layer of their own (build.c), its record says more */
		sha256_update(&s, "libraries apart", sizeof("libraries apart"));
		ly->desc = xasprintf("%zu binaries, %zu tree libraries (profile %s)%s", p->bins.n,
				     libs ? libs->n : 0, p->prof.name, p->static_bash ? ", static bash" : "");
	}
	sha256_hex(&s, ly->key);
}
