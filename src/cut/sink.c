// SPDX-License-Identifier: GPL-2.0
/*
 * sink.c: where the bytes of a new layer go, for dracut's layers (build.c)
 * and the trees (tree.c) alike: a temporary in the cache's tmp/, stored
 * into the cache once written; without a cache, or when the cache's disk
 * refuses it (full, read-only, over quota), a file in the work directory
 * that goes with it, and the image is written standalone.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "layer.h"

void cut_sink_open(struct cut_sink *s, struct cut_cache *c, int try_cache,
		   const struct cut_work *w, const char *kind)
{
	s->path = NULL;
	s->fd = -1;
	s->in_cache = 0;
	s->size = 0;
	xxh64_init(&s->x, 0);
	if (try_cache && c->dir) {
		s->fd = cut_cache_tmp(c, &s->path);
		if (s->fd >= 0) {
			s->in_cache = 1;
			return;
		}
		cut_cache_give_up(c, s->fd, "cannot take a new layer");
	}
	s->path = cut_work_file_or_die(w, kind, &s->fd);
}

int cut_sink_close(struct cut_sink *s, int rc)
{
	struct stat st;

	if (!rc) {
		if (fstat(s->fd, &st) < 0)
			rc = -errno;
		else
			s->size = (uint64_t)st.st_size;
	}
	if (close(s->fd) < 0 && !rc)
		rc = -errno;
	s->fd = -1;
	return rc;
}

/* How a disk refuses the cache's files (full; read-only or another's tmp/: EACCES, EPERM). */
static int refused(int rc)
{
	return rc == -ENOSPC || rc == -EDQUOT || rc == -EROFS || rc == -EACCES || rc == -EPERM ||
	       rc == -EFBIG;
}

void cut_sink_drop(struct cut_sink *s)
{
	if (!s->path)
		return;
	unlink(s->path);
	cut_tmp_forget(s->path);
	free(s->path);
	s->path = NULL;
}

int cut_sink_retry(struct cut_cache *c, struct cut_sink *s, const int *rc, size_t n)
{
	int err = 0;

	for (size_t i = 0; i < n && !err; i++)
		if (s[i].path && s[i].in_cache && refused(rc[i]))
			err = rc[i];
	if (!err)
		return 0;
	cut_cache_give_up(c, err, "cannot take a new layer");
	for (size_t i = 0; i < n; i++)
		cut_sink_drop(&s[i]);
	return 1;
}

void cut_sink_keep(struct cut_sink *s, struct cut_cache *c, struct cut_layer *ly)
{
	ly->size = s->size;
	ly->xxh = xxh64_digest(&s->x);
	ly->built = 1;
	free(ly->path);
	ly->path = s->path;
	s->path = NULL;
	if (s->in_cache) {
		/* the store may replace ly->path (a parallel cut's entry) */
		int rc = cut_cache_insert(c, ly, ly->path);

		if (rc)
			cut_cache_give_up(c, rc, "cannot record a new layer");
	}
}
