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
 * just these modules, run as dracut runs it, on a directory of symlinks.
 * ./cut --dracut-modules keeps dracut's way (dracut.c).
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

#include "cpio.h"
#include "err.h"
#include "io.h"
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

void cut_kmods_key(const struct cut_plan *p, struct cut_layer *ly)
{
	char *depmod = find_in_path("depmod");
	struct sha256 s;

	sha256_init(&s);
	sha256_update(&s, CACHE_FORMAT " kmods", sizeof(CACHE_FORMAT " kmods"));
	sha256_update(&s, p->kern.release, strlen(p->kern.release) + 1);
	sha256_update(&s, p->kern.moddir, strlen(p->kern.moddir) + 1);
	sha256_update(&s, lib_dir(p), strlen(lib_dir(p)) + 1);
	sha256_update(&s, p->sysroot ? p->sysroot : "", strlen(p->sysroot ? p->sysroot : "") + 1);
	for (size_t i = 0; i < p->modules.n; i++)
		sha256_update(&s, p->modules.v[i], strlen(p->modules.v[i]) + 1);
	sha256_update(&s, "", 1);
	for (size_t i = 0; i < p->extra_modules.n; i++)
		sha256_update(&s, p->extra_modules.v[i], strlen(p->extra_modules.v[i]) + 1);
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

/* The "firmware=" values of a module's .modinfo (an uncompressed ELF of the host's byte order). */
static int elf_firmware(const char *path, struct strv *fw)
{
	char *data;
	size_t len;
	int rc = read_file(path, &data, &len);
	const char *info = NULL;
	size_t ilen = 0;

	if (rc)
		return rc;
	rc = -ENOEXEC;
	if (len >= sizeof(Elf64_Ehdr) && !memcmp(data, ELFMAG, SELFMAG) &&
	    data[EI_CLASS] == ELFCLASS64) {
		const Elf64_Ehdr *eh = (const Elf64_Ehdr *)data;
		const Elf64_Shdr *sh = (const Elf64_Shdr *)(data + eh->e_shoff);

		if (eh->e_shoff < len && eh->e_shstrndx < eh->e_shnum &&
		    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(*sh) <= len &&
		    sh[eh->e_shstrndx].sh_offset < len) {
			const char *names = data + sh[eh->e_shstrndx].sh_offset;
			size_t nlen = len - sh[eh->e_shstrndx].sh_offset;

			rc = 0;
			for (unsigned int i = 0; i < eh->e_shnum; i++)
				if (sh[i].sh_name + sizeof(".modinfo") <= nlen &&
				    !memcmp(names + sh[i].sh_name, ".modinfo", sizeof(".modinfo")) &&
				    sh[i].sh_offset + sh[i].sh_size <= len) {
					info = data + sh[i].sh_offset;
					ilen = sh[i].sh_size;
				}
		}
	}
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
	free(data);
	return rc;
}

/* modinfo -F firmware: for what elf_firmware cannot read (a compressed module). */
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

		if (strpbrk(name, "*?[") && access(path, F_OK) < 0) {
			glob_t g;

			if (!glob(path, 0, NULL, &g))
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

/* One file of the layer: its name in the image and where its bytes are. */
struct kfile {
	char *name;
	char *src;
	int host;	/* a host file: recorded as a dep line */
};

static int kfile_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kfile *)a)->name, ((const struct kfile *)b)->name);
}

struct kset {
	struct kfile *v;
	size_t n, cap;
};

static void kset_add(struct kset *k, char *name, char *src, int host)
{
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 64;
		k->v = xrealloc(k->v, k->cap * sizeof(*k->v));
	}
	k->v[k->n++] = (struct kfile){ name, src, host };
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

/* The files of the layer: modules, firmware, the copied lists and depmod's output. */
static int collect(const struct cut_plan *p, const struct cut_work *w, struct kset *k, char **err)
{
	const char *lib = lib_dir(p);
	char *stage = cut_work_path(w, "kmods"), *top;
	struct moddep d;
	struct strv missing = STRV_INIT, fw = STRV_INIT, fwfiles = STRV_INIT, names = STRV_INIT;
	size_t *order = NULL, norder = 0;
	int rc;

	rc = moddep_read(&d, p->kern.moddir);
	if (rc) {
		*err = xasprintf("%s/modules.dep: %s", p->kern.moddir, strerror(-rc));
		free(stage);
		return rc;
	}
	strv_push_all(&names, &p->modules);
	strv_push_all(&names, &p->extra_modules);
	moddep_walk(&d, (const char *const *)strv_argv(&names), names.n, &order, &norder, &missing);
	if (missing.n) {
		*err = xasprintf("kernel module '%s' is not in %s/modules.dep", missing.v[0],
				 p->kern.moddir);
		rc = -ENOENT;
		goto out;
	}
	top = xasprintf("%s/lib/modules/%s", stage, p->kern.release);
	for (size_t i = 0; i < norder && !rc; i++) {
		const struct moddep_mod *m = &d.v[order[i]];
		char *src = xasprintf("%s/%s", p->kern.moddir, m->path);
		char *link = xasprintf("%s/%s", top, m->path);

		rc = mkparents(link);
		if (!rc && symlink(src, link) < 0)
			rc = -errno;
		if (rc)
			*err = xasprintf("%s: %s", link, strerror(-rc));
		else if (elf_firmware(src, &fw) == -ENOEXEC && modinfo_firmware(src, &fw, w))
			warn("%s: cannot read the firmware it names", src);
		kset_add(k, xasprintf("%s/modules/%s/%s", lib, p->kern.release, m->path), src, 1);
		free(link);
	}
	for (size_t i = 0; i < sizeof(copied) / sizeof(copied[0]) && !rc; i++) {
		char *src = xasprintf("%s/%s", p->kern.moddir, copied[i]);
		char *link = xasprintf("%s/%s", top, copied[i]);

		if (access(src, F_OK) == 0) {
			if (symlink(src, link) < 0) {
				rc = -errno;
				*err = xasprintf("%s: %s", link, strerror(errno));
			}
			kset_add(k, xasprintf("%s/modules/%s/%s", lib, p->kern.release, copied[i]),
				 xstrdup(src), 0);
		}
		free(src);
		free(link);
	}
	if (!rc)
		rc = run_depmod(p, stage, err);
	if (!rc) {
		/* what depmod wrote: the regular files at the top (the inputs are symlinks) */
		struct strv out = STRV_INIT;

		strv_list_dir(&out, top, "");
		for (size_t i = 0; i < out.n; i++) {
			char *f = xasprintf("%s/%s", top, out.v[i]);
			struct stat st;

			if (lstat(f, &st) == 0 && S_ISREG(st.st_mode))
				kset_add(k, xasprintf("%s/modules/%s/%s", lib, p->kern.release, out.v[i]),
					 f, 0);
			else
				free(f);
		}
		strv_free(&out);
	}
	for (size_t i = 0; i < fw.n && !rc; i++)
		find_firmware(p, fw.v[i], &fwfiles);
	for (size_t i = 0; i < fwfiles.n && !rc; i++) {
		const char *f = fwfiles.v[i] + (p->sysroot ? strlen(p->sysroot) : 0);

		/* /lib/firmware/X -> LIB/firmware/X */
		kset_add(k, xasprintf("%s%s", lib, f + 4), xstrdup(fwfiles.v[i]), 1);
	}
	free(top);
out:
	free(order);
	moddep_free(&d);
	strv_free(&missing);
	strv_free(&fw);
	strv_free(&fwfiles);
	strv_free(&names);
	free(stage);
	return rc;
}

/* The layer: the directories above each file, then the file, in name order. */
static int kmods_write(struct kset *k, int fd, struct xxh64 *x, FILE *deps, char **err)
{
	static struct cpio_writer w;
	struct strv dirs = STRV_INIT;
	int rc = 0;

	qsort(k->v, k->n, sizeof(*k->v), kfile_cmp);
	cpio_init(&w, fd);
	w.hash = x;
	for (size_t i = 0; i < k->n && !rc; i++) {
		char *name = xstrdup(k->v[i].name);
		struct stat st;
		int in;

		for (char *s = strchr(name, '/'); s; s = strchr(s + 1, '/')) {
			*s = '\0';
			if (!strv_contains(&dirs, name)) {
				strv_push(&dirs, name);
				cpio_add_dir(&w, name, 0755);
			}
			*s = '/';
		}
		free(name);
		in = open(k->v[i].src, O_RDONLY | O_CLOEXEC);
		if (in < 0 || fstat(in, &st) < 0) {
			rc = -errno;
			*err = xasprintf("%s: %s", k->v[i].src, strerror(errno));
			if (in >= 0)
				close(in);
			break;
		}
		{
			struct cpio_hdr h = { .mode = S_IFREG | (st.st_mode & 07777),
					      .mtime = st.st_mtim.tv_sec < 0 ? 0 : (uint32_t)st.st_mtim.tv_sec };

			if (!k->v[i].host)
				h.mtime = 0;	/* generated or copied lists: same bytes every build */
			rc = cpio_add_fd(&w, k->v[i].name, &h, in, (uint64_t)st.st_size);
		}
		close(in);
		if (rc == -ESTALE)
			*err = xasprintf("%s changed while it was being copied; cut again", k->v[i].src);
		else if (rc)
			*err = xasprintf("%s: %s", k->v[i].src, strerror(-rc));
		if (!rc && k->v[i].host)
			cut_dep_note(deps, k->v[i].src);
	}
	strv_free(&dirs);
	if (!rc) {
		rc = cpio_finish(&w);
		if (rc)
			*err = NULL;	/* the caller names the file it writes */
	}
	return rc;
}

int cut_kmods_layer(struct cut_cache *c, const struct cut_plan *p, const struct cut_work *w,
		    struct cut_layer *ly, char **err)
{
	struct kset k = { NULL, 0, 0 };
	struct cut_sink out = { .path = NULL };
	double start = cut_progress_secs();
	char *size;
	int rc;

	*err = NULL;
	rc = collect(p, w, &k, err);
	for (int attempt = 0; !rc; attempt++) {
		char *dtext = NULL;
		size_t dlen;
		FILE *deps = open_memstream(&dtext, &dlen);

		if (!deps)
			die_errno("open_memstream");
		cut_sink_open(&out, c, attempt == 0, w, "modules");
		rc = cut_sink_close(&out, kmods_write(&k, out.fd, &out.x, deps, err));
		fclose(deps);
		if (!*err && cut_sink_retry(c, &out, &rc, 1)) {
			free(dtext);
			rc = 0;
			continue;
		}
		if (rc) {
			free(dtext);
			if (!*err)
				*err = xasprintf("writing %s: %s", out.path, strerror(-rc));
			break;
		}
		ly->deps = dtext;
		cut_sink_keep(&out, c, ly);
		size = cut_mib(ly->size);
		cut_progress("modules layer: %zu files (%s) in %.2f s%s", k.n, size,
			     cut_progress_secs() - start, ly->cached ? ", stored in the cache" : "");
		free(size);
		break;
	}
	for (size_t i = 0; i < k.n; i++) {
		free(k.v[i].name);
		free(k.v[i].src);
	}
	free(k.v);
	free(out.path);
	return rc;
}
