// SPDX-License-Identifier: GPL-2.0
/* kernel.c: locate a built tree or an installed kernel, list its modules and config. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confget.h"
#include "err.h"
#include "io.h"
#include "kernel.h"

static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * "kernel/drivers/block/zram/zram.ko.xz: deps..." -> "zram"; *compressed
 * (if not NULL) set when a module's file goes on past ".ko"
 */
static void add_module_names(struct strv *sv, char *text, int *compressed)
{
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		char *end, *base;

		if (nl)
			*nl = '\0';
		end = strchr(line, ':');
		if (end)
			*end = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		end = strstr(base, ".ko");
		if (end) {
			if (compressed && end[3])
				*compressed = 1;
			*end = '\0';
			module_name_normalise(base);
			if (*base)
				strv_push(sv, base);
		}
		line = nl ? nl + 1 : NULL;
	}
}

static int load_module_lists(struct kernel *k, char **err)
{
	char *path, *text;
	int rc;

	if (!k->moddir)
		return 0;
	path = xasprintf("%s/modules.dep", k->moddir);
	rc = read_file(path, &text, NULL);
	if (rc) {
		*err = xasprintf("%s: %s (run depmod, or 'make modules_install' again)", path,
				 err_str(rc));
		free(path);
		return rc;
	}
	add_module_names(&k->mods, text, &k->compressed);
	free(text);
	free(path);
	path = xasprintf("%s/modules.builtin", k->moddir);
	if (read_file(path, &text, NULL) == 0) {
		add_module_names(&k->builtin, text, NULL);
		free(text);
	}
	free(path);
	return 0;
}

static int locate_src(const struct conf *c, const struct arch *a, const char *src, struct kernel *k,
		      char **err)
{
	const char *modpath = conf_str(c, "KERNEL_INSTALL_MOD_PATH", NULL);
	const char *at = conf_origin(c, "KERNEL_SRC");	/* messages start with it */
	char *relfile, *rel, *text;
	size_t len;
	int rc;

	k->from_src = 1;
	if (!is_dir(src)) {
		*err = xasprintf("%s: KERNEL_SRC=%s: not a directory", at, src);
		return -ENOENT;
	}
	k->image = xasprintf("%s/%s", src, a->kernel_image);
	if (!is_file(k->image)) {
		char *how = arch_foreign(a) ? xasprintf("make ARCH=%s CROSS_COMPILE=%s-", a->kbuild,
							a->triplet) : xstrdup("make");

		*err = xasprintf("%s: KERNEL_SRC=%s is not built for %s: %s is missing (run %s in the tree)",
				 at, src, a->name, k->image, how);
		free(how);
		return -ENOENT;
	}
	relfile = xasprintf("%s/include/config/kernel.release", src);
	rc = read_file(relfile, &rel, &len);
	if (rc) {
		*err = xasprintf("%s: KERNEL_SRC=%s is not built: %s: %s", at, src, relfile,
				 err_str(rc));
		free(relfile);
		return rc;
	}
	free(relfile);
	while (len && (rel[len - 1] == '\n' || rel[len - 1] == ' '))
		rel[--len] = '\0';
	if (!len) {
		*err = xasprintf("%s: KERNEL_SRC=%s: include/config/kernel.release is empty",
				 at, src);
		free(rel);
		return -EINVAL;
	}
	k->release = rel;
	k->config = xasprintf("%s/.config", src);
	if (!is_file(k->config)) {
		*err = xasprintf("%s: KERNEL_SRC=%s: %s is missing", at, src, k->config);
		return -ENOENT;
	}
	if (modpath && *modpath) {
		k->kmoddir_root = xstrdup(modpath);
		k->moddir = xasprintf("%s/lib/modules/%s", modpath, rel);
		if (!is_dir(k->moddir)) {
			char *dir = xasprintf("%s/lib/modules", modpath);
			DIR *d = opendir(dir);
			struct dirent *de;
			struct strv have = STRV_INIT;

			while (d && (de = readdir(d)))
				if (de->d_name[0] != '.')
					strv_push(&have, de->d_name);
			if (d)
				closedir(d);
			*err = xasprintf("%s: KERNEL_INSTALL_MOD_PATH=%s has no modules for release %s "
					 "(found: %s); run 'make modules_install INSTALL_MOD_PATH=%s' "
					 "in KERNEL_SRC", conf_origin(c, "KERNEL_INSTALL_MOD_PATH"), modpath, rel,
					 have.n ? have.v[0] : "none", modpath);
			strv_free(&have);
			free(dir);
			return -ENOENT;
		}
	}
	rc = load_module_lists(k, err);
	if (rc)
		return rc;
	/*
	 * Without installed modules (none built, or KERNEL_INSTALL_MOD_PATH
	 * unset) what is built in is still listed in the tree: kbuild writes
	 * modules.builtin next to vmlinux.o (Linux >= 5.2, even with
	 * CONFIG_MODULES=n), so a profile's module that is =y is found.
	 */
	if (!k->builtin.n) {
		char *path = xasprintf("%s/modules.builtin", src);

		if (read_file(path, &text, NULL) == 0) {
			add_module_names(&k->builtin, text, NULL);
			free(text);
		}
		free(path);
	}
	return 0;
}

/* Newest release by version order that has both vmlinuz and modules. */
static char *newest_release(const char *boot_dir, const char *mod_root)
{
	DIR *d = opendir(boot_dir);
	struct dirent *de;
	char *best = NULL;

	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		const char *rel;
		char *mods;

		if (strncmp(de->d_name, "vmlinuz-", 8))
			continue;
		rel = de->d_name + 8;
		mods = xasprintf("%s/%s", mod_root, rel);
		if (is_dir(mods) && (!best || strverscmp(rel, best) > 0)) {
			free(best);
			best = xstrdup(rel);
		}
		free(mods);
	}
	closedir(d);
	return best;
}

static int locate_installed(const struct conf *c, const struct arch *a, const char *boot_dir,
			    const char *mod_root, struct kernel *k, char **err)
{
	const char *rel = conf_str(c, "KERNEL_RELEASE", NULL);

	if (rel && *rel) {
		k->release = xstrdup(rel);
	} else {
		k->release = newest_release(boot_dir, mod_root);
		if (!k->release) {
			if (arch_foreign(a))
				*err = xasprintf("no %s kernel: no %s/vmlinuz-REL with modules in %s/REL "
						 "(unpack linux-image-%s there: host/sysroot %s SYSROOT --kernel, "
						 "or make deps ARCHES=%s; or set KERNEL_SRC)", a->name, boot_dir,
						 mod_root, a->name, a->name, a->name);
			else
				*err = xasprintf("no installed kernel: no %s/vmlinuz-REL with modules in %s/REL "
						 "(install linux-image-%s or set KERNEL_SRC)", boot_dir, mod_root,
						 a->name);
			return -ENOENT;
		}
	}
	k->image = xasprintf("%s/vmlinuz-%s", boot_dir, k->release);
	if (!is_file(k->image)) {
		*err = xasprintf("%s: KERNEL_RELEASE=%s: %s is missing", conf_origin(c, "KERNEL_RELEASE"),
				 k->release, k->image);
		return -ENOENT;
	}
	if (access(k->image, R_OK) < 0) {
		*err = xasprintf("%s: %s (qemu needs to read the kernel image)", k->image, strerror(errno));
		return -errno;
	}
	k->moddir = xasprintf("%s/%s", mod_root, k->release);
	if (!is_dir(k->moddir)) {
		*err = xasprintf("kernel %s: module directory %s is missing", k->release, k->moddir);
		return -ENOENT;
	}
	k->config = xasprintf("%s/config-%s", boot_dir, k->release);
	if (!is_file(k->config)) {
		free(k->config);
		k->config = NULL;
	}
	return load_module_lists(k, err);
}

int kernel_locate(const struct conf *c, const struct arch *a, const char *boot_dir,
		  const char *mod_root, struct kernel *k, char **err)
{
	const char *src = conf_str(c, "KERNEL_SRC", NULL);
	int rc;

	memset(k, 0, sizeof(*k));
	*err = NULL;
	if (src && *src)
		rc = locate_src(c, a, src, k, err);
	else
		rc = locate_installed(c, a, boot_dir, mod_root, k, err);
	if (rc)
		kernel_free(k);
	return rc;
}

void kernel_free(struct kernel *k)
{
	free(k->release);
	free(k->image);
	free(k->config);
	free(k->moddir);
	free(k->kmoddir_root);
	strv_free(&k->mods);
	strv_free(&k->builtin);
	memset(k, 0, sizeof(*k));
}

int kernel_has_module(const struct kernel *k, const char *name)
{
	char *n = xstrdup(name);
	int rc = 0;

	module_name_normalise(n);
	if (strv_contains(&k->mods, n))
		rc = 2;
	else if (strv_contains(&k->builtin, n))
		rc = 1;
	free(n);
	return rc;
}

/* Value of SYM in a .config text: "y", "m", a string, or NULL if unset. */
static const char *kconfig_value(const char *text, const char *sym, char *buf, size_t bufsz)
{
	size_t sl = strlen(sym);

	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		if (len > sl && !strncmp(line, sym, sl) && line[sl] == '=') {
			size_t vl = len - sl - 1;

			if (vl >= bufsz)
				vl = bufsz - 1;
			memcpy(buf, line + sl + 1, vl);
			buf[vl] = '\0';
			return buf;
		}
		line = nl ? nl + 1 : NULL;
	}
	return NULL;
}

int kernel_check_kconfig(const struct kernel *k, const struct strv *reqs, struct strv *missing)
{
	char *text;
	int rc;

	if (!reqs->n)
		return 0;
	if (!k->config)
		return -ENOENT;
	rc = read_file(k->config, &text, NULL);
	if (rc)
		return rc;
	for (size_t i = 0; i < reqs->n; i++) {
		char *sym = xstrdup(reqs->v[i]);
		char *want = strchr(sym, '=');
		char buf[256];
		const char *have;

		if (want)
			*want++ = '\0';
		have = kconfig_value(text, sym, buf, sizeof(buf));
		if (!have || !strcmp(have, "n")) {
			strv_pushf(missing, "%s is not set (needed: %s)", sym, want ? want : "y or m");
		} else if (want && !strcmp(want, "y") && strcmp(have, "y")) {
			strv_pushf(missing, "%s=%s, but built-in (=y) is needed", sym, have);
		} else if (want && strcmp(want, "y") && strcmp(want, "m") && strcmp(have, want)) {
			strv_pushf(missing, "%s=%s, but %s is needed", sym, have, want);
		}
		free(sym);
	}
	free(text);
	return 0;
}
