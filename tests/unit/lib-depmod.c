// SPDX-License-Identifier: GPL-2.0
/*
 * lib-depmod.c: depmod itself judges depmod.c on crafted modules, the
 * fuzz target's seeds (tests/fuzz/corpus/depmod, cases of depmod-input.h):
 * weak and unresolved needs, exports through __crc_ and through
 * __ksymtab_strings, a symbol two modules export, modules.order naming a
 * module twice or missing its last newline, a .modinfo string without
 * '=', aliases with brackets, devname aliases, odd lines in the builtin
 * lists. Each seed is laid out as a module directory, `depmod -a -b` runs
 * on it, and every file it wrote must be depmod.c's bytes (where depmod
 * fails, on a module that needs itself, depmod.c must leave it to depmod,
 * whose error ./cut then shows). The installed
 * kernel's modules are judged by cut-kmods.sh.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "depmod.h"
#include "err.h"
#include "fuzz/depmod-input.h"
#include "io.h"
#include "run.h"
#include "strv.h"
#include "tap.h"

#define CORPUS "tests/fuzz/corpus/depmod"

static void put(const char *dir, const char *name, const void *data, size_t len)
{
	char *p = xasprintf("%s/%s", dir, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || write_all(fd, data, len) || close(fd))
		die_errno("%s", p);
	free(p);
}

/* depmod on the seed's module directory agrees with depmod_compute; "" or what differs */
static char *judge(const char *depmod, const char *tmp, const char *seed, enum depmod_layout layout,
		   unsigned int comp, char **why)
{
	char *path = xasprintf("%s/%s", CORPUS, seed), *text, *top, *mods, *differ = xstrdup("");
	char *argv[] = { (char *)depmod, "-a", "-b", (char *)tmp, "9.9.9", NULL };
	struct depmod_case c;
	struct depmod_out out;
	size_t len;
	int null, st, rc;

	if (read_file(path, &text, &len))
		die_errno("%s", path);
	depmod_case_parse(text, len, &c);
	c.in.layout = layout;
	c.in.comp = comp;
	top = xasprintf("%s/lib/modules/9.9.9", tmp);
	mods = xasprintf("%s/kernel", top);
	for (char *s = top + strlen(tmp) + 1;; s++) {
		char c0 = *s;

		if (c0 != '/' && c0)
			continue;
		*s = '\0';
		if (mkdir(top, 0755))
			die_errno("mkdir %s", top);
		*s = c0;
		if (!c0)
			break;
	}
	if (mkdir(mods, 0755))
		die_errno("mkdir %s", mods);
	if (c.in.order)
		put(top, "modules.order", c.in.order, c.in.order_len);
	if (c.in.builtin)
		put(top, "modules.builtin", c.in.builtin, c.in.builtin_len);
	if (c.in.builtin_modinfo)
		put(top, "modules.builtin.modinfo", c.in.builtin_modinfo, c.in.builtin_modinfo_len);
	for (size_t i = 0; i < c.in.n; i++)
		put(top, c.mods[i].relpath, c.mods[i].data, c.mods[i].len);
	/* its warnings (unmatched brackets, odd builtin lines) are the seeds' point */
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	st = run_wait(argv, null);
	close(null);
	if (st < 0)
		die_errno("running %s", depmod);
	rc = depmod_compute(&c.in, &out, why);
	/* depmod refuses (a module depending on itself): then ./cut must ask it */
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		free(differ);
		differ = xstrdup(rc == -ENOTSUP ? "" : " (depmod fails, ours does not)");
		rc = 1;
	}
	for (size_t f = 0; !rc && f < out.n; f++) {
		char *theirs, *p = xasprintf("%s/%s", top, out.f[f].name), *d;
		size_t tl;

		if (read_file(p, &theirs, &tl))
			die_errno("%s", p);
		if (tl != out.f[f].data.len || memcmp(theirs, out.f[f].data.s, tl)) {
			d = xasprintf("%s %s", differ, out.f[f].name);
			free(differ);
			differ = d;
		}
		free(theirs);
		free(p);
	}
	if (rc < 0) {
		free(differ);
		differ = xasprintf(" (ours asks depmod: %s)", *why);
	}
	depmod_out_free(&out);
	depmod_case_free(&c);
	free(text);
	free(top);
	free(mods);
	free(path);
	return differ;
}

int main(void)
{
	char *depmod = find_in_path("depmod"), *unproven;
	struct strv seeds = STRV_INIT;
	enum depmod_layout layout;
	unsigned int comp;

	if (!depmod) {
		printf("1..0 # SKIP depmod not installed (kmod)\n");
		return 0;
	}
	if (strv_list_dir(&seeds, CORPUS, "") || seeds.n < 3)
		die("no seeds in %s", CORPUS);
	/* less . and .. */
	tap_plan((int)seeds.n - 2);
	/*
	 * the host's depmod judges, in its own layout (kmod 30 or 34); an
	 * unproven kmod's: ./cut asks it there, so the writer's bytes are
	 * not its claim on this host
	 */
	depmod_host_layout(&layout, &comp, &unproven);
	for (size_t i = 0; i < seeds.n; i++) {
		char tmpl[] = "/tmp/rapido-lib-depmod.XXXXXX", *why = NULL, *differ;

		if (seeds.v[i][0] == '.')
			continue;
		if (unproven) {
			tap_skip(unproven, "%s: depmod's bytes", seeds.v[i]);
			continue;
		}
		if (!mkdtemp(tmpl))
			die_errno("mkdtemp");
		differ = judge(depmod, tmpl, seeds.v[i], layout, comp, &why);
		tap_ok(!*differ, "%s: %s%s%s", seeds.v[i], why ? "left to depmod: " : "depmod's bytes",
		       why ? why : *differ ? ", not in" : "", differ);
		free(differ);
		free(why);
		tap_rm_tree(tmpl);
	}
	strv_free(&seeds);
	free(unproven);
	free(depmod);
	return tap_done();
}
