// SPDX-License-Identifier: GPL-2.0
/*
 * cache.c: the store of cached layers (docs/CACHE.md): the cache opened
 * under its shared lock, lookup with the checks that make a hit safe,
 * atomic insert under per-key locks. Its records are meta.c's, their host
 * dependencies hostdep.c's; the last cut to close it evicts (evict.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "layer.h"
#include "layers.h"
#include "tree.h"

static char *entry_path(const struct cut_cache *c, const char *key, const char *ext)
{
	return xasprintf("%s/layers/%s.%s", c->dir, key, ext);
}

void cut_cache_open(struct cut_cache *c, const struct conf *conf, int no_cache)
{
	static const char *const subdirs[] = { "layers", "tmp", "locks", "ldlist", "kmods" };
	char *lock;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	c->lock_fd = -1;
	cut_cache_conf(conf, &c->cap, &c->dir);
	if (no_cache || !c->cap) {
		free(c->dir);
		c->dir = NULL;
		return;
	}
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

		rc = mkdir_p(d, NULL);
		free(d);
	}
	lock = xasprintf("%s/lock", c->dir);
	if (!rc) {
		/* never through a link: its target, wherever, would be made */
		c->lock_fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
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

/*
 * Look KEY up: 1 a hit, 0 a miss. With locked (the caller holds
 * locks/KEY), an entry found broken is named and removed, one restored
 * under a new stat re-signed. Without, nothing is changed: where that
 * would be needed, -1, to look again under the lock.
 */
static int lookup(struct cut_cache *c, struct cut_layer *ly, int locked)
{
	char *meta_path, *layer_path, *text, *sig = NULL;
	uint64_t want_size, want_xxh;
	struct cut_meta m = { 0 };
	struct stat st;
	int hit = 0, fd = -1, rc;

	meta_path = entry_path(c, ly->key, "meta");
	layer_path = entry_path(c, ly->key, "cpio");
	rc = read_regular_file(meta_path, O_NOFOLLOW, CUT_META_MAX, &text, NULL, &st);
	if (rc == -ENOENT)
		goto out;
	if (rc) {
		if (!locked)
			goto unsure;
		/* a FIFO there must not block the cut: named, and the entry replaced */
		warn("cache record %s: %s: rebuilding the layer", meta_path, file_strerror(rc, &st));
		img_layer_discard(layer_path);
		goto out;
	}
	if (cut_meta_parse(text, &m) || strcmp(m.kind, ly->kind)) {
		if (!locked)
			goto unsure;
		cut_meta_free(&m);
		img_layer_discard(layer_path);
		goto out;
	}
	/* into ly only on a hit: cut_cache_insert looks up with the new layer's in ly */
	want_size = strtoull(m.size, NULL, 10);
	want_xxh = strtoull(m.xxh, NULL, 16);
	fd = open_regular(layer_path, O_NOFOLLOW, &st);
	if (fd < 0 && !locked)
		goto unsure;
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
	if (strcmp(sig, m.sig) && !locked)
		goto unsure;
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
	if (!cut_deps_hold(&m))
		goto done;	/* a host file it holds changed: rebuilt under the same key */
	/* same bytes under a new stat (a copy restored): so that the next lookup is cheap again */
	if (strcmp(sig, m.sig))
		cut_meta_resign(meta_path, sig);
	ly->size = want_size;
	ly->xxh = want_xxh;
	strv_free(&ly->libs);
	strv_push_all(&ly->libs, &m.libs);
	free(ly->loader);
	ly->loader = m.loader ? xstrdup(m.loader) : NULL;
	ly->apart = m.apart ? (size_t)strtoull(m.apart, NULL, 10) : 0;
	free(ly->path);
	ly->path = layer_path;
	layer_path = NULL;
	ly->cached = 1;
	hit = 1;
	utimensat(AT_FDCWD, meta_path, NULL, 0);	/* last use, for eviction */
	strv_push(&c->used, ly->key);
	goto done;
unsure:
	hit = -1;	/* the entry needs a repair, which only a lookup under the lock makes */
done:
	cut_meta_free(&m);
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
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644), rc;

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
	/*
	 * An entry that needs no repair is found without the key's lock: a
	 * re-cut with every layer cached then creates no lock file (on ext4,
	 * each a new inode). A layer is renamed into place complete and its
	 * record written after it, so what is read here is either a whole
	 * entry or no hit.
	 */
	hit = lookup(c, ly, 0);
	if (hit >= 0)
		return hit;
	fd = key_lock(c, ly->key);
	if (fd < 0)
		return 0;	/* built, and stored if the cache can take it */
	hit = lookup(c, ly, 1);
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
	if (lookup(c, ly, 1)) {	/* tmp may be ly->path, which this replaced */
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
	text = cut_meta_text(ly, sig);
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

void cut_cache_close(struct cut_cache *c)
{
	if (c->dir && c->lock_fd >= 0) {
		/* the last cut to finish evicts: no other holds the shared lock then */
		flock(c->lock_fd, LOCK_UN);
		if (flock(c->lock_fd, LOCK_EX | LOCK_NB) == 0)
			cut_cache_evict(c);
		close(c->lock_fd);
	}
	c->lock_fd = -1;
	free(c->dir);
	c->dir = NULL;
	strv_free(&c->used);
}

void cut_layer_free(struct cut_layer *ly)
{
	free(ly->desc);
	free(ly->path);
	strv_free(&ly->libs);
	free(ly->ldcache);
	free(ly->deps);
	free(ly->loader);
	free(ly->when);
	memset(ly, 0, sizeof(*ly));
}
