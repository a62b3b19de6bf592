// SPDX-License-Identifier: GPL-2.0
/*
 * kmods.c: the modules layer, written by ./cut rather than dracut (issue
 * 31: every kernel build changes it, and a dracut run for it took ~0.5 s).
 * It holds what dracut --drivers installed: the modules asked for and, as
 * dracut-install walks them, their dependencies and soft dependencies
 * (moddep.h); the firmware files each names (modinfo "firmware=", searched
 * in dracut's firmware directories, .zst or .xz when the plain one is
 * missing); the module directory's modules.builtin, modules.builtin.alias,
 * modules.builtin.modinfo and modules.order; and what depmod -a writes for
 * just these modules as dracut runs it, byte for byte: computed from the
 * modules' bytes (src/image/depmod.c), or, where that cannot be sure, by
 * depmod itself on a directory of symlinks. ./cut --dracut-modules keeps
 * dracut's way (dracut.c).
 *
 * The entry is keyed by the content of those files (each one's name, mode
 * and XXH64), not their stat: a kernel rebuild rewrites every module
 * (new inode and mtime) while most keep their bytes, and then the layer
 * is found again without running depmod or writing 15 MB. So its files
 * carry mtime 0. kmods/STATKEY in the cache leads from the cheap key
 * (stat of the lists, cut_kmods_key) to that content key, with a dep line
 * for every file read: a re-cut reads no module. A cut that reads them
 * reads each file once and keeps its bytes (in an arena, arena.h) for
 * the layer it may have to write.
 *
 * The modules the init loads only when the kernel command line asks
 * (p->ondemand_modules: 9p for rapido.shares=, guestmods.h), and what
 * they need that the profile's own modules do not, go into a second
 * layer, "ondemand", which ./vm adds to a boot only then (layers.h): a
 * batch boot of simple unpacks 1.7 MiB less. modules.dep and depmod's
 * other files stay in the first and name them all, so that a boot that
 * has both loads any of them.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arena.h"
#include "cpio.h"
#include "err.h"
#include "depmod.h"
#include "globq.h"
#include "io.h"
#include "kmodelf.h"
#include "kmodfile.h"
#include "layer.h"
#include "moddep.h"
#include "run.h"

/* The lists dracut copies from the module directory (dracut_kernel_post) */
static const char *const copied[] = { "modules.builtin", "modules.builtin.alias",
				      "modules.builtin.modinfo", "modules.order" };
/* depmod's inputs: a change to any means other metadata */
static const char *const inputs[] = { "modules.dep", "modules.softdep", "modules.alias",
				      "modules.builtin", "modules.builtin.alias",
				      "modules.builtin.modinfo", "modules.order", "modules.symbols" };

/* "usr/lib" where the root has /lib -> usr/lib (as dracut's image then has), else "lib" */
static const char *lib_dir(const struct cut_plan *p)
{
	char *lib = xasprintf("%s/lib", p->sysroot ? p->sysroot : "");
	char target[64];
	ssize_t n = readlink(lib, target, sizeof(target) - 1);

	free(lib);
	if (n > 0) {
		target[n] = '\0';
		if (!strcmp(target, "usr/lib") || !strcmp(target, "/usr/lib"))
			return "usr/lib";
	}
	return "lib";
}

/* The cheap key: stat of the lists depmod reads, the modules asked for (kmods/ leads to the entry). */
static void cut_kmods_key(const struct cut_plan *p, struct cut_layer *ly)
{
	char *depmod = find_in_path("depmod");
	struct sha256 s;

	sha256_init(&s);
	/* two layers since the on-demand modules went apart: no alias of one serves */
	sha256_update(&s, CACHE_FORMAT " kmods+ondemand", sizeof(CACHE_FORMAT " kmods+ondemand"));
	sha256_update(&s, p->kern.release, strlen(p->kern.release) + 1);
	sha256_update(&s, p->kern.moddir, strlen(p->kern.moddir) + 1);
	sha256_update(&s, lib_dir(p), strlen(lib_dir(p)) + 1);
	sha256_update(&s, p->sysroot ? p->sysroot : "", strlen(p->sysroot ? p->sysroot : "") + 1);
	for (size_t i = 0; i < p->modules.n; i++)
		sha256_update(&s, p->modules.v[i], strlen(p->modules.v[i]) + 1);
	sha256_update(&s, "", 1);
	for (size_t i = 0; i < p->extra_modules.n; i++)
		sha256_update(&s, p->extra_modules.v[i], strlen(p->extra_modules.v[i]) + 1);
	sha256_update(&s, "", 1);
	for (size_t i = 0; i < p->ondemand_modules.n; i++)
		sha256_update(&s, p->ondemand_modules.v[i], strlen(p->ondemand_modules.v[i]) + 1);
	/* depmod's version writes the indexes */
	cut_key_stat(&s, depmod ? depmod : "(depmod not found)");
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		char *f = xasprintf("%s/%s", p->kern.moddir, inputs[i]);

		cut_key_stat(&s, f);
		free(f);
	}
	free(depmod);
	ly->kind = "modules";
	ly->desc = xasprintf("kernel %s: %zu modules asked for", p->kern.release,
			     p->modules.n + p->extra_modules.n);
	sha256_hex(&s, ly->key);
}

/*
 * The "firmware=" values of a module's .modinfo, read from its ELF bytes
 * (an ELF64 of the host's byte order, decompressed by kset_add); -ENOEXEC
 * for what modinfo must read.
 */
static int elf_firmware(const char *data, uint64_t len, struct strv *fw)
{
	struct kmod_elf e;
	const char *info;
	size_t ilen = 0;

	if (kmod_elf_open(&e, data, (size_t)len))
		return -ENOEXEC;
	/* the first .modinfo from section 0, as it always was read */
	info = kmod_elf_section(&e, ".modinfo", &ilen, 0);
	for (size_t off = 0; info && off < ilen;) {
		const char *s = info + off;
		size_t l = strnlen(s, ilen - off);

		if (l > 9 && !strncmp(s, "firmware=", 9)) {
			char *v = xstrndup(s + 9, l - 9);

			if (!strv_contains(fw, v))
				strv_push(fw, v);
			free(v);
		}
		off += l + 1;
	}
	return 0;
}

/* modinfo -F firmware: for what elf_firmware cannot read (another ELF, a module past KMOD_FILE_MAX). */
static int modinfo_firmware(const char *path, struct strv *fw, const struct cut_work *w)
{
	char *argv[] = { "modinfo", "-F", "firmware", "--", (char *)path, NULL };
	char *out = cut_work_path(w, "modinfo"), *text;
	int fd = open(out, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), st;

	if (fd < 0) {
		free(out);
		return -errno;
	}
	st = run_wait(argv, fd);
	close(fd);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) || read_file(out, &text, NULL)) {
		unlink(out);
		free(out);
		return -EIO;
	}
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		if (*line && !strv_contains(fw, line))
			strv_push(fw, line);
	free(text);
	unlink(out);
	free(out);
	return 0;
}

/* dracut-install's install_firmware: every firmware directory that has it, plain, .zst or .xz */
static void find_firmware(const struct cut_plan *p, const char *name, struct strv *files)
{
	const char *root = p->sysroot ? p->sysroot : "";
	char *dirs[4] = {
		xasprintf("%s/lib/firmware/updates/%s", root, p->kern.release),
		xasprintf("%s/lib/firmware/updates", root),
		xasprintf("%s/lib/firmware/%s", root, p->kern.release),
		xasprintf("%s/lib/firmware", root),
	};

	for (int i = 0; i < 4; i++) {
		char *path = xasprintf("%s/%s", dirs[i], name);
		static const char *const ext[] = { "", ".zst", ".xz" };
		int rc;

		if (strpbrk(name, "*?[") && access(path, F_OK) < 0) {
			/* the pattern is the profile's name: the sysroot's path is taken as it is */
			char *dir = glob_quote(dirs[i]), *pat = xasprintf("%s/%s", dir, name);
			glob_t g;

			free(dir);
			rc = glob(pat, 0, NULL, &g);
			free(pat);
			if (!rc)
				for (size_t k = 0; k < g.gl_pathc; k++)
					if (!strv_contains(files, g.gl_pathv[k]))
						strv_push(files, g.gl_pathv[k]);
			globfree(&g);
		} else {
			for (int e = 0; e < 3; e++) {
				char *f = xasprintf("%s%s", path, ext[e]);
				int found = access(f, F_OK) == 0;

				if (found && !strv_contains(files, f))
					strv_push(files, f);
				free(f);
				if (found)
					break;
			}
		}
		free(path);
		free(dirs[i]);
	}
}

/* mkdir -p of path's parents inside the stage */
static int mkparents(char *path)
{
	for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			int rc = -errno;

			*s = '/';
			return rc;
		}
		*s = '/';
	}
	return 0;
}

/* One file of the layer: its name in the image, where its bytes came from, their hash. */
struct kfile {
	char *name;
	char *src;
	int host;	/* a host file: a dep line of the stat key's way to the entry */
	int ondemand;	/* a module only the on-demand ones need: the second layer's */
	mode_t mode;
	uint64_t len, xxh;
	char *data;	/* its bytes, read once by kset_add (or made here), for a layer to write */
	int made;	/* data is malloc'd (made here), not in the set's arena */
	/* a module's ELF: data, or its decompressed bytes (malloc'd: elf != data); NULL: unread */
	char *elf;
	size_t elf_len;
	char *elf_why;	/* why elf is NULL for a module (malloc'd) */
};

static int kfile_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kfile *)a)->name, ((const struct kfile *)b)->name);
}

struct kset {
	struct kfile *v;
	size_t n, cap;
	struct arena mem;	/* the bytes kset_add read */
};

static struct kfile *kset_new(struct kset *k)
{
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 64;
		k->v = xrealloc(k->v, k->cap * sizeof(*k->v));
	}
	return &k->v[k->n++];
}

/*
 * A module's ELF bytes: its bytes, or a compressed one's decompressed in
 * memory (capped at KMOD_FILE_MAX: past that, or not a whole stream, the
 * reason is kept and the writer leaves the indexes to depmod).
 */
static void kfile_elf(struct kfile *f)
{
	int comp = kmod_file_comp(f->src);
	void *out;
	size_t len;
	int rc;

	if (comp <= 0) {
		f->elf = f->data;
		f->elf_len = f->len;
		return;
	}
	rc = kmod_file_decompress((unsigned int)comp, f->data, f->len, KMOD_FILE_MAX, &out, &len);
	if (!rc) {
		f->elf = out;
		f->elf_len = len;
		return;
	} else if (rc == -EFBIG) {
		f->elf_why = xasprintf("%s decompresses to more than %u MiB: refused, not read", f->src,
				       KMOD_FILE_MAX >> 20);
	} else {
		f->elf_why = xasprintf("%s: not a whole %s stream (%s)", f->src,
				       kmod_file_comp_name((unsigned int)comp), strerror(-rc));
	}
	/* said whatever -v: depmod and modinfo answer for it instead */
	warn("%s; depmod writes the indexes", f->elf_why);
}

/*
 * Add the file at src as name: its mode, bytes and XXH64 (the content
 * key's), read once and kept, so that a layer to write reads nothing
 * again; a module's firmware names into fw (*elf_rc: elf_firmware's
 * answer), from its ELF, decompressed once here for the writer too.
 */
static int kset_add(struct kset *k, char *name, char *src, int host, struct strv *fw, int *elf_rc,
		    char **err)
{
	struct kfile *f = kset_new(k);
	struct stat st;
	struct xxh64 x;
	ssize_t got;
	int fd, rc = 0;

	*f = (struct kfile){ .name = name, .src = src, .host = host };
	/* never blocks on a FIFO in the module tree: refused, named */
	fd = open_regular(src, 0, &st);
	if (fd < 0) {
		*err = xasprintf("%s: %s", src, file_strerror(fd, &st));
		return fd;
	}
	f->mode = st.st_mode & 07777;
	f->len = (uint64_t)st.st_size;
	/* one byte more than its size: a file still being written shows */
	f->data = arena_alloc(&k->mem, f->len + 1);
	got = pread_full(fd, f->data, f->len + 1, 0);
	close(fd);
	if (got < 0) {
		rc = (int)got;
		*err = xasprintf("%s: %s", src, strerror(-rc));
		return rc;
	}
	if ((uint64_t)got != f->len) {
		*err = xasprintf("%s changed while it was being read; cut again", src);
		return -ESTALE;
	}
	xxh64_init(&x, 0);
	xxh64_update(&x, f->data, f->len);
	f->xxh = xxh64_digest(&x);
	if (fw) {
		kfile_elf(f);
		*elf_rc = f->elf ? elf_firmware(f->elf, f->elf_len, fw) : -ENOEXEC;
	}
	return 0;
}

/* Add bytes made here (depmod's files) as name. */
static void kset_add_mem(struct kset *k, char *name, struct strbuf *b, mode_t mode)
{
	struct kfile *f = kset_new(k);
	struct xxh64 x;

	*f = (struct kfile){ .name = name, .mode = mode, .len = b->len, .data = b->s, .made = 1 };
	*b = (struct strbuf)STRBUF_INIT;
	xxh64_init(&x, 0);
	xxh64_update(&x, f->data, f->len);
	f->xxh = xxh64_digest(&x);
}

static void kset_free(struct kset *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->v[i].name);
		free(k->v[i].src);
		if (k->v[i].elf != k->v[i].data)
			free(k->v[i].elf);
		free(k->v[i].elf_why);
		if (k->v[i].made)
			free(k->v[i].data);
	}
	free(k->v);
	arena_free(&k->mem);
}

/* depmod -a -b STAGE REL over symlinks to the chosen modules, as dracut runs it on its copies */
static int run_depmod(const struct cut_plan *p, const char *stage, char **err)
{
	char *depmod = find_in_path("depmod");
	char *argv[] = { depmod, "-a", "-b", (char *)stage, p->kern.release, NULL };
	char *log = xasprintf("%s.log", stage), *text = NULL;
	int fd, st;

	if (!depmod) {
		*err = xasprintf("depmod not found (it writes the modules layer's indexes; install kmod)");
		free(log);
		return -ENOENT;
	}
	fd = open(log, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		*err = xasprintf("%s: %s", log, strerror(errno));
		free(log);
		free(depmod);
		return -EIO;
	}
	st = run_wait(argv, fd);
	close(fd);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		read_file(log, &text, NULL);
		*err = xasprintf("depmod -a -b %s %s failed%s%s", stage, p->kern.release,
				 text && *text ? ": " : "", text ? text : "");
		free(text);
		unlink(log);
		free(log);
		free(depmod);
		return -EIO;
	}
	unlink(log);
	free(log);
	free(depmod);
	return 0;
}

/* The files of the layer but depmod's output: modules, firmware, the copied lists; read. */
static int collect(const struct cut_plan *p, const struct cut_work *w, struct kset *k, char **err)
{
	const char *lib = lib_dir(p);
	struct moddep d;
	struct strv missing = STRV_INIT, fw = STRV_INIT, fwfiles = STRV_INIT, names = STRV_INIT;
	size_t *order = NULL, norder = 0, every_boot;
	int rc;

	rc = moddep_read(&d, p->kern.moddir);
	if (rc) {
		*err = xasprintf("%s/modules.dep: %s", p->kern.moddir, err_str(rc));
		return rc;
	}
	strv_push_all(&names, &p->modules);
	strv_push_all(&names, &p->extra_modules);
	moddep_walk(&d, (const char *const *)strv_argv(&names), names.n, &order, &norder, &missing);
	/* the same walk goes on: what the on-demand ones add comes after */
	every_boot = norder;
	moddep_walk(&d, (const char *const *)p->ondemand_modules.v, p->ondemand_modules.n,
		    &order, &norder, &missing);
	if (missing.n) {
		*err = xasprintf("kernel module '%s' is not in %s/modules.dep", missing.v[0],
				 p->kern.moddir);
		rc = -ENOENT;
		goto out;
	}
	for (size_t i = 0; i < norder && !rc; i++) {
		const struct moddep_mod *m = &d.v[order[i]];
		char *src = xasprintf("%s/%s", p->kern.moddir, m->path);
		int elf_rc = 0;

		rc = kset_add(k, xasprintf("%s/modules/%s/%s", lib, p->kern.release, m->path), src, 1,
			      &fw, &elf_rc, err);
		if (!rc)
			k->v[k->n - 1].ondemand = i >= every_boot;
		if (!rc && elf_rc == -ENOEXEC) {
			int mrc = modinfo_firmware(src, &fw, w);

			if (mrc)
				warn("%s: cannot read the firmware it names: modinfo: %s", src,
				     strerror(-mrc));
		}
	}
	for (size_t i = 0; i < sizeof(copied) / sizeof(copied[0]) && !rc; i++) {
		char *src = xasprintf("%s/%s", p->kern.moddir, copied[i]);

		if (access(src, F_OK) == 0)
			rc = kset_add(k, xasprintf("%s/modules/%s/%s", lib, p->kern.release, copied[i]),
				      src, 1, NULL, NULL, err);
		else
			free(src);
	}
	for (size_t i = 0; i < fw.n && !rc; i++)
		find_firmware(p, fw.v[i], &fwfiles);
	for (size_t i = 0; i < fwfiles.n && !rc; i++) {
		const char *f = fwfiles.v[i] + (p->sysroot ? strlen(p->sysroot) : 0);

		/* /lib/firmware/X -> LIB/firmware/X */
		rc = kset_add(k, xasprintf("%s%s", lib, f + 4), xstrdup(fwfiles.v[i]), 1, NULL, NULL,
			      err);
	}
out:
	free(order);
	moddep_free(&d);
	strv_free(&missing);
	strv_free(&fw);
	strv_free(&fwfiles);
	strv_free(&names);
	return rc;
}

/*
 * depmod's configuration directories (kmod 30; -b leaves them the host's):
 * a .conf there may reorder, override or add modules, which only depmod
 * itself can answer for. The name of the first one found, or NULL.
 */
static char *depmod_configured(void)
{
	static const char *const dirs[] = { "/etc/depmod.d", "/run/depmod.d",
					    "/usr/local/lib/depmod.d", "/lib/depmod.d" };
	char *found = NULL;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !found; i++) {
		struct strv conf = STRV_INIT;

		strv_list_dir(&conf, dirs[i], ".conf");
		for (size_t j = 0; j < conf.n && !found; j++)
			if (conf.v[j][0] != '.')
				found = xasprintf("%s/%s", dirs[i], conf.v[j]);
		strv_free(&conf);
	}
	return found;
}

/* one of the lists copied from the module directory (the rest of it are modules) */
static int is_copied(const char *rel)
{
	for (size_t i = 0; i < sizeof(copied) / sizeof(copied[0]); i++)
		if (!strcmp(rel, copied[i]))
			return 1;
	return 0;
}

/*
 * What depmod -a -b STAGE REL writes on a stage of these files, computed
 * from their bytes (depmod.h); 0 and the files joined to k, or -ENOTSUP
 * and *why where only depmod can say.
 */
static int write_indexes(const struct cut_plan *p, struct kset *k, char **why)
{
	size_t dl = strlen(p->kern.moddir), n = k->n, nmods = 0;
	struct depmod_module *mods = xcalloc(n + 1, sizeof(*mods));
	struct depmod_in in = { .mods = mods };
	struct depmod_out out;
	mode_t um = umask(0);
	int rc;

	/* depmod creates its files 0644 less the umask */
	umask(um);
	/* another kmod's depmod may write other bytes: said once, whatever -v */
	if (depmod_host_layout(&in.layout, &in.comp, why)) {
		warn("%s", *why);
		free(mods);
		return -ENOTSUP;
	}
	*why = depmod_configured();
	if (*why) {
		char *conf = *why;

		*why = xasprintf("%s configures depmod", conf);
		free(conf);
		free(mods);
		return -ENOTSUP;
	}
	for (size_t i = 0; i < n; i++) {
		const struct kfile *f = &k->v[i];
		const char *rel;

		if (!f->src || strncmp(f->src, p->kern.moddir, dl) || f->src[dl] != '/')
			continue;	/* firmware */
		rel = f->src + dl + 1;
		if (!strcmp(rel, "modules.order")) {
			in.order = f->data;
			in.order_len = f->len;
		} else if (!strcmp(rel, "modules.builtin")) {
			in.builtin = f->data;
			in.builtin_len = f->len;
		} else if (!strcmp(rel, "modules.builtin.modinfo")) {
			in.builtin_modinfo = f->data;
			in.builtin_modinfo_len = f->len;
		} else if (!is_copied(rel)) {
			if (!f->elf) {
				*why = xstrdup(f->elf_why ? f->elf_why : "a module was not read");
				free(mods);
				return -ENOTSUP;
			}
			mods[nmods++] = (struct depmod_module){ rel, f->elf, f->elf_len };
		}
	}
	in.n = nmods;
	rc = depmod_compute(&in, &out, why);
	for (size_t i = 0; i < out.n && !rc; i++)
		kset_add_mem(k, xasprintf("%s/modules/%s/%s", lib_dir(p), p->kern.release, out.f[i].name),
			     &out.f[i].data, 0644 & ~um);
	depmod_out_free(&out);
	free(mods);
	return rc;
}

/*
 * depmod -a -b STAGE REL over symlinks to the files of the module
 * directory (as dracut runs it on its copies); its output joins k.
 */
static int run_depmod_stage(const struct cut_plan *p, const struct cut_work *w, struct kset *k,
			    char **err)
{
	char *stage = cut_work_path(w, "kmods");
	char *top = xasprintf("%s/lib/modules/%s", stage, p->kern.release);
	size_t dl = strlen(p->kern.moddir), n = k->n;
	struct strv out = STRV_INIT;
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		const char *src = k->v[i].src;
		char *link;

		if (strncmp(src, p->kern.moddir, dl) || src[dl] != '/')
			continue;	/* firmware */
		link = xasprintf("%s%s", top, src + dl);
		rc = mkparents(link);
		if (!rc && symlink(src, link) < 0)
			rc = -errno;
		if (rc)
			*err = xasprintf("%s: %s", link, strerror(-rc));
		free(link);
	}
	if (!rc)
		rc = run_depmod(p, stage, err);
	/* what depmod wrote: the regular files at the top (the inputs are symlinks) */
	if (!rc)
		strv_list_dir(&out, top, "");
	for (size_t i = 0; i < out.n && !rc; i++) {
		char *f = xasprintf("%s/%s", top, out.v[i]);
		struct stat st;

		if (lstat(f, &st) == 0 && S_ISREG(st.st_mode))
			rc = kset_add(k, xasprintf("%s/modules/%s/%s", lib_dir(p), p->kern.release,
						   out.v[i]), f, 0, NULL, NULL, err);
		else
			free(f);
	}
	strv_free(&out);
	free(top);
	free(stage);
	return rc;
}

/*
 * depmod's files for the layer: written here when that is sure to give
 * depmod's bytes, else by depmod on a stage (saying why with -v).
 */
static int add_depmod(const struct cut_plan *p, const struct cut_work *w, struct kset *k, char **err)
{
	char *why = NULL;
	int rc = write_indexes(p, k, &why);

	if (rc == -ENOTSUP) {
		cut_progress("modules layer: depmod runs: %s", why);
		rc = run_depmod_stage(p, w, k, err);
	}
	free(why);
	return rc;
}

/*
 * The content key: what the layer's bytes are made of, each file's name,
 * mode and XXH64 (depmod's output is a function of them, and of depmod or
 * of depmod.c's rules). The first layer's covers the on-demand modules
 * too (its modules.dep names them), marked; the second's only them.
 */
static void content_key(const struct cut_plan *p, struct kset *k, int ondemand, char key[65])
{
	char *depmod = find_in_path("depmod");
	struct sha256 s;

	qsort(k->v, k->n, sizeof(*k->v), kfile_cmp);
	sha256_init(&s);
	if (ondemand)
		sha256_update(&s, CACHE_FORMAT " kmods ondemand",
			      sizeof(CACHE_FORMAT " kmods ondemand"));
	else
		sha256_update(&s, CACHE_FORMAT " kmods content", sizeof(CACHE_FORMAT " kmods content"));
	sha256_update(&s, p->kern.release, strlen(p->kern.release) + 1);
	cut_key_stat(&s, depmod ? depmod : "(depmod not found)");
	/* depmod's files come from depmod.c where it is sure, else from depmod */
	sha256_update(&s, DEPMOD_WRITER, sizeof(DEPMOD_WRITER));
	for (size_t i = 0; i < k->n; i++) {
		char line[64];

		if (ondemand && !k->v[i].ondemand)
			continue;
		snprintf(line, sizeof(line), "%o %llu %016llx%s", (unsigned int)k->v[i].mode,
			 (unsigned long long)k->v[i].len, (unsigned long long)k->v[i].xxh,
			 k->v[i].ondemand ? " ondemand" : "");
		sha256_update(&s, k->v[i].name, strlen(k->v[i].name) + 1);
		sha256_update(&s, line, strlen(line) + 1);
	}
	free(depmod);
	sha256_hex(&s, key);
}

/* The layer (the second: ondemand): the directories above each file, then the file, in name order. */
static int kmods_write(struct kset *k, int ondemand, int fd, struct xxh64 *x)
{
	static struct cpio_writer w;
	struct strv dirs = STRV_INIT;

	qsort(k->v, k->n, sizeof(*k->v), kfile_cmp);
	cpio_init(&w, fd);
	w.hash = x;
	for (size_t i = 0; i < k->n; i++) {
		/* mtime 0: the entry is found by content, whatever the files' times */
		struct cpio_hdr h = { .mode = S_IFREG | k->v[i].mode };
		char *name;

		if (k->v[i].ondemand != ondemand)
			continue;
		name = xstrdup(k->v[i].name);
		for (char *s = strchr(name, '/'); s; s = strchr(s + 1, '/')) {
			*s = '\0';
			if (!strv_contains(&dirs, name)) {
				strv_push(&dirs, name);
				cpio_add_dir(&w, name, 0755);
			}
			*s = '/';
		}
		free(name);
		cpio_add(&w, k->v[i].name, &h, k->v[i].data, k->v[i].len);
	}
	strv_free(&dirs);
	return cpio_finish(&w);
}

static char *alias_path(const struct cut_cache *c, const char *stat_key)
{
	return c->dir ? xasprintf("%s/kmods/%s", c->dir, stat_key) : NULL;
}

static int is_key(const char *s)
{
	return strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}

/*
 * kmods/STATKEY: the content key, "ondemand KEY" for a second layer, then
 * a dep line for each host file read. 1 and the layers found in the cache
 * when they all hold.
 */
static int alias_lookup(struct cut_cache *c, const char *stat_key, struct cut_layer ly[2])
{
	char *path = alias_path(c, stat_key), *text = NULL, *save = NULL, *line;
	struct cut_meta m = { 0 };
	int hit = 0;

	if (!path || read_file(path, &text, NULL)) {
		free(path);
		return 0;
	}
	line = strtok_r(text, "\n", &save);
	if (line && is_key(line)) {
		memcpy(ly[0].key, line, 65);
		while ((line = strtok_r(NULL, "\n", &save)))
			if (!strncmp(line, "dep ", 4))
				strv_push(&m.deps, line);
			else if (!strncmp(line, "ondemand ", 9) && is_key(line + 9))
				memcpy(ly[1].key, line + 9, 65);
		ly[1].kind = ly[1].key[0] ? "ondemand" : NULL;
		hit = cut_deps_hold(&m) && cut_cache_lookup(c, &ly[0]) &&
		      (!ly[1].kind || cut_cache_lookup(c, &ly[1]));
	}
	strv_free(&m.deps);
	free(text);
	free(path);
	return hit;
}

/* Best effort: a later cut reads the modules again if this fails. */
static void alias_store(struct cut_cache *c, const char *stat_key, const struct cut_layer ly[2],
			const struct kset *k)
{
	char *path = alias_path(c, stat_key), *text = NULL;
	size_t len;
	FILE *f;
	int rc;

	if (!path || !ly[0].cached || (ly[1].kind && !ly[1].cached))
		goto out;
	f = open_memstream(&text, &len);
	if (!f)
		die_errno("open_memstream");
	fprintf(f, "%s\n", ly[0].key);
	if (ly[1].kind)
		fprintf(f, "ondemand %s\n", ly[1].key);
	for (size_t i = 0; i < k->n; i++)
		if (k->v[i].host)
			cut_dep_note(f, k->v[i].src);
	if (fclose(f))
		die_errno("fclose(open_memstream) for %s", path);
	/* best effort: without it the next cut reads every module again */
	rc = write_file_atomic(path, text, len, 0644);
	if (rc)
		warn_err(rc, "%s (the next cut reads the modules again)", path);
out:
	free(text);
	free(path);
}

/* Write one of the two layers (ondemand: the second) into the cache or w. */
static int kmods_store(struct cut_cache *c, const struct cut_work *w, struct kset *k, int ondemand,
		       struct cut_layer *ly, char **err)
{
	struct cut_sink out = { .path = NULL };
	int rc = 0;

	for (int attempt = 0; ; attempt++) {
		cut_sink_open(&out, c, attempt == 0, w, ly->kind);
		rc = cut_sink_close(&out, kmods_write(k, ondemand, out.fd, &out.x));
		if (cut_sink_retry(c, &out, &rc, 1))
			continue;
		if (rc) {
			*err = xasprintf("writing %s: %s", out.path, strerror(-rc));
			break;
		}
		ly->deps = NULL;	/* the key is the content: the stat key's alias has the dep lines */
		cut_sink_keep(&out, c, ly);
		break;
	}
	free(out.path);
	return rc;
}

int cut_kmods_layer(struct cut_cache *c, const struct cut_plan *p, const struct cut_work *w,
		    struct cut_layer ly[2], char **err)
{
	struct kset k = { NULL, 0, 0, ARENA_INIT };
	double start = cut_progress_secs();
	char stat_key[65], *size;
	size_t nod = 0;
	int rc, have[2] = { 0, 0 };

	*err = NULL;
	cut_kmods_key(p, &ly[0]);
	memcpy(stat_key, ly[0].key, sizeof(stat_key));
	if (alias_lookup(c, stat_key, ly)) {
		if (ly[1].kind)
			ly[1].desc = xasprintf("kernel %s: the modules that only some boots load",
					       p->kern.release);
		size = cut_mib(ly[0].size + (ly[1].kind ? ly[1].size : 0));
		cut_progress("modules layer%s: in the cache (%s)", ly[1].kind ? "s" : "", size);
		free(size);
		return 0;
	}
	rc = collect(p, w, &k, err);
	for (size_t i = 0; i < k.n; i++)
		nod += k.v[i].ondemand;
	ly[1].kind = nod ? "ondemand" : NULL;
	if (nod)
		ly[1].desc = xasprintf("kernel %s: the modules that only some boots load (%zu)",
				       p->kern.release, nod);
	if (!rc) {
		for (int i = 0; i < 2; i++)
			if (ly[i].kind) {
				content_key(p, &k, i, ly[i].key);
				have[i] = cut_cache_lookup(c, &ly[i]);
			}
		if (have[0] && (have[1] || !ly[1].kind)) {
			alias_store(c, stat_key, ly, &k);
			size = cut_mib(ly[0].size + (ly[1].kind ? ly[1].size : 0));
			cut_progress("modules layer%s: in the cache (%s, the same files as before)",
				     ly[1].kind ? "s" : "", size);
			free(size);
			kset_free(&k);
			return 0;
		}
		if (!have[0])
			rc = add_depmod(p, w, &k, err);
	}
	for (int i = 0; i < 2 && !rc; i++)
		if (ly[i].kind && !have[i])
			rc = kmods_store(c, w, &k, i, &ly[i], err);
	if (!rc) {
		alias_store(c, stat_key, ly, &k);
		size = cut_mib(ly[0].size + (ly[1].kind ? ly[1].size : 0));
		cut_progress("modules layer%s: %zu files (%s) in %.2f s%s", ly[1].kind ? "s" : "", k.n,
			     size, cut_progress_secs() - start,
			     ly[0].cached ? ", stored in the cache" : "");
		free(size);
	}
	kset_free(&k);
	return rc;
}
