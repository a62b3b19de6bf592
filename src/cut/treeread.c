// SPDX-License-Identifier: GPL-2.0
/*
 * treeread.c: read a "#@ files:" source (a built xfstests tree: thousands
 * of entries) for its layer's key. Every cut of a profile stats every
 * entry, so a re-cut that changes nothing else costs what this costs.
 *
 * Two passes. The first lists the directories alone, depth first, names
 * in order, and learns which entries are directories from readdir's type
 * (one fstatat where the file system does not say). The second stats
 * every other entry, split into contiguous ranges over the host's cores,
 * each thread with the directory of its current entry open. A directory
 * is opened again there only after checking that it is the one the first
 * pass listed, so a tree changed between the passes is an error to cut
 * again, never a key of two different trees.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "treeread.h"

/* Below this many entries, one thread: starting another costs more than it saves. */
#define PARALLEL_MIN 1024
#define MAX_THREADS 4

static size_t tree_add(struct tree *t, char *rel, size_t parent)
{
	if (t->n == t->cap) {	/* doubling: thousands of entries are not copied each time */
		t->cap = t->cap ? 2 * t->cap : 64;
		t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	memset(&t->v[t->n], 0, sizeof(t->v[t->n]));
	t->v[t->n].rel = rel;
	t->v[t->n].parent = parent;
	return t->n++;
}

struct name {
	size_t off;		/* into the directory's name buffer */
	unsigned char type;	/* readdir's d_type */
};

/* qsort_r's order of names in the buffer buf */
static int by_name(const void *a, const void *b, void *buf)
{
	return strcmp((const char *)buf + ((const struct name *)a)->off,
		      (const char *)buf + ((const struct name *)b)->off);
}

/* "PARENT/NAME" (or NAME below SRC itself), malloc'd without printf: there are thousands */
static char *join(const char *parent, const char *name)
{
	size_t pl = strlen(parent), nl = strlen(name);
	char *r = xmalloc(pl + 1 + nl + 1), *q = r;

	if (pl) {
		memcpy(q, parent, pl);
		q += pl;
		*q++ = '/';
	}
	memcpy(q, name, nl + 1);
	return r;
}

static int fail(struct tree *t, const char *rel, int e, char **err)
{
	*err = xasprintf("%s%s%s: %s", t->src, *rel ? "/" : "", rel, strerror(e));
	return -e;
}

/*
 * Pass 1: add the entries of directory entry dir (open on dfd, which this
 * closes), recursing into subdirectories; their stat comes from the open
 * directory itself, the others' from pass 2.
 */
static int list(struct tree *t, size_t dir, int dfd, char **err)
{
	DIR *d = fdopendir(dfd);
	struct name *names = NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0, used = 0, bufcap = 0;
	struct dirent *de;
	int rc = 0;

	if (!d) {
		rc = fail(t, t->v[dir].rel, errno, err);
		close(dfd);
		return rc;
	}
	/* the names in one buffer, then sorted by offset: no allocation per name */
	errno = 0;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name) + 1;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			names = xrealloc(names, cap * sizeof(*names));
		}
		if (used + len > bufcap) {
			bufcap = bufcap ? 2 * bufcap + len : 1024;
			buf = xrealloc(buf, bufcap);
		}
		memcpy(buf + used, de->d_name, len);
		names[n].off = used;
		names[n++].type = de->d_type;
		used += len;
	}
	if (errno)
		rc = fail(t, t->v[dir].rel, errno, err);
	if (n)
		qsort_r(names, n, sizeof(*names), by_name, buf);
	for (size_t i = 0; i < n && !rc; i++) {
		const char *name = buf + names[i].off;
		size_t e = tree_add(t, join(t->v[dir].rel, name), dir);
		int isdir = names[i].type == DT_DIR, sub;

		if (names[i].type == DT_UNKNOWN) {	/* the file system does not say: ask */
			if (fstatat(dirfd(d), name, &t->v[e].st, AT_SYMLINK_NOFOLLOW) < 0) {
				rc = fail(t, t->v[e].rel, errno, err);
				break;
			}
			isdir = S_ISDIR(t->v[e].st.st_mode);
		}
		if (!isdir)
			continue;
		sub = openat(dirfd(d), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0 || fstat(sub, &t->v[e].st) < 0) {
			rc = fail(t, t->v[e].rel, errno, err);
			if (sub >= 0)
				close(sub);
			break;
		}
		rc = list(t, e, sub, err);
	}
	free(buf);
	free(names);
	closedir(d);
	return rc;
}

struct range {
	struct tree *t;
	int root;		/* SRC's directory, open */
	size_t lo, hi;		/* entries [lo, hi) */
	int rc;
	char *err;
};

/* The directory of entry dir, opened again: the one pass 1 listed, or an error. */
static int reopen(struct range *r, size_t dir)
{
	const struct tree_entry *d = &r->t->v[dir];
	struct stat st;
	int fd;

	if (!dir)
		return r->root;
	fd = openat(r->root, d->rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		r->rc = fail(r->t, d->rel, errno, &r->err);
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		r->rc = fail(r->t, d->rel, errno, &r->err);
		close(fd);
		return -1;
	}
	if (st.st_dev != d->st.st_dev || st.st_ino != d->st.st_ino) {
		r->rc = -EAGAIN;
		r->err = xasprintf("%s/%s changed while it was being read; cut again", r->t->src, d->rel);
		close(fd);
		return -1;
	}
	return fd;
}

/* Pass 2 over one range: stat what pass 1 did not, read the symlinks. */
static void *stat_range(void *arg)
{
	struct range *r = arg;
	size_t cur = SIZE_MAX;
	int dfd = -1;

	for (size_t i = r->lo; i < r->hi && !r->rc; i++) {
		struct tree_entry *e = &r->t->v[i];
		const char *slash = strrchr(e->rel, '/'), *name = slash ? slash + 1 : e->rel;

		if (S_ISDIR(e->st.st_mode))
			continue;	/* pass 1's, from the directory it listed */
		if (e->parent != cur) {
			if (dfd >= 0 && dfd != r->root)
				close(dfd);
			dfd = reopen(r, e->parent);
			cur = e->parent;
			if (dfd < 0)
				break;
		}
		if (!e->st.st_mode && fstatat(dfd, name, &e->st, AT_SYMLINK_NOFOLLOW) < 0) {
			r->rc = fail(r->t, e->rel, errno, &r->err);
		} else if (S_ISDIR(e->st.st_mode)) {
			/* not a directory when pass 1 listed its parent */
			r->rc = -EAGAIN;
			r->err = xasprintf("%s/%s changed while it was being read; cut again",
					   r->t->src, e->rel);
		} else if (S_ISLNK(e->st.st_mode)) {
			char target[PATH_MAX];
			ssize_t n = readlinkat(dfd, name, target, sizeof(target) - 1);

			if (n < 0) {
				r->rc = fail(r->t, e->rel, errno, &r->err);
			} else {
				target[n] = '\0';
				e->target = xstrdup(target);
			}
		}
	}
	if (dfd >= 0 && dfd != r->root)
		close(dfd);
	return NULL;
}

/* Pass 2 over entries 1..n-1, in up to MAX_THREADS contiguous ranges. */
static int stat_all(struct tree *t, int root, char **err)
{
	struct range r[MAX_THREADS];
	pthread_t th[MAX_THREADS];
	int started[MAX_THREADS] = { 0 };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t k = t->n >= PARALLEL_MIN && cpus > 1 ? (size_t)(cpus < MAX_THREADS ? cpus : MAX_THREADS) : 1;
	int rc = 0;

	for (size_t i = 0; i < k; i++)
		r[i] = (struct range){ .t = t, .root = root, .lo = 1 + (t->n - 1) * i / k,
				       .hi = 1 + (t->n - 1) * (i + 1) / k };
	/* ranges 1.. on threads (any that cannot start runs here), range 0 here */
	for (size_t i = 1; i < k; i++)
		started[i] = !pthread_create(&th[i], NULL, stat_range, &r[i]);
	for (size_t i = 0; i < k; i++)
		if (!i || !started[i])
			stat_range(&r[i]);
	for (size_t i = 1; i < k; i++)
		if (started[i])
			pthread_join(th[i], NULL);
	/* the first error in the walk's order */
	for (size_t i = 0; i < k; i++) {
		if (r[i].rc && !rc) {
			rc = r[i].rc;
			*err = r[i].err;
		} else {
			free(r[i].err);
		}
	}
	return rc;
}

/* Special files leave the list; the others keep their order. */
static void drop_special(struct tree *t)
{
	size_t n = 1;

	for (size_t i = 1; i < t->n; i++) {
		mode_t m = t->v[i].st.st_mode;

		if (S_ISREG(m) || S_ISDIR(m) || S_ISLNK(m)) {
			t->v[n++] = t->v[i];
			continue;
		}
		t->skipped++;
		free(t->v[i].rel);
	}
	t->n = n;
}

int tree_read(struct tree *t, const char *src, char **err)
{
	int root, rc;

	memset(t, 0, sizeof(*t));
	t->src = src;
	*err = NULL;
	tree_add(t, xstrdup(""), 0);
	if (stat(src, &t->v[0].st) < 0)
		return fail(t, "", errno, err);
	/* a FIFO or a device as the source itself: nothing to copy, and a read that may never end */
	if (!S_ISDIR(t->v[0].st.st_mode) && !S_ISREG(t->v[0].st.st_mode)) {
		*err = xasprintf("%s: %s", src, file_strerror(-ENOTREG, &t->v[0].st));
		return -ENOTREG;
	}
	if (!S_ISDIR(t->v[0].st.st_mode))
		return 0;
	root = open(src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return fail(t, "", errno, err);
	rc = list(t, 0, fcntl(root, F_DUPFD_CLOEXEC, 0), err);	/* list closes its copy */
	if (!rc)
		rc = stat_all(t, root, err);
	close(root);
	if (!rc)
		drop_special(t);
	return rc;
}

void tree_free(struct tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].rel);
		free(t->v[i].target);
	}
	free(t->v);
}
