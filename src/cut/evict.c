// SPDX-License-Identifier: GPL-2.0
/*
 * evict.c: the entries of a cache directory, oldest use first, and the
 * eviction of the least recently used ones down to CUT_CACHE_SIZE, run by
 * the last cut to finish (no other cut holds the cache's lock then).
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "layer.h"
#include "layers.h"

static int by_use(const void *a, const void *b)
{
	const struct cut_entry *x = a, *y = b;

	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	if (x->used.tv_nsec != y->used.tv_nsec)
		return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* Remove every file of dir/sub (tmp/, locks/): only while no cut runs. */
static void empty_subdir(const char *dir, const char *sub)
{
	char *path = xasprintf("%s/%s", dir, sub);
	struct strv names = STRV_INIT;

	if (!strv_list_dir(&names, path, ""))
		for (size_t i = 0; i < names.n; i++) {
			char *f;

			if (names.v[i][0] == '.')
				continue;
			f = xasprintf("%s/%s", path, names.v[i]);

			unlink(f);
			free(f);
		}
	strv_free(&names);
	free(path);
}

static int over_count(const char *dir, const char *sub, size_t max)
{
	char *path = xasprintf("%s/%s", dir, sub);
	struct strv names = STRV_INIT;
	int over;

	strv_list_dir(&names, path, "");
	over = names.n > max;
	strv_free(&names);
	free(path);
	return over;
}

static int is_key(const char *s, size_t len)
{
	if (len != 64)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* What a record says of its layer; a bins layer's, what keeps its libs in every boot (build.c). */
static char *entry_desc(const struct cut_meta *m)
{
	const char *d = m->desc ? m->desc : "";

	if (!m->loader)
		return xstrdup(d);
	if (strcmp(m->loader, "none"))
		return xasprintf("%s; %s asks for the loader", d, m->loader);
	return xasprintf("%s; no program asks for the loader", d);
}

struct cut_entry *cut_cache_entries(const char *dir, size_t *n, int tidy, int describe)
{
	char *layers = xasprintf("%s/layers", dir);
	struct strv names = STRV_INIT;
	struct cut_entry *v = NULL;

	*n = 0;
	strv_list_dir(&names, layers, "");
	for (size_t i = 0; i < names.n; i++) {
		const char *name = names.v[i], *dot = strchr(name, '.');
		char *path = xasprintf("%s/%s", layers, name);
		struct stat st, lst;
		char *cpio;

		if (name[0] == '.') {
			free(path);
			continue;
		}

		if (dot && is_key(name, (size_t)(dot - name)) && !strcmp(dot, ".meta") &&
		    stat(path, &st) == 0) {
			cpio = xasprintf("%s/%.64s.cpio", layers, name);
			if (stat(cpio, &lst) == 0) {
				char *text;
				struct cut_meta m;

				v = xrealloc(v, (*n + 1) * sizeof(*v));
				memcpy(v[*n].key, name, 64);
				v[*n].key[64] = '\0';
				v[*n].size = (uint64_t)lst.st_size + (uint64_t)st.st_size;
				v[*n].used = st.st_mtim;
				v[*n].kind = NULL;
				v[*n].desc = NULL;
				if (describe && !read_regular_file(path, O_NOFOLLOW, CUT_META_MAX,
								   &text, NULL, NULL)) {
					if (!cut_meta_parse(text, &m)) {
						v[*n].kind = xstrdup(m.kind);
						v[*n].desc = entry_desc(&m);
					}
					cut_meta_free(&m);
				}
				(*n)++;
			} else if (tidy) {
				unlink(path);
			}
			free(cpio);
		} else if (dot && is_key(name, (size_t)(dot - name)) && !strcmp(dot, ".cpio")) {
			char *meta = xasprintf("%s/%.64s.meta", layers, name);

			if (tidy && access(meta, F_OK) < 0)
				img_layer_discard(path);	/* a directory too */
			free(meta);
		} else if (tidy) {
			unlink(path);
		}
		free(path);
	}
	strv_free(&names);
	free(layers);
	if (*n)
		qsort(v, *n, sizeof(*v), by_use);
	return v;
}

void cut_cache_entries_free(struct cut_entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].kind);
		free(v[i].desc);
	}
	free(v);
}

void cut_cache_evict(struct cut_cache *c)
{
	size_t n;
	struct cut_entry *v;
	uint64_t total = 0;

	empty_subdir(c->dir, "tmp");
	empty_subdir(c->dir, "locks");
	/* the loader's answers are small, but every ld.so.cache change adds a set */
	if (over_count(c->dir, "ldlist", 4096))
		empty_subdir(c->dir, "ldlist");
	/* and every kernel build a way from its modules' stat to their layer (kmods.c) */
	if (over_count(c->dir, "kmods", 4096))
		empty_subdir(c->dir, "kmods");
	v = cut_cache_entries(c->dir, &n, 1, 0);
	for (size_t i = 0; i < n; i++)
		total += v[i].size;
	for (size_t i = 0; i < n && total > c->cap; i++) {
		char *path;

		if (strv_contains(&c->used, v[i].key))
			continue;
		path = xasprintf("%s/layers/%s.cpio", c->dir, v[i].key);
		if (!img_layer_discard(path))
			total -= v[i].size;
		free(path);
	}
	if (total > c->cap)
		warn("cache %s: the layers of this image alone (%" PRIu64 " MiB) exceed CUT_CACHE_SIZE "
		     "(%" PRIu64 " MiB); they stay until another cut needs the room",
		     c->dir, total >> 20, c->cap >> 20);
	cut_cache_entries_free(v, n);
}
