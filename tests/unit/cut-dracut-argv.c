// SPDX-License-Identifier: GPL-2.0
/*
 * cut-dracut-argv.c: the dracut command line ./cut builds for a plan
 * (src/cut/dracut.c), argument by argument, for a first cut (DRACUT_ALL)
 * and for each layer alone; and the layer keys made from it, which must
 * not move with what cannot change dracut's bytes (output path, verbose)
 * and must move with what can (modules, bins, our dracut.conf.d).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arch.h"
#include "cut.h"
#include "err.h"
#include "io.h"
#include "layer.h"
#include "tap.h"

static char dir[] = "/tmp/rapido-cut-dracut-XXXXXX";

/* "[a] [b c] [d]": every argument bracketed, so a list that is one argument shows as one */
static char *joined(const struct strv *argv)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		die_errno("open_memstream");
	for (size_t i = 0; i < argv->n; i++)
		fprintf(f, "%s[%s]", i ? " " : "", argv->v[i]);
	if (fclose(f))
		die_errno("open_memstream");
	return s;
}

static char *argv_of(const struct cut_opts *o, const struct cut_plan *p, const char *out,
		     enum cut_dracut_part part, const struct strv *libs, const char *tmpdir)
{
	struct strv argv = STRV_INIT;
	char *s;

	cut_dracut_argv(o, p, out, part, libs, tmpdir, NULL, &argv);
	/* the host's own --libdirs depend on the host: 11b checks them in a sysroot */
	for (size_t i = 0; !p->sysroot && i + 1 < argv.n; i++)
		if (!strcmp(argv.v[i], "--libdirs")) {
			free(argv.v[i]);
			free(argv.v[i + 1]);
			memmove(&argv.v[i], &argv.v[i + 2], (argv.n - i - 1) * sizeof(*argv.v)); /* and the NULL */
			argv.n -= 2;
			break;
		}
	s = joined(&argv);
	strv_free(&argv);
	return s;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int ends(const char *s, const char *suffix)
{
	size_t l = strlen(s), sl = strlen(suffix);

	return l >= sl && !strcmp(s + l - sl, suffix);
}

static int has_arg(const char *joined_argv, const char *arg)
{
	char *want = xasprintf("[%s]", arg);
	int found = strstr(joined_argv, want) != NULL;

	free(want);
	return found;
}

/* The key cut_dracut_key gives part, malloc'd; its kind and description in *kind_desc. */
static char *key_of(const struct cut_opts *o, const struct cut_plan *p, enum cut_dracut_part part,
		    const struct strv *libs, char **kind_desc)
{
	struct cut_layer ly = { 0 };
	char *k;

	cut_dracut_key(o, p, part, libs, &ly);
	k = strlen(ly.key) == 64 && strspn(ly.key, "0123456789abcdef") == 64 ? xstrdup(ly.key) :
		xasprintf("(not 64 hex digits: %s)", ly.key);
	if (kind_desc)
		*kind_desc = xasprintf("%s: %s", ly.kind ? ly.kind : "(null)",
				       ly.desc ? ly.desc : "(null)");
	cut_layer_free(&ly);
	return k;
}

/* part's key now is old (want_same) or another one */
static void key_check(const struct cut_opts *o, const struct cut_plan *p, enum cut_dracut_part part,
		      const struct strv *libs, const char *old, int want_same, const char *what)
{
	char *k = key_of(o, p, part, libs, NULL);

	if (want_same)
		TAP_EQ_STR(k, old, "%s", what);
	else
		tap_ok(strcmp(k, old), "%s", what);
	free(k);
}

static void put_file(const char *path, const char *text)
{
	int rc = write_file_atomic(path, text, strlen(text), 0644);

	if (rc)
		die("%s: %s", path, strerror(-rc));
}

static void make_dir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		die_errno("mkdir %s", path);
}

int main(void)
{
	struct cut_opts o = { .profile = "simple" };
	struct cut_plan p = { 0 };
	struct strv libs = STRV_INIT;
	const char *want;
	char *s, *w, *confdir, *conffile, *depfile, *path;
	char *k_all, *k_mods, *k_bins;

	err_prog = "cut";
	tap_plan(52);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	confdir = xasprintf("%s/dracut.conf.d", dir);
	conffile = xasprintf("%s/10-rapido.conf", confdir);
	make_dir(confdir);
	put_file(conffile, "add_drivers+=\" a \"\n");
	path = xasprintf("%s/lib", dir);
	make_dir(path);
	free(path);
	path = xasprintf("%s/lib/modules", dir);
	make_dir(path);
	free(path);
	p.kern.moddir = xasprintf("%s/lib/modules/6.1.0-t", dir);
	make_dir(p.kern.moddir);
	depfile = xasprintf("%s/modules.dep", p.kern.moddir);
	put_file(depfile, "kernel/zram.ko:\n");

	p.rapido_dir = xstrdup(dir);
	p.kern.release = xstrdup("6.1.0-t");
	p.output = xstrdup("/img/a.cpio");
	p.prof.name = xstrdup("simple");
	strv_push(&p.modules, "virtio_net");
	strv_push(&p.modules, "zram");
	strv_push(&p.extra_modules, "9p");
	strv_push(&p.bins, "/usr/bin/ls");
	strv_push(&p.bins, "/lib/libc.so.6");
	/* libc again: a tree's program needs it too, and it goes in once */
	strv_push(&libs, "/lib/libc.so.6");
	strv_push(&libs, "/lib/libz.so.1");

	/* 1. a first cut: both layers in one dracut run */
	s = argv_of(&o, &p, "/w/all.cpio", DRACUT_ALL, &libs, "/w/tmp");
	w = xasprintf("[dracut] [--no-hostonly] [--no-hostonly-cmdline] [--no-compress] "
			 "[--no-early-microcode] [--reproducible] [--nohardlink] [--nostrip] "
			 "[--confdir=%s/dracut.conf.d] [--conf=/dev/null] [--modules] [bash] "
			 "[--kver] [6.1.0-t] [--drivers] [virtio_net zram 9p] "
			 "[--install] [/usr/bin/ls /lib/libc.so.6 /lib/libz.so.1] "
			 "[--tmpdir] [/w/tmp] [--quiet] [--force] [/w/all.cpio]", dir);
	TAP_EQ_STR(s, w, "DRACUT_ALL: modules then extra modules in one --drivers, bins then "
		   "new libs in one --install, --tmpdir, --quiet, output last");
	free(w);
	free(s);

	/* 2. the modules layer alone */
	s = argv_of(&o, &p, "/w/mods.cpio", DRACUT_MODULES, &libs, "/w/tmp");
	w = xasprintf("[dracut] [--no-hostonly] [--no-hostonly-cmdline] [--no-compress] "
			 "[--no-early-microcode] [--reproducible] [--nohardlink] [--nostrip] "
			 "[--confdir=%s/dracut.conf.d] [--conf=/dev/null] [--modules] [bash] "
			 "[--kver] [6.1.0-t] [--drivers] [virtio_net zram 9p] "
			 "[--tmpdir] [/w/tmp] [--quiet] [--force] [/w/mods.cpio]", dir);
	TAP_EQ_STR(s, w, "DRACUT_MODULES: --drivers, no --install");
	free(w);
	free(s);

	/* 3. the bins layer alone */
	s = argv_of(&o, &p, "/w/bins.cpio", DRACUT_BINS, &libs, NULL);
	w = xasprintf("[dracut] [--no-hostonly] [--no-hostonly-cmdline] [--no-compress] "
			 "[--no-early-microcode] [--reproducible] [--nohardlink] [--nostrip] "
			 "[--confdir=%s/dracut.conf.d] [--conf=/dev/null] [--modules] [bash] "
			 "[--kver] [6.1.0-t] [--no-kernel] "
			 "[--install] [/usr/bin/ls /lib/libc.so.6 /lib/libz.so.1] "
			 "[--quiet] [--force] [/w/bins.cpio]", dir);
	TAP_EQ_STR(s, w, "DRACUT_BINS: --no-kernel, --install; no --tmpdir when none is given");
	free(w);
	free(s);

	/* 3b. a sink: dd writes the archive where ./cut reads it, out stays the last word */
	{
		struct strv argv = STRV_INIT;

		cut_dracut_argv(&o, &p, "/w/bins.cpio", DRACUT_BINS, NULL, NULL, "/w/archive", &argv);
		s = joined(&argv);
		strv_free(&argv);
	}
	tap_ok(strstr(s, "[--compress] [dd of=/w/archive bs=1M status=none]") &&
	       !strstr(s, "--no-compress") && ends(s, "[/w/bins.cpio]"),
	       "a sink: --compress with dd of=SINK instead of --no-compress: %s", s);
	tap_ok(starts(s, "[env] [DRACUT_COMPRESS_CAT=dd] [dracut] "),
	       "  dd as dracut's DRACUT_COMPRESS_CAT (dracut 106 asks no kernel config about it): %s", s);
	free(s);
	tap_ok(cut_dracut_sink_ok("/home/u/initrds/myinitrd.cut-AbC123/archive") &&
	       !cut_dracut_sink_ok("/home/u/my initrds/x") && !cut_dracut_sink_ok("/a/b*c") &&
	       !cut_dracut_sink_ok("/a/[x]") && !cut_dracut_sink_ok("/a/b\tc") &&
	       !cut_dracut_sink_ok("/a/b?") && !cut_dracut_sink_ok("relative/x"),
	       "a sink path: absolute, no blank or glob character (dracut splits and globs it)");

	/* 4. without libs the --install list is the bins alone */
	s = argv_of(&o, &p, "/w/bins.cpio", DRACUT_BINS, NULL, NULL);
	tap_ok(has_arg(s, "/usr/bin/ls /lib/libc.so.6"), "no libs (NULL): --install is the bins");
	free(s);

	/* 5. verbose: dracut's output is shown, so no --quiet */
	o.verbose = 1;
	s = argv_of(&o, &p, "/w/all.cpio", DRACUT_ALL, &libs, NULL);
	tap_ok(!has_arg(s, "--quiet") && has_arg(s, "--force"), "verbose: no --quiet");
	tap_ok(!has_arg(s, "--tmpdir"), "  and no --tmpdir when none is given");
	o.verbose = 0;
	free(s);

	/* 6. KERNEL_INSTALL_MOD_PATH: --kmoddir, the release's module directory */
	p.kern.kmoddir_root = xasprintf("%s", dir);
	s = argv_of(&o, &p, "/w/all.cpio", DRACUT_ALL, &libs, NULL);
	w = xasprintf("[--kver] [6.1.0-t] [--kmoddir] [%s] [--drivers] [virtio_net zram 9p] ",
			 p.kern.moddir);
	if (!tap_ok(strstr(s, w) != NULL, "kmoddir_root: --kmoddir MODDIR before --drivers"))
		printf("#   expected in: %s\n#   saw: %s\n", w, s);
	free(w);
	free(s);
	s = argv_of(&o, &p, "/w/mods.cpio", DRACUT_MODULES, &libs, NULL);
	tap_ok(has_arg(s, "--kmoddir"), "  in the modules layer too");
	free(s);
	s = argv_of(&o, &p, "/w/bins.cpio", DRACUT_BINS, &libs, NULL);
	tap_ok(!has_arg(s, "--kmoddir") && !has_arg(s, "--drivers"),
	       "  but not in the bins layer (no kernel)");
	free(s);
	free(p.kern.kmoddir_root);
	p.kern.kmoddir_root = NULL;

	/* 7. extra modules alone still make a kernel part */
	strv_free(&p.modules);
	s = argv_of(&o, &p, "/w/all.cpio", DRACUT_ALL, &libs, NULL);
	tap_ok(has_arg(s, "--drivers") && has_arg(s, "9p") && !has_arg(s, "--no-kernel"),
	       "extra modules only: --drivers 9p");
	free(s);

	/* 8. no modules at all: --no-kernel, no --drivers, even for DRACUT_ALL */
	strv_free(&p.extra_modules);
	s = argv_of(&o, &p, "/w/all.cpio", DRACUT_ALL, &libs, NULL);
	tap_ok(has_arg(s, "--no-kernel") && !has_arg(s, "--drivers"),
	       "no modules: --no-kernel, no --drivers");
	free(s);

	/* 9. nothing to install: no empty --install */
	{
		char rel[] = "6.1.0-t";
		struct cut_plan q = { .rapido_dir = dir, .kern = { .release = rel } };

		s = argv_of(&o, &q, "/w/bins.cpio", DRACUT_BINS, NULL, NULL);
		tap_ok(!has_arg(s, "--install"), "no bins, no libs: no --install");
		free(s);
		/* only libs (a tree's program in a bins-less profile) */
		s = argv_of(&o, &q, "/w/bins.cpio", DRACUT_BINS, &libs, NULL);
		tap_ok(has_arg(s, "/lib/libc.so.6 /lib/libz.so.1"), "libs only: --install the libs");
		free(s);
	}
	strv_push(&p.modules, "virtio_net");
	strv_push(&p.modules, "zram");
	strv_push(&p.extra_modules, "9p");

	/* 10. DRACUT in rapido.conf names the program; empty means the default */
	conf_set(&p.conf, "DRACUT", "/src/dracut/dracut.sh");
	s = argv_of(&o, &p, "/w/all.cpio", DRACUT_ALL, &libs, NULL);
	tap_ok(starts(s, "[/src/dracut/dracut.sh] [--no-hostonly] "), "DRACUT=path is argv[0]");
	free(s);
	conf_set(&p.conf, "DRACUT", "");
	s = argv_of(&o, &p, "/w/all.cpio", DRACUT_ALL, &libs, NULL);
	tap_ok(starts(s, "[dracut] [--no-hostonly] "), "DRACUT= (empty): dracut");
	free(s);

	/* 11. a foreign ARCH's sysroot */
	p.sysroot = xstrdup("/srv/arm64 root");
	conf_set(&p.conf, "DRACUT", "/src/dracut/dracut.sh");
	s = argv_of(&o, &p, "/w/all.cpio", DRACUT_ALL, &libs, NULL);
	want = "[env] [dracutbasedir=/usr/lib/dracut] [DRACUT_LDD=true] "
	       "[DRACUT_TESTBIN=/bin/bash] [/src/dracut/dracut.sh] [--sysroot] "
	       "[/srv/arm64 root] [--no-hostonly] ";
	if (!tap_ok(starts(s, want), "sysroot: env dracutbasedir= DRACUT_LDD=true "
		    "DRACUT_TESTBIN=/bin/bash, the program, --sysroot DIR (one argument)"))
		printf("#   expected start: %s\n#   saw: %s\n", want, s);
	tap_ok(has_arg(s, "--drivers") && has_arg(s, "--install") && ends(s, " [/w/all.cpio]"),
	       "  the rest as for the host, output last");
	free(s);
	free(p.sysroot);

	/*
	 * 11b. --libdirs: the guest ABI's directories that exist, never
	 * another ABI's (dracut copied /lib32's libgcc_s into every image)
	 */
	p.sysroot = xasprintf("%s/sysroot", dir);
	p.arch = arch_find("arm64");
	for (const char *const *d = (const char *const[]){ "", "/lib", "/lib32", "/usr", "/usr/lib",
							   "/usr/lib/aarch64-linux-gnu", NULL }; *d; d++) {
		path = xasprintf("%s%s", p.sysroot, *d);
		make_dir(path);
		free(path);
	}
	s = argv_of(&o, &p, "/w/all.cpio", DRACUT_ALL, &libs, NULL);
	if (!tap_ok(strstr(s, "[--libdirs] [/lib /usr/lib /usr/lib/aarch64-linux-gnu]") && !strstr(s, "lib32"),
		    "sysroot: --libdirs the arch's existing directories, not /lib32"))
		printf("#   saw: %s\n", s);
	free(s);
	path = xasprintf("%s/lib64", p.sysroot);
	make_dir(path);
	free(path);
	path = xasprintf("%s/lib64/libc.so.6", p.sysroot);
	put_file(path, "");
	free(path);
	s = argv_of(&o, &p, "/w/all.cpio", DRACUT_ALL, &libs, NULL);
	if (!tap_ok(strstr(s, "[--libdirs] [/lib64 /usr/lib/aarch64-linux-gnu]") != NULL,
		    "  a lib64 C library: /lib64 (and /usr/lib64 where it exists), as dracut picks"))
		printf("#   saw: %s\n", s);
	free(s);
	free(p.sysroot);
	p.sysroot = NULL;
	p.arch = NULL;
	conf_set(&p.conf, "DRACUT", "");

	/*
	 * 12. keys. Neither the output path nor verbose changes what dracut
	 * writes: same key. (dracut's --tmpdir is not an input of the key.)
	 */
	k_all = key_of(&o, &p, DRACUT_ALL, &libs, &s);
	TAP_EQ_STR(s, "bins: 2 binaries, 2 tree libraries (profile simple)",
		   "a first cut's run is keyed as the bins layer");
	free(s);
	k_mods = key_of(&o, &p, DRACUT_MODULES, &libs, &s);
	TAP_EQ_STR(s, "modules: kernel 6.1.0-t: 3 modules asked for", "the modules layer's key");
	free(s);
	k_bins = key_of(&o, &p, DRACUT_BINS, &libs, &s);
	TAP_EQ_STR(s, "bins: 2 binaries, 2 tree libraries (profile simple)", "the bins layer's key");
	free(s);
	tap_ok(strcmp(k_mods, k_bins) && strcmp(k_all, k_mods) && strcmp(k_all, k_bins),
	       "the three parts have three keys");
	o.verbose = 1;
	free(p.output);
	p.output = xstrdup("/elsewhere/b.cpio");
	key_check(&o, &p, DRACUT_MODULES, &libs, k_mods, 1,
		  "modules key: same with verbose and another output");
	key_check(&o, &p, DRACUT_BINS, &libs, k_bins, 1,
		  "bins key: same with verbose and another output");
	o.verbose = 0;

	/* a module more: the modules layer changes, the bins layer does not */
	strv_push(&p.modules, "loop");
	key_check(&o, &p, DRACUT_MODULES, &libs, k_mods, 0, "a module more: another modules key");
	key_check(&o, &p, DRACUT_ALL, &libs, k_all, 0, "  and another key for the first cut's run");
	key_check(&o, &p, DRACUT_BINS, &libs, k_bins, 1, "  the same bins key");
	strv_free(&p.modules);
	strv_push(&p.modules, "virtio_net");
	strv_push(&p.modules, "zram");
	key_check(&o, &p, DRACUT_MODULES, &libs, k_mods, 1, "  back to the old list: the old modules key");

	/* the extra modules count as modules */
	strv_push(&p.extra_modules, "fuse");
	key_check(&o, &p, DRACUT_MODULES, &libs, k_mods, 0, "an extra module more: another modules key");
	strv_free(&p.extra_modules);
	strv_push(&p.extra_modules, "9p");

	/* a binary more: the bins layer changes, the modules layer does not */
	strv_push(&p.bins, "/usr/bin/cat");
	key_check(&o, &p, DRACUT_BINS, &libs, k_bins, 0, "a binary more: another bins key");
	key_check(&o, &p, DRACUT_MODULES, &libs, k_mods, 1, "  the same modules key");
	strv_free(&p.bins);
	strv_push(&p.bins, "/usr/bin/ls");
	strv_push(&p.bins, "/lib/libc.so.6");

	/* a tree library more: the bins layer changes */
	strv_push(&libs, "/lib/libm.so.6");
	key_check(&o, &p, DRACUT_BINS, &libs, k_bins, 0, "a tree library more: another bins key");
	libs.n--;
	free(libs.v[libs.n]);
	libs.v[libs.n] = NULL;
	key_check(&o, &p, DRACUT_BINS, &libs, k_bins, 1, "  and without it the old one");

	/* the static bash in the dynamic one's place (bash.c): another bins layer */
	p.static_bash = xstrdup(conffile);
	key_check(&o, &p, DRACUT_BINS, &libs, k_bins, 0, "a static bash: another bins key");
	key_check(&o, &p, DRACUT_MODULES, &libs, k_mods, 1, "  the same modules key");
	free(p.static_bash);
	p.static_bash = NULL;
	key_check(&o, &p, DRACUT_BINS, &libs, k_bins, 1, "  the dynamic bash again: the old key");

	/* our dracut.conf.d by content: same size, other bytes */
	put_file(conffile, "add_drivers+=\" b \"\n");
	key_check(&o, &p, DRACUT_BINS, &libs, k_bins, 0,
		  "an edit of dracut.conf.d/*.conf: another bins key");
	key_check(&o, &p, DRACUT_MODULES, &libs, k_mods, 0, "  and another modules key");
	put_file(conffile, "add_drivers+=\" a \"\n");
	key_check(&o, &p, DRACUT_MODULES, &libs, k_mods, 1, "  the old text: the old key");

	/* the kernel's modules.dep is an input of the modules layer only */
	put_file(depfile, "kernel/zram.ko:\nkernel/loop.ko:\n");
	key_check(&o, &p, DRACUT_MODULES, &libs, k_mods, 0, "a new modules.dep: another modules key");
	key_check(&o, &p, DRACUT_BINS, &libs, k_bins, 1, "  the same bins key");

	/*
	 * dracut's own tools come from PATH, or from DRACUT_PATH, which
	 * dracut makes its PATH: each is an input of every layer
	 */
	for (int i = 0; i < 2; i++) {
		const char *var = i ? "DRACUT_PATH" : "PATH", *was = getenv(var);
		char *saved = was ? xstrdup(was) : NULL;
		char *b = key_of(&o, &p, DRACUT_BINS, &libs, NULL);
		char *m = key_of(&o, &p, DRACUT_MODULES, &libs, NULL);
		char *changed = xasprintf("%s changed: another bins key", var);
		char *back = xasprintf("  %s as it was: the old bins key", var);
		/* a directory more, dracut itself still found (its stat is in the key too) */
		char *more = xasprintf(i ? "/nonexistent/bin %s" : "/nonexistent/bin:%s",
				       was ? was : "/usr/bin");

		setenv(var, more, 1);
		key_check(&o, &p, DRACUT_BINS, &libs, b, 0, changed);
		key_check(&o, &p, DRACUT_MODULES, &libs, m, 0, "  and another modules key");
		if (saved)
			setenv(var, saved, 1);
		else
			unsetenv(var);
		key_check(&o, &p, DRACUT_BINS, &libs, b, 1, back);
		free(saved);
		free(b);
		free(m);
		free(changed);
		free(back);
		free(more);
	}

	/* another DRACUT program: another dracut, every key changes */
	conf_set(&p.conf, "DRACUT", "/nonexistent/dracut.sh");
	key_check(&o, &p, DRACUT_BINS, &libs, k_bins, 0, "DRACUT=another program: another bins key");

	free(k_all);
	free(k_mods);
	free(k_bins);
	strv_free(&libs);
	free(conffile);
	free(depfile);
	free(confdir);
	cut_plan_free(&p);
	tap_rm_tree(dir);
	return tap_done();
}
