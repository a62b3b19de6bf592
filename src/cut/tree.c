// SPDX-License-Identifier: GPL-2.0
/*
 * tree.c: the layer of a "#@ files: SRC:/DEST" entry (a built xfstests
 * tree, a spec file): a sorted walk keys it by every entry's path, type,
 * mode, size, mtime and inode; a miss writes SRC's files under DEST with
 * our own cpio writer and finds the host libraries its programs need, once
 * per group of programs that need the same things (see docs/CACHE.md).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpio.h"
#include "elfdyn.h"
#include "err.h"
#include "io.h"
#include "layer.h"
#include "run.h"
#include "treeread.h"

/* A tree this big (its files' bytes) is a step that takes time: progress shows it at once. */
#define SLOW_TREE (8ULL << 20)

static void tree_key(const struct tree *t, const char *dest, struct cut_layer *ly)
{
	struct sha256 s;

	sha256_init(&s);
	sha256_update(&s, CACHE_FORMAT " tree", sizeof(CACHE_FORMAT " tree"));
	sha256_update(&s, dest, strlen(dest) + 1);
	for (size_t i = 0; i < t->n; i++) {
		const struct tree_entry *e = &t->v[i];
		/* fixed-width fields in the host's byte order: the cache is this host's */
		const uint64_t f[5] = { e->st.st_mode, (uint64_t)e->st.st_size,
					(uint64_t)e->st.st_mtim.tv_sec, (uint64_t)e->st.st_mtim.tv_nsec,
					e->st.st_ino };

		sha256_update(&s, e->rel, strlen(e->rel) + 1);
		sha256_update(&s, f, sizeof(f));
		if (e->target)
			sha256_update(&s, e->target, strlen(e->target) + 1);
	}
	sha256_hex(&s, ly->key);
}

static struct cpio_hdr hdr_of(const struct stat *st)
{
	return (struct cpio_hdr){
		.mode = st->st_mode & (S_IFMT | 07777),
		.mtime = st->st_mtim.tv_sec < 0 ? 0 : (uint32_t)st->st_mtim.tv_sec,
	};
}

/* Programs grouped by what they ask the loader for; one representative each. */
struct groups {
	struct strv keys;
	struct strv reps;	/* host path of the first program of each group */
	struct strv interps;
	size_t progs;		/* programs noted */
};

static void group_note(struct groups *g, const char *path, const struct elf_deps *d)
{
	char *key, *dir = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&key, &len);

	if (!f)
		die_errno("open_memstream");
	fprintf(f, "%s\n", d->interp);
	for (size_t i = 0; i < d->needed.n; i++)
		fprintf(f, "%s\n", d->needed.v[i]);
	/* $ORIGIN makes the run path depend on the program's own directory */
	if (d->runpath && strstr(d->runpath, "ORIGIN")) {
		const char *slash = strrchr(path, '/');

		dir = xasprintf("%.*s", (int)(slash - path), path);
	}
	fprintf(f, "%s\n%s\n", d->runpath ? d->runpath : "", dir ? dir : "");
	fclose(f);
	free(dir);
	g->progs++;
	if (!strv_contains(&g->keys, key)) {
		strv_push(&g->keys, key);
		strv_push(&g->reps, path);
		strv_push(&g->interps, d->interp);
	}
	free(key);
}

/* The loader bash uses: the only one ./cut runs in list mode. */
static char *host_loader(void)
{
	char *bash = find_in_path("bash");
	struct elf_deps d;
	char *interp = NULL;

	if (bash && !elf_read_deps_path(bash, &d)) {
		interp = d.interp ? xstrdup(d.interp) : NULL;
		elf_deps_free(&d);
	}
	free(bash);
	return interp;
}

/* Where the loader's answer for a group is kept: it depends on the group, the loader, ld.so.cache. */
static char *ldlist_path(const struct cut_cache *c, const char *group, const char *interp)
{
	const char *llp = getenv("LD_LIBRARY_PATH");
	struct sha256 s;
	char hex[65];

	if (!c->dir)
		return NULL;
	sha256_init(&s);
	sha256_update(&s, CACHE_FORMAT " ldlist", sizeof(CACHE_FORMAT " ldlist"));
	sha256_update(&s, group, strlen(group) + 1);
	cut_key_stat(&s, interp);
	cut_key_stat(&s, "/etc/ld.so.cache");
	sha256_update(&s, llp ? llp : "", strlen(llp ? llp : "") + 1);
	sha256_hex(&s, hex);
	return xasprintf("%s/ldlist/%s", c->dir, hex);
}

/* "INTERP --list PROGRAM" (what ldd prints), run once per group and kept in the cache. */
static char *loader_list(struct cut_cache *c, const char *group, const char *interp, const char *rep)
{
	char *argv[] = { (char *)interp, "--list", (char *)rep, NULL };
	char *kept = ldlist_path(c, group, interp), *text = NULL;
	int out, status;
	size_t len = 0;

	if (kept && !read_file(kept, &text, NULL)) {
		free(kept);
		return text;
	}
	out = memfd_create("rapido-ldlist", MFD_CLOEXEC);
	if (out < 0) {
		warn_errno("memfd_create");
		free(kept);
		return NULL;
	}
	status = run_wait(argv, out);
	if (status >= 0 && lseek(out, 0, SEEK_SET) == 0) {
		struct stat st;

		if (!fstat(out, &st)) {
			text = xmalloc((size_t)st.st_size + 1);
			len = (size_t)read_full(out, text, (size_t)st.st_size);
			text[len < (size_t)st.st_size ? len : (size_t)st.st_size] = '\0';
		}
	}
	close(out);
	if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) || !text) {
		warn("%s --list %s failed: its libraries are not added to the image%s%s", interp, rep,
		     text && *text ? ":\n" : "", text ? text : "");
		free(text);
		free(kept);
		return NULL;
	}
	if (kept)
		write_file_atomic(kept, text, strlen(text), 0644);	/* a later cut asks again if this fails */
	free(kept);
	return text;
}

/* Add the libraries of one group (outside the tree) to libs. */
static void resolve_group(struct cut_cache *c, const char *group, const char *interp, const char *rep,
			  const char *root, struct strv *libs)
{
	char *text = loader_list(c, group, interp, rep);

	if (!text)
		return;
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *arrow = strstr(line, " => "), *path, *sp;

		if (arrow && !strncmp(arrow + 4, "not found", 9)) {
			warn("%s needs%.*s, which the host does not have", rep, (int)(arrow - line), line);
			continue;
		}
		path = arrow ? arrow + 4 : line + strspn(line, " \t");
		if (path[0] != '/')
			continue;	/* the vDSO */
		sp = strstr(path, " (0x");
		if (sp)
			*sp = '\0';
		/* libraries of the tree itself are in its layer already */
		if (!strncmp(path, root, strlen(root)) && path[strlen(root)] == '/')
			continue;
		if (!strv_contains(libs, path))
			strv_push(libs, path);
	}
	free(text);
}

/* Write the tree's layer to fd; programs' needs into groups. */
static int tree_write(const struct tree *t, const char *dest, int fd, struct xxh64 *x,
		      struct groups *g, const char *loader, char **err)
{
	static struct cpio_writer w;
	char *d = xstrdup(dest + 1), *name;
	int rc = 0;

	cpio_init(&w, fd);
	w.hash = x;
	/* DEST's parents, as dracut --include made them */
	for (char *s = strchr(d, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		cpio_add_dir(&w, d, 0755);
		*s = '/';
	}
	for (size_t i = 0; i < t->n && !rc; i++) {
		const struct tree_entry *e = &t->v[i];
		struct cpio_hdr h = hdr_of(&e->st);
		char *host = *e->rel ? xasprintf("%s/%s", t->src, e->rel) : xstrdup(t->src);

		name = *e->rel ? xasprintf("%s/%s", d, e->rel) : xstrdup(d);
		if (S_ISDIR(e->st.st_mode)) {
			cpio_add(&w, name, &h, NULL, 0);
		} else if (S_ISLNK(e->st.st_mode)) {
			cpio_add(&w, name, &h, e->target, strlen(e->target));
		} else {
			struct stat now;
			/* the source itself may be a link: its target is what was listed */
			int in = open_regular(host, *e->rel ? O_NOFOLLOW : 0, &now);

			if (in < 0) {
				rc = in;
				*err = xasprintf("%s: %s", host, file_strerror(in, &now));
			} else {
				struct elf_deps dp;

				if ((e->st.st_mode & 0111) && loader && !elf_read_deps(in, &dp)) {
					if (dp.interp && dp.needed.n && !strcmp(dp.interp, loader))
						group_note(g, host, &dp);
					else if (dp.interp && strcmp(dp.interp, loader))
						warn("%s asks for the loader %s, not this host's %s: its "
						     "libraries are not added to the image", host, dp.interp, loader);
					elf_deps_free(&dp);
				}
				rc = cpio_add_fd(&w, name, &h, in, (uint64_t)e->st.st_size);
				if (rc == -ESTALE)
					*err = xasprintf("%s changed while it was being copied; cut again", host);
				else if (rc)
					*err = xasprintf("%s: %s", host, strerror(-rc));
				close(in);
			}
		}
		free(name);
		free(host);
	}
	free(d);
	if (!rc) {
		rc = cpio_finish(&w);
		if (rc)
			*err = NULL;	/* the caller names the file it writes */
	}
	return rc;
}

int cut_tree_layer(struct cut_cache *c, const char *src, const char *dest,
		   const struct cut_work *w, struct cut_layer *ly, char **err)
{
	struct tree t;
	struct groups g = { STRV_INIT, STRV_INIT, STRV_INIT, 0 };
	struct cut_sink out = { .path = NULL };
	char *loader = NULL, *real_src, *size = NULL;
	uint64_t bytes = 0;
	int rc;

	*err = NULL;
	ly->kind = "tree";
	rc = tree_read(&t, src, err);
	if (rc)
		goto out;
	if (t.skipped)
		warn("%s: %d special file%s (fifo, socket, device) left out of the image", src,
		     t.skipped, t.skipped == 1 ? "" : "s");
	tree_key(&t, dest, ly);
	ly->desc = xasprintf("%s -> %s (%zu entries)", src, dest, t.n);
	if (cut_cache_lookup(c, ly)) {
		size = cut_mib(ly->size);
		cut_progress("tree %s: in the cache (%s)", dest, size);
		goto out;
	}
	for (size_t i = 0; i < t.n; i++)
		if (S_ISREG(t.v[i].st.st_mode))
			bytes += (uint64_t)t.v[i].st.st_size;
	size = cut_mib(bytes);
	/* a big tree takes a while to copy: say so now */
	if (bytes >= SLOW_TREE)
		cut_progress_slow("tree %s: copying %zu entries (%s) from %s", dest, t.n, size, src);
	else
		cut_progress("tree %s: copying %zu entries (%s) from %s", dest, t.n, size, src);
	free(size);
	size = NULL;

	loader = host_loader();
	for (int attempt = 0; ; attempt++) {
		cut_sink_open(&out, c, attempt == 0, w, "tree");
		strv_free(&g.keys);
		strv_free(&g.reps);
		strv_free(&g.interps);
		g.progs = 0;
		rc = cut_sink_close(&out, tree_write(&t, dest, out.fd, &out.x, &g, loader, err));
		/* not when *err says why: reading the tree failed, not writing its layer */
		if (!*err && cut_sink_retry(c, &out, &rc, 1))
			continue;
		if (rc) {
			if (!*err)
				*err = xasprintf("writing %s: %s", out.path, strerror(-rc));
			goto out;
		}
		break;
	}
	real_src = realpath(src, NULL);
	for (size_t i = 0; i < g.reps.n; i++)
		resolve_group(c, g.keys.v[i], g.interps.v[i], g.reps.v[i], real_src ? real_src : src,
			      &ly->libs);
	free(real_src);
	strv_sort(&ly->libs);
	ly->ldcache = cut_stat_sig("/etc/ld.so.cache", 0);
	cut_sink_keep(&out, c, ly);
	size = cut_mib(ly->size);
	if (g.progs)
		cut_progress("tree %s: %s; the libraries of %zu program%s resolved in %zu group%s",
			     dest, size, g.progs, g.progs == 1 ? "" : "s", g.reps.n,
			     g.reps.n == 1 ? "" : "s");
	else
		cut_progress("tree %s: %s", dest, size);
out:
	free(size);
	free(out.path);
	free(loader);
	strv_free(&g.keys);
	strv_free(&g.reps);
	strv_free(&g.interps);
	tree_free(&t);
	return rc;
}
