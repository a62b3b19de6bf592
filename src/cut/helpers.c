// SPDX-License-Identifier: GPL-2.0
/*
 * helpers.c: /init and the profile's helpers (build/guest/rapido-NAME,
 * static programs) as a layer of their own, cached under their paths and
 * stat. They change with a make, not with a re-cut, and were most of the
 * bytes a re-cut wrote when they were part of the tail (about 1 MiB each,
 * written twice: into the tail's memfd, then into the image file).
 *
 * The busybox layer is built the same way: the host's static busybox in
 * GUEST_BUSYBOX_DIR with a symbolic link per applet, a directory of its own that
 * the guest puts at the end of the shell's PATH (tools/init) and takes off
 * a suite harness's (autorun/lib/rapido.sh), so a real program of the
 * image always wins. Its bytes depend on the busybox binary alone: one
 * cached layer per busybox, whatever the profile.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpio.h"
#include "err.h"
#include "guestpath.h"
#include "io.h"
#include "layer.h"
#include "run.h"
#include "strv.h"

/*
 * The helper that the one at path is a link to, when it is a link to
 * another helper of the plan in its own directory (make's
 * build/guest/rapido-ktap -> rapido-init: the Makefile's INIT_TOOLS, one
 * program run by the name it is started under): that one's index, else
 * -1 (a file, or a link elsewhere, written as the file it reaches).
 */
static long helper_link(const struct cut_plan *p, const char *path)
{
	const char *base = strrchr(path, '/') + 1;
	char target[256];
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	if (n <= 0)
		return -1;
	target[n] = '\0';
	if (strchr(target, '/'))
		return -1;
	for (size_t i = 0; i < p->helpers.n; i++) {
		const char *h = p->helpers.v[i], *hbase = strrchr(h, '/') + 1;

		if (h != path && hbase - h == base - path && !strncmp(h, path, (size_t)(base - path)) &&
		    !strcmp(hbase, target))
			return (long)i;
	}
	return -1;
}

/* where the helper at path goes in the image: rapido-init is /init, the others in /usr/bin */
static char *helper_name(const char *path)
{
	const char *base = strrchr(path, '/') + 1;

	return strcmp(base, "rapido-init") ? xasprintf("usr/bin/%s", base) : xstrdup("init");
}

static void helpers_key(const struct cut_plan *p, struct cut_layer *ly)
{
	struct sha256 s;

	sha256_init(&s);
	sha256_update(&s, CACHE_FORMAT " helpers", sizeof(CACHE_FORMAT " helpers"));
	for (size_t i = 0; i < p->helpers.n; i++) {
		long to = helper_link(p, p->helpers.v[i]);

		cut_key_stat(&s, p->helpers.v[i]);
		/* a link is written as one: which helper it names is part of the bytes */
		sha256_update(&s, &to, sizeof(to));
	}
	ly->kind = "helpers";
	ly->desc = xasprintf("/init and %zu helper%s", p->helpers.n - 1, p->helpers.n == 2 ? "" : "s");
	sha256_hex(&s, ly->key);
}

/* dir and each directory above it, parents first, as mkdir -p makes them */
static void add_dirs(struct cpio_writer *w, const char *dir)
{
	for (const char *d = dir; (d = strchr(d, '/')); d++) {
		char *parent = xstrndup(dir, (size_t)(d - dir));

		cpio_add_dir(w, parent, 0755);
		free(parent);
	}
	cpio_add_dir(w, dir, 0755);
}

/*
 * The host's static program at path as the archive's name, mode 0755; what
 * names it in *err ("helper ", or "" for busybox). A helper is make's: a
 * missing one wants a make, one that changes while read is being rebuilt.
 * Opened as a regular file only: a FIFO or a device put in its place is
 * refused, never read.
 */
int cut_add_program(struct cpio_writer *w, const char *name, const char *path, const char *what,
		    int from_make, char **err)
{
	struct cpio_hdr hdr = { .mode = S_IFREG | 0755 };
	struct stat st;
	int in = open_regular(path, 0, &st), rc;

	if (in < 0) {
		*err = xasprintf("%s%s: %s%s", what, path,
				 in == -ENOTREG ? "not a regular file" : strerror(-in),
				 from_make ? " (run make)" : "");
		return in == -ENOTREG ? in : -ENOENT;
	}
	rc = cpio_add_fd(w, name, &hdr, in, (uint64_t)st.st_size);
	close(in);
	if (rc == -ESTALE)
		*err = xasprintf("%s%s: changed while being read%s", what, path,
				 from_make ? " (make running?)" : "");
	else if (rc)
		*err = xasprintf("%s%s: %s", what, path, strerror(-rc));
	return rc;
}

/*
 * /init and /usr/bin/rapido-NAME: static programs, no libraries to
 * resolve. A helper that make built as a link to another (rapido-ktap and
 * rapido-exec to rapido-init) is a symbolic link to that one's name here,
 * relative (../../init), so the image holds the program once.
 */
static int helpers_write(const struct cut_plan *p, int fd, struct xxh64 *x, char **err)
{
	static struct cpio_writer w;
	const struct cpio_hdr link = { .mode = S_IFLNK | 0777 };

	cpio_init(&w, fd);
	w.hash = x;
	add_dirs(&w, "usr/bin");
	for (size_t i = 0; i < p->helpers.n; i++) {
		const char *h = p->helpers.v[i];
		char *name = helper_name(h);
		long to = helper_link(p, h);
		int rc = 0;

		if (to >= 0) {
			char *target = helper_name(p->helpers.v[to]);
			/* every helper's name is init or usr/bin/BASE: relative to name's directory */
			char *text = !strcmp(name, "init") ? xstrdup(target) :
				     !strcmp(target, "init") ? xstrdup("../../init") :
				     xstrdup(strrchr(target, '/') + 1);

			cpio_add(&w, name, &link, text, strlen(text));
			free(text);
			free(target);
		} else {
			rc = cut_add_program(&w, name, h, "helper ", 1, err);
		}
		free(name);
		if (rc)
			return rc;
	}
	return cpio_finish(&w);
}

static char *helpers_holds(const struct cut_plan *p)
{
	return xasprintf("%zu files", p->helpers.n);
}

/* What one of ./cut's own layers is: its key, and how its archive is written. */
struct own_layer {
	const char *kind;
	void (*key)(const struct cut_plan *p, struct cut_layer *ly);
	int (*write)(const struct cut_plan *p, int fd, struct xxh64 *x, char **err);
	/* what the progress line says it holds (malloc'd); NULL: its description */
	char *(*holds)(const struct cut_plan *p);
};

/* Find the layer in the cache, or write it (into the cache, else the work directory). */
static int own_layer_get(const struct own_layer *o, struct cut_cache *c, const struct cut_plan *p,
			 const struct cut_work *w, struct cut_layer *ly, char **err)
{
	struct cut_sink out = { .path = NULL };
	char *size, *holds;
	int rc = 0;

	*err = NULL;
	o->key(p, ly);
	if (cut_cache_lookup(c, ly)) {
		size = cut_mib(ly->size);
		cut_progress("%s layer: in the cache (%s)", o->kind, size);
		free(size);
		return 0;
	}
	for (int attempt = 0; ; attempt++) {
		cut_sink_open(&out, c, attempt == 0, w, o->kind);
		rc = cut_sink_close(&out, o->write(p, out.fd, &out.x, err));
		if (!*err && cut_sink_retry(c, &out, &rc, 1)) {
			rc = 0;
			continue;
		}
		if (rc) {
			if (!*err)
				*err = xasprintf("writing %s: %s", out.path, strerror(-rc));
			break;
		}
		cut_sink_keep(&out, c, ly);
		size = cut_mib(ly->size);
		holds = o->holds ? o->holds(p) : xstrdup(ly->desc);
		cut_progress("%s layer: %s (%s)%s", o->kind, holds, size,
			     ly->cached ? ", stored in the cache" : "");
		free(holds);
		free(size);
		break;
	}
	free(out.path);
	return rc;
}

int cut_helpers_layer(struct cut_cache *c, const struct cut_plan *p, const struct cut_work *w,
		      struct cut_layer *ly, char **err)
{
	static const struct own_layer helpers = { "helpers", helpers_key, helpers_write, helpers_holds };

	return own_layer_get(&helpers, c, p, w, ly, err);
}

static void busybox_key(const struct cut_plan *p, struct cut_layer *ly)
{
	struct sha256 s;

	sha256_init(&s);
	sha256_update(&s, CACHE_FORMAT " busybox", sizeof(CACHE_FORMAT " busybox"));
	sha256_update(&s, GUEST_BUSYBOX_DIR, sizeof(GUEST_BUSYBOX_DIR));
	cut_key_stat(&s, p->busybox);
	ly->kind = "busybox";
	ly->desc = xasprintf("%s's applets in %s", p->busybox, GUEST_BUSYBOX_DIR);
	sha256_hex(&s, ly->key);
}

/*
 * Applets left out: the image's /init is rapido-init, and the power-off
 * commands are the guest library's, which end the run through the init
 * with the shell's status (autorun/lib/rapido.sh); busybox's own would
 * signal PID 1, which is the fallback for programs run outside bash.
 */
int cut_busybox_applet_linked(const char *name)
{
	static const char *const skip[] = { "busybox", "init", "linuxrc" };

	if (!*name || strchr(name, '/') || name[0] == '.')
		return 0;
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(name, skip[i]))
			return 0;
	return 1;
}

static int busybox_write(const struct cut_plan *p, int fd, struct xxh64 *x, char **err)
{
	static struct cpio_writer w;
	char *argv[] = { p->busybox, "--list", NULL }, *list = NULL, *save = NULL, *name;
	struct cpio_hdr link = { .mode = S_IFLNK | 0777 };
	const char *dir = &GUEST_BUSYBOX_DIR[1];	/* no leading slash in an archive */
	int rc, st_rc;
	unsigned int n = 0;

	st_rc = run_capture(argv, -1, 30, &list);
	if (st_rc < 0 || !WIFEXITED(st_rc) || WEXITSTATUS(st_rc)) {
		*err = xasprintf("%s --list: %s", p->busybox, st_rc < 0 ? strerror(-st_rc) :
				 "failed (is it a busybox?)");
		free(list);
		return -EINVAL;
	}
	cpio_init(&w, fd);
	w.hash = x;
	add_dirs(&w, dir);
	name = xasprintf("%s/busybox", dir);
	rc = cut_add_program(&w, name, p->busybox, "", 0, err);
	free(name);
	for (char *a = strtok_r(list, "\n", &save); !rc && a; a = strtok_r(NULL, "\n", &save)) {
		if (!cut_busybox_applet_linked(a))
			continue;
		name = xasprintf("%s/%s", dir, a);
		cpio_add(&w, name, &link, "busybox", strlen("busybox"));
		free(name);
		n++;
	}
	free(list);
	if (rc)
		return rc;
	if (!n) {
		*err = xasprintf("%s --list: no applets", p->busybox);
		return -EINVAL;
	}
	return cpio_finish(&w);
}

int cut_busybox_layer(struct cut_cache *c, const struct cut_plan *p, const struct cut_work *w,
		      struct cut_layer *ly, char **err)
{
	static const struct own_layer busybox = { "busybox", busybox_key, busybox_write, NULL };

	return own_layer_get(&busybox, c, p, w, ly, err);
}
