// SPDX-License-Identifier: GPL-2.0
/*
 * cache.c: the store of cached layers (docs/CACHE.md): lookup with the
 * checks that make a hit safe, atomic insert, per-key build locks, least
 * recently used eviction down to CUT_CACHE_SIZE, and --cache-info.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "confget.h"
#include "err.h"
#include "io.h"
#include "layer.h"
#include "layers.h"
#include "rapido.h"
#include "size.h"

/* A record (KEY.meta) is a few lines, one per library and host file it holds. */
#define RECORD_MAX (16 << 20)

/* Temporaries of this cut in the cache (its tmp/), removed at exit. */
static struct strv tmps;

void cut_tmp_add(const char *path)
{
	strv_push(&tmps, path);
}

void cut_tmp_forget(const char *path)
{
	for (size_t i = 0; i < tmps.n; i++)
		if (tmps.v[i][0] && !strcmp(tmps.v[i], path))
			tmps.v[i][0] = '\0';
}

/* Called from exit and signal paths: unlink/rmdir only, newest first (files before their dir). */
void cut_tmp_cleanup(void)
{
	for (size_t i = tmps.n; i-- > 0;) {
		if (!tmps.v[i][0])
			continue;
		if (unlink(tmps.v[i]) < 0 && (errno == EISDIR || errno == EPERM))
			rmdir(tmps.v[i]);
		tmps.v[i][0] = '\0';
	}
}

/* '%XX' for blanks, '%' and controls: paths stay one word on a meta line. */
static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c == '%' || c == 0x7f)
			fprintf(f, "%%%02X", c);
		else
			fputc(c, f);
	}
}

static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		unsigned int c;

		if (*s == '%' && sscanf(s + 1, "%2x", &c) == 1) {
			*d++ = (char)c;
			s += 2;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

char *cut_stat_sig(const char *path, int with_ctime)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return NULL;
	if (with_ctime)
		return img_stat_sig(&st);
	return xasprintf("%llu %lld %lld.%09ld", (unsigned long long)st.st_ino,
			 (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

void cut_key_stat(struct sha256 *s, const char *path)
{
	char *sig = cut_stat_sig(path, 0);

	sha256_update(s, path, strlen(path) + 1);
	sha256_update(s, sig ? sig : "absent", strlen(sig ? sig : "absent") + 1);
	free(sig);
}

void cut_dep_note(FILE *f, const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return;		/* made by dracut (ld.so.cache's siblings), not copied */
	if (S_ISLNK(st.st_mode)) {
		char target[4096];
		ssize_t n = readlink(path, target, sizeof(target) - 1);

		if (n < 0)
			return;
		target[n] = '\0';
		fputs("dep l ", f);
		put_escaped(f, path);
		fputc(' ', f);
		put_escaped(f, target);
		fputc('\n', f);
		return;
	}
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	fprintf(f, "dep f %lld %lld.%09ld %llu %llu ", (long long)st.st_size,
		(long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, (unsigned long long)st.st_ino,
		(unsigned long long)st.st_dev);
	put_escaped(f, path);
	fputc('\n', f);
}

/* Does the host file still match a "dep" line's record? */
static int dep_holds(char *line)
{
	char kind, *path, *rest;
	struct stat st;

	kind = line[4];
	path = line + 6;
	rest = strchr(path, ' ');
	if (kind == 'l') {
		char target[4096];
		ssize_t n;

		if (!rest)
			return 0;
		*rest++ = '\0';
		unescape(path);
		unescape(rest);
		n = readlink(path, target, sizeof(target) - 1);
		if (n < 0)
			return 0;
		target[n] = '\0';
		return !strcmp(target, rest);
	}
	if (kind == 'f') {
		long long size, sec;
		long nsec;
		unsigned long long ino, dev;
		int off = 0;

		if (sscanf(path, "%lld %lld.%ld %llu %llu %n", &size, &sec, &nsec, &ino, &dev, &off) != 5 ||
		    !off)
			return 0;
		path += off;
		unescape(path);
		return stat(path, &st) == 0 && st.st_size == size && st.st_mtim.tv_sec == sec &&
		       st.st_mtim.tv_nsec == nsec && st.st_ino == ino && st.st_dev == dev;
	}
	return 0;
}

static char *entry_path(const struct cut_cache *c, const char *key, const char *ext)
{
	return xasprintf("%s/layers/%s.%s", c->dir, key, ext);
}

static int mkdir_p(const char *path)
{
	char *p = xstrdup(path);
	int rc = 0;

	for (char *s = p + 1; ; s++) {
		if (*s == '/' || !*s) {
			char save = *s;

			*s = '\0';
			if (mkdir(p, 0755) < 0 && errno != EEXIST) {
				rc = -errno;
				break;
			}
			*s = save;
			if (!save)
				break;
		}
	}
	free(p);
	return rc;
}

static uint64_t cap_or_die(const struct conf *conf)
{
	uint64_t cap = 0;
	char *err;

	if (conf_size(conf, "CUT_CACHE_SIZE", &cap, NULL, &err) < 0)
		die("%s", err);
	return cap;
}

static char *cache_dir(const struct conf *conf)
{
	const char *v = conf_str(conf, "CUT_CACHE_DIR", NULL);

	if (v)
		return xstrdup(v);
	v = getenv("XDG_CACHE_HOME");
	if (v && v[0] == '/')
		return xasprintf("%s/rapido", v);
	v = getenv("HOME");
	if (v && v[0] == '/')
		return xasprintf("%s/.cache/rapido", v);
	return NULL;
}

void cut_cache_open(struct cut_cache *c, const struct conf *conf, int no_cache)
{
	static const char *const subdirs[] = { "layers", "tmp", "locks", "ldlist" };
	char *lock;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	c->lock_fd = -1;
	c->cap = cap_or_die(conf);
	if (no_cache || !c->cap)
		return;
	c->dir = cache_dir(conf);
	if (!c->dir) {
		warn("no cache: CUT_CACHE_DIR, XDG_CACHE_HOME and HOME are unset; the image is standalone");
		return;
	}
	if (c->dir[0] != '/' || strchr(c->dir, '\n')) {
		warn("CUT_CACHE_DIR '%s': expected an absolute path without newlines; no cache used",
		     c->dir);
		free(c->dir);
		c->dir = NULL;
		return;
	}
	for (size_t i = 0; i < sizeof(subdirs) / sizeof(subdirs[0]) && !rc; i++) {
		char *d = xasprintf("%s/%s", c->dir, subdirs[i]);

		rc = mkdir_p(d);
		free(d);
	}
	lock = xasprintf("%s/lock", c->dir);
	if (!rc) {
		c->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (c->lock_fd < 0)
			rc = -errno;
	}
	while (!rc && flock(c->lock_fd, LOCK_SH) < 0)
		if (errno != EINTR)
			rc = -errno;
	free(lock);
	if (rc) {
		cut_cache_give_up(c, rc, "cannot be set up");
		if (c->lock_fd >= 0)
			close(c->lock_fd);
		c->lock_fd = -1;
		free(c->dir);
		c->dir = NULL;
	}
}

void cut_cache_give_up(struct cut_cache *c, int err, const char *what)
{
	if (c->warned)
		return;
	c->warned = 1;
	warn("cache %s %s: %s; this image is written standalone%s", c->dir ? c->dir : "", what,
	     strerror(-err), err == -ENOSPC || err == -EDQUOT ?
	     " (free space there, or lower CUT_CACHE_SIZE)" : "");
}

struct meta {
	char *text;
	const char *kind, *size, *xxh, *sig, *desc, *ldcache;
	struct strv libs;
	struct strv deps;	/* pointers into text, unescaped in place when checked */
};

static int meta_parse(char *text, struct meta *m)
{
	char *save = NULL;
	int first = 1;

	memset(m, 0, sizeof(*m));
	m->text = text;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');

		if (first) {
			if (strcmp(line, CACHE_FORMAT))
				return -EINVAL;
			first = 0;
			continue;
		}
		if (!sp)
			return -EINVAL;
		*sp++ = '\0';
		if (!strcmp(line, "kind"))
			m->kind = sp;
		else if (!strcmp(line, "size"))
			m->size = sp;
		else if (!strcmp(line, "xxh64"))
			m->xxh = sp;
		else if (!strcmp(line, "sig"))
			m->sig = sp;
		else if (!strcmp(line, "desc"))
			m->desc = sp;
		else if (!strcmp(line, "ldcache"))
			m->ldcache = sp;
		else if (!strcmp(line, "lib")) {
			unescape(sp);
			strv_push(&m->libs, sp);
		} else if (!strcmp(line, "dep")) {
			sp[-1] = ' ';
			strv_push(&m->deps, line);
		}
	}
	return m->kind && m->size && m->xxh && m->sig ? 0 : -EINVAL;
}

static void meta_free(struct meta *m)
{
	free(m->text);
	strv_free(&m->libs);
	strv_free(&m->deps);
}

static char *meta_text(const struct cut_layer *ly, const char *sig)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		die_errno("open_memstream");
	fprintf(f, "%s\nkind %s\nsize %" PRIu64 "\nxxh64 %016" PRIx64 "\nsig %s\ndesc %s\n",
		CACHE_FORMAT, ly->kind, ly->size, ly->xxh, sig, ly->desc ? ly->desc : "");
	for (size_t i = 0; i < ly->libs.n; i++) {
		fputs("lib ", f);
		put_escaped(f, ly->libs.v[i]);
		fputc('\n', f);
	}
	if (ly->ldcache)
		fprintf(f, "ldcache %s\n", ly->ldcache);
	if (ly->deps)
		fputs(ly->deps, f);
	if (fclose(f))
		die_errno("open_memstream");
	return text;
}

/* XXH64 of the rest of an open file; 0 or -errno. */
static int hash_fd(int fd, uint64_t *size, uint64_t *out)
{
	static char buf[1 << 20];
	struct xxh64 x;
	ssize_t n;

	xxh64_init(&x, 0);
	*size = 0;
	while ((n = read_full(fd, buf, sizeof(buf))) > 0) {
		xxh64_update(&x, buf, (size_t)n);
		*size += (uint64_t)n;
	}
	if (n < 0)
		return (int)n;
	*out = xxh64_digest(&x);
	return 0;
}

/* Same bytes under a new stat (a copy restored): record it so the next lookup is cheap again. */
static void meta_resign(const char *meta_path, const char *sig)
{
	char *text, *at, *eol, *fixed;
	size_t len;

	if (read_regular_file(meta_path, O_NOFOLLOW, RECORD_MAX, &text, &len, NULL))
		return;
	at = strstr(text, "\nsig ");
	eol = at ? strchr(at + 1, '\n') : NULL;
	if (eol) {
		fixed = xasprintf("%.*s\nsig %s%s", (int)(at - text), text, sig, eol);
		write_file_atomic(meta_path, fixed, strlen(fixed), 0644);	/* best effort */
		free(fixed);
	}
	free(text);
}

/*
 * An entry's file that cannot be used, and why: the cut builds the layer
 * (a FIFO, a directory or a symlink is no file the cache made: replaced,
 * directories included; an unreadable one is tried to be replaced).
 */
static void entry_unusable(const struct cut_layer *ly, const char *path, int err,
			   const struct stat *st)
{
	warn("cached %s layer %s: %s%s: rebuilding it", ly->kind, path, file_strerror(err, st),
	     err == -EACCES ? " (a cache of another user? CUT_CACHE_DIR names the cache)" : "");
}

/* Look KEY up; the caller holds locks/KEY. */
static int lookup_locked(struct cut_cache *c, struct cut_layer *ly)
{
	char *meta_path, *layer_path, *text, *sig = NULL;
	uint64_t want_size, want_xxh;
	struct meta m = { 0 };
	struct stat st;
	int hit = 0, fd = -1, rc;

	meta_path = entry_path(c, ly->key, "meta");
	layer_path = entry_path(c, ly->key, "cpio");
	rc = read_regular_file(meta_path, O_NOFOLLOW, RECORD_MAX, &text, NULL, &st);
	if (rc == -ENOENT)
		goto out;
	if (rc) {
		/* a FIFO there must not block the cut: named, and the entry replaced */
		warn("cache record %s: %s: rebuilding the layer", meta_path, file_strerror(rc, &st));
		img_layer_discard(layer_path);
		goto out;
	}
	if (meta_parse(text, &m) || strcmp(m.kind, ly->kind)) {
		meta_free(&m);
		img_layer_discard(layer_path);
		goto out;
	}
	/* into ly only on a hit: cut_cache_insert looks up with the new layer's in ly */
	want_size = strtoull(m.size, NULL, 10);
	want_xxh = strtoull(m.xxh, NULL, 16);
	fd = open_regular(layer_path, O_NOFOLLOW, &st);
	if (fd == -ENOENT) {
		unlink(meta_path);
		goto done;
	}
	if (fd < 0) {
		entry_unusable(ly, layer_path, fd, &st);
		img_layer_discard(layer_path);
		goto done;
	}
	sig = img_stat_sig(&st);
	if (strcmp(sig, m.sig)) {
		/* written to, restored or replaced since it was stored: only its bytes can tell */
		uint64_t size = 0, xxh = 0;

		rc = hash_fd(fd, &size, &xxh);
		if (rc) {
			entry_unusable(ly, layer_path, rc, &st);
			img_layer_discard(layer_path);
			goto done;
		}
		if (size != want_size || xxh != want_xxh) {
			warn("cached %s layer %s changed since it was stored (checksum differs): "
			     "rebuilding it", ly->kind, layer_path);
			img_layer_discard(layer_path);
			goto done;
		}
	}
	for (size_t i = 0; i < m.deps.n; i++)
		if (!dep_holds(m.deps.v[i]))
			goto done;	/* a host file it holds changed: rebuilt under the same key */
	if (m.ldcache) {
		char *now = cut_stat_sig("/etc/ld.so.cache", 0);
		int same = now && !strcmp(now, m.ldcache);

		free(now);
		if (!same)
			goto done;
	}
	if (strcmp(sig, m.sig))
		meta_resign(meta_path, sig);
	ly->size = want_size;
	ly->xxh = want_xxh;
	strv_free(&ly->libs);
	strv_push_all(&ly->libs, &m.libs);
	free(ly->path);
	ly->path = layer_path;
	layer_path = NULL;
	ly->cached = 1;
	hit = 1;
	utimensat(AT_FDCWD, meta_path, NULL, 0);	/* last use, for eviction */
	strv_push(&c->used, ly->key);
done:
	meta_free(&m);
out:
	if (fd >= 0)
		close(fd);
	free(sig);
	free(meta_path);
	free(layer_path);
	return hit;
}

/*
 * locks/KEY, held only while one cut looks KEY up or stores it: never for
 * the length of a build, so no cut waits on another's dracut (a stopped
 * or hung one would hold every cut of that content). Two cuts that build
 * the same layer at once both build it; the second to store it finds the
 * first's entry and uses that. Returns the locked fd or -errno.
 */
static int key_lock(const struct cut_cache *c, const char *key)
{
	char *path = xasprintf("%s/locks/%s", c->dir, key);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644), rc;

	free(path);
	if (fd < 0)
		return -errno;
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			rc = -errno;
			close(fd);
			return rc;
		}
	}
	return fd;
}

int cut_cache_lookup(struct cut_cache *c, struct cut_layer *ly)
{
	int fd, hit;

	if (!c->dir)
		return 0;
	fd = key_lock(c, ly->key);
	if (fd < 0)
		return 0;	/* built, and stored if the cache can take it */
	hit = lookup_locked(c, ly);
	close(fd);
	return hit;
}

int cut_cache_tmp(struct cut_cache *c, char **path)
{
	char *p = xasprintf("%s/tmp/layer.XXXXXX", c->dir);
	int fd = mkostemp(p, O_CLOEXEC), rc;

	if (fd < 0) {
		rc = -errno;
		free(p);
		return rc;
	}
	cut_tmp_add(p);
	*path = p;
	return fd;
}

int cut_cache_insert(struct cut_cache *c, struct cut_layer *ly, const char *tmp)
{
	char *final, *meta, *sig, *text, *mine;
	int rc = 0, lock = key_lock(c, ly->key);

	if (lock < 0)
		return lock;
	mine = xstrdup(tmp);
	/*
	 * A parallel cut stored the same layer while this one built it: keep
	 * that entry (an image may already name it) and drop this copy.
	 */
	if (lookup_locked(c, ly)) {	/* tmp may be ly->path, which this replaced */
		unlink(mine);
		cut_tmp_forget(mine);
		free(mine);
		close(lock);
		return 0;
	}
	free(mine);
	final = entry_path(c, ly->key, "cpio");
	meta = entry_path(c, ly->key, "meta");
	{
		struct stat st;

		/* rename() replaces a file, a FIFO or a symlink, but no directory */
		if (lstat(final, &st) == 0 && S_ISDIR(st.st_mode)) {
			entry_unusable(ly, final, -ENOTREG, &st);
			img_layer_discard(final);
		}
	}
	/* read-only: nothing writes a layer in place; a change is a new entry */
	if (chmod(tmp, 0444) < 0 || rename(tmp, final) < 0) {
		rc = -errno;
		goto out;
	}
	cut_tmp_forget(tmp);
	free(ly->path);
	ly->path = xstrdup(final);
	sig = cut_stat_sig(final, 1);
	if (!sig) {
		rc = -errno;
		cut_tmp_add(final);
		goto out;
	}
	text = meta_text(ly, sig);
	rc = write_file_atomic(meta, text, strlen(text), 0644);
	free(text);
	free(sig);
	if (rc) {
		/* no record, no entry: this cut still uses the file, then removes it */
		cut_tmp_add(final);
		goto out;
	}
	ly->cached = 1;
	strv_push(&c->used, ly->key);
out:
	close(lock);
	free(final);
	free(meta);
	return rc;
}

struct entry {
	char key[65];
	uint64_t size;
	struct timespec used;
	char *kind, *desc;
};

static int by_use(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

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

/*
 * The entries of the cache, oldest use first. Files that are no entry
 * (a layer without its record, a record without its layer, a temporary of
 * write_file_atomic) are removed when tidy is set.
 */
static struct entry *list_entries(const char *dir, size_t *n, int tidy, int describe)
{
	char *layers = xasprintf("%s/layers", dir);
	struct strv names = STRV_INIT;
	struct entry *v = NULL;

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
				struct meta m;

				v = xrealloc(v, (*n + 1) * sizeof(*v));
				memcpy(v[*n].key, name, 64);
				v[*n].key[64] = '\0';
				v[*n].size = (uint64_t)lst.st_size + (uint64_t)st.st_size;
				v[*n].used = st.st_mtim;
				v[*n].kind = NULL;
				v[*n].desc = NULL;
				if (describe && !read_regular_file(path, O_NOFOLLOW, RECORD_MAX,
								   &text, NULL, NULL)) {
					if (!meta_parse(text, &m)) {
						v[*n].kind = xstrdup(m.kind);
						v[*n].desc = xstrdup(m.desc ? m.desc : "");
					}
					meta_free(&m);
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

static void free_entries(struct entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].kind);
		free(v[i].desc);
	}
	free(v);
}

static void evict(struct cut_cache *c)
{
	size_t n;
	struct entry *v;
	uint64_t total = 0;

	empty_subdir(c->dir, "tmp");
	empty_subdir(c->dir, "locks");
	/* the loader's answers are small, but every ld.so.cache change adds a set */
	if (over_count(c->dir, "ldlist", 4096))
		empty_subdir(c->dir, "ldlist");
	v = list_entries(c->dir, &n, 1, 0);
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
	free_entries(v, n);
}

void cut_cache_close(struct cut_cache *c)
{
	if (c->dir && c->lock_fd >= 0) {
		/* the last cut to finish evicts: no other holds the shared lock then */
		flock(c->lock_fd, LOCK_UN);
		if (flock(c->lock_fd, LOCK_EX | LOCK_NB) == 0)
			evict(c);
		close(c->lock_fd);
	}
	c->lock_fd = -1;
	free(c->dir);
	c->dir = NULL;
	strv_free(&c->used);
}

int cut_cache_info(void)
{
	struct cut_cache c;
	struct conf conf;
	struct entry *v;
	uint64_t total = 0;
	time_t now = time(NULL);
	size_t n;

	rapido_conf_load_or_die(&conf);
	c.cap = cap_or_die(&conf);
	c.dir = cache_dir(&conf);
	if (!c.dir) {
		printf("cache: none (CUT_CACHE_DIR, XDG_CACHE_HOME and HOME are unset)\n");
		conf_free(&conf);
		return 0;
	}
	v = list_entries(c.dir, &n, 0, 1);
	for (size_t i = 0; i < n; i++)
		total += v[i].size;
	printf("cache: %s%s\n", c.dir, c.cap ? "" : " (not used: CUT_CACHE_SIZE=0)");
	printf("size:  %.1f MiB of %.1f MiB (CUT_CACHE_SIZE), %zu layer%s\n", (double)total / 1048576,
	       (double)c.cap / 1048576, n, n == 1 ? "" : "s");
	if (n)
		printf("%-8s %10s %10s  %-12s %s\n", "KIND", "MIB", "USED", "KEY", "WHAT");
	for (size_t i = n; i-- > 0;) {
		long long age = (long long)(now - v[i].used.tv_sec);
		char ago[32];

		if (age < 120)
			snprintf(ago, sizeof(ago), "%llds ago", age);
		else if (age < 7200)
			snprintf(ago, sizeof(ago), "%lldm ago", age / 60);
		else if (age < 172800)
			snprintf(ago, sizeof(ago), "%lldh ago", age / 3600);
		else
			snprintf(ago, sizeof(ago), "%lldd ago", age / 86400);
		printf("%-8s %10.1f %10s  %-12.12s %s\n", v[i].kind ? v[i].kind : "?",
		       (double)v[i].size / 1048576, ago, v[i].key, v[i].desc ? v[i].desc : "?");
	}
	free_entries(v, n);
	free(c.dir);
	conf_free(&conf);
	close_stdout();
	return 0;
}

void cut_layer_free(struct cut_layer *ly)
{
	free(ly->desc);
	free(ly->path);
	strv_free(&ly->libs);
	free(ly->ldcache);
	free(ly->deps);
	memset(ly, 0, sizeof(*ly));
}
