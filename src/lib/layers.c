// SPDX-License-Identifier: GPL-2.0
/* layers.c: the rapido/layers list of a layered image, and putting such an image together. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"
#include "err.h"
#include "hash.h"
#include "io.h"
#include "layers.h"

void img_layers_add(struct img_layers *l, const char *kind, uint64_t size, uint64_t xxh,
		    const char *key, const char *path)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n].kind = xstrdup(kind);
	l->v[l->n].size = size;
	l->v[l->n].xxh = xxh;
	l->v[l->n].key = xstrdup(key);
	l->v[l->n].path = path ? xstrdup(path) : NULL;
	l->n++;
}

char *img_layers_format(const struct img_layers *l)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		die_errno("open_memstream");
	fprintf(f, "# written by ./cut: ./vm puts these cached layers after this archive, in order\n");
	for (size_t i = 0; i < l->n; i++)
		fprintf(f, "layer %s %" PRIu64 " %016" PRIx64 " %s\n", l->v[i].kind, l->v[i].size,
			l->v[i].xxh, l->v[i].key);
	fprintf(f, "tail %" PRIu64 "\n", l->tail);
	if (fclose(f))
		die_errno("open_memstream");
	return text;
}

int img_layers_parse(const char *text, struct img_layers *l, char **err)
{
	char *copy = xstrdup(text), *save = NULL;
	int lineno = 0, have_tail = 0;

	memset(l, 0, sizeof(*l));
	*err = NULL;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char kind[32], hex[17], key[65], *end;
		unsigned long long size;
		int n = 0;

		lineno++;
		if (line[0] == '#')
			continue;
		if (sscanf(line, "layer %31s %llu %16s %64[0-9a-f]%n", kind, &size, hex, key, &n) == 4 &&
		    !line[n] && strlen(hex) == 16 && strlen(key) == 64) {
			uint64_t x = strtoull(hex, &end, 16);

			if (!*end) {
				img_layers_add(l, kind, size, x, key, NULL);
				continue;
			}
		} else if (sscanf(line, "tail %llu%n", &size, &n) == 1 && !line[n]) {
			l->tail = size;
			have_tail = 1;
			continue;
		}
		*err = xasprintf("%s line %d: expected 'layer KIND SIZE XXH64 KEY' or 'tail SIZE', "
				 "got '%s'", IMG_LAYERS_NAME, lineno, line);
		break;
	}
	if (!*err && !have_tail)
		*err = xasprintf("%s: no 'tail SIZE' line", IMG_LAYERS_NAME);
	free(copy);
	if (*err) {
		img_layers_free(l);
		return -EINVAL;
	}
	return 0;
}

void img_layers_free(struct img_layers *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].kind);
		free(l->v[i].key);
		free(l->v[i].path);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* The locator at off must end the file and name the cache: fills the layers' paths. */
static int locate(int fd, off_t off, off_t size, struct img_layers *l)
{
	char *dir, *nl;
	off_t end;
	int rc = cpio_archive_end(fd, off, 8, &end);

	if (rc || end != size)
		return -EINVAL;
	rc = cpio_find_at(fd, off, IMG_CACHE_NAME, 8, &dir, NULL);
	if (rc)
		return rc;
	nl = strchr(dir, '\n');
	if (nl)
		*nl = '\0';
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].path);
		l->v[i].path = xasprintf("%s/layers/%s.cpio", dir, l->v[i].key);
	}
	free(dir);
	return 0;
}

int img_write_locator(int fd, const char *cache_dir)
{
	static struct cpio_writer w;
	char *text = xasprintf("%s\n", cache_dir);

	cpio_init(&w, fd);
	cpio_add_file(&w, IMG_CACHE_NAME, 0644, text, strlen(text));
	free(text);
	return cpio_finish(&w);
}

int img_probe(int fd, const char *path, struct img_layers *l, off_t *head_len,
	      enum img_form *form, char **err)
{
	struct stat st;
	uint64_t sum = 0;
	char *text;
	int rc;

	memset(l, 0, sizeof(*l));
	*err = NULL;
	*form = IMG_PLAIN;
	/* rapido/layers follows rapido/ and rapido/vm.conf */
	rc = cpio_find(fd, IMG_LAYERS_NAME, 4, &text, NULL);
	if (rc == -ENOENT)
		return 0;
	if (rc) {
		*err = xasprintf("%s: cannot read %s: %s", path, IMG_LAYERS_NAME, strerror(-rc));
		return rc;
	}
	rc = img_layers_parse(text, l, err);
	free(text);
	if (rc) {
		char *e = xasprintf("%s: %s", path, *err);

		free(*err);
		*err = e;
		return rc;
	}
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		*err = xasprintf("%s: %s", path, strerror(errno));
		img_layers_free(l);
		return rc;
	}
	rc = cpio_archive_end(fd, 0, 64, head_len);
	if (rc) {
		*err = xasprintf("%s: its first archive has no end", path);
		img_layers_free(l);
		return -EINVAL;
	}
	for (size_t i = 0; i < l->n; i++)
		sum += l->v[i].size;
	if ((uint64_t)st.st_size == (uint64_t)*head_len + sum + l->tail) {
		*form = IMG_STANDALONE;
		return 0;
	}
	rc = locate(fd, (off_t)((uint64_t)*head_len + l->tail), st.st_size, l);
	if (!rc) {
		*form = IMG_CACHED;
		return 0;
	}
	*err = xasprintf("%s: %lld bytes, which is neither head + layers + tail (%llu, standalone) "
			 "nor head + tail + the cache's name: a truncated or damaged copy; cut it again",
			 path, (long long)st.st_size, (unsigned long long)(*head_len + (off_t)(sum + l->tail)));
	img_layers_free(l);
	return -EINVAL;
}

/* Copy len bytes from in (at its offset) to out, hashing into x if set. */
static int copy_hashed(int in, int out, uint64_t len, struct xxh64 *x, int *short_read)
{
	static char buf[1 << 20];

	*short_read = 0;
	while (len) {
		ssize_t n = read(in, buf, len < sizeof(buf) ? len : sizeof(buf));
		int rc;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0) {
			*short_read = 1;
			return 0;
		}
		if (x)
			xxh64_update(x, buf, (size_t)n);
		rc = write_all(out, buf, (size_t)n);
		if (rc)
			return rc;
		len -= (uint64_t)n;
	}
	return 0;
}

char *img_stat_sig(const struct stat *st)
{
	return xasprintf("%llu %lld %lld.%09ld %lld.%09ld", (unsigned long long)st->st_ino,
			 (long long)st->st_size, (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
			 (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
}

/* Does the record next to the layer vouch for the file as it is now? */
static int record_vouches(const char *path, const struct stat *st)
{
	char *meta = img_layer_meta_path(path), *text, *sig, *line, *eol;
	int ok = 0;

	if (!read_file(meta, &text, NULL)) {
		line = strstr(text, "\nsig ");
		eol = line ? strchr(line + 1, '\n') : NULL;
		if (eol) {
			*eol = '\0';
			sig = img_stat_sig(st);
			ok = !strcmp(line + 5, sig);
			free(sig);
		}
		free(text);
	}
	free(meta);
	return ok;
}

int img_layer_copy(const struct img_layer *ly, int out)
{
	int in = open(ly->path, O_RDONLY | O_CLOEXEC), rc, short_read;
	struct xxh64 x;
	struct stat st;

	if (in < 0)
		return -errno;
	if (fstat(in, &st) < 0) {
		rc = -errno;
		close(in);
		return rc;
	}
	if ((uint64_t)st.st_size != ly->size) {
		close(in);
		return -EBADMSG;
	}
	if (record_vouches(ly->path, &st)) {
		uint64_t left = ly->size;

		rc = 0;
		while (left && !rc) {
			ssize_t n = sendfile(out, in, NULL, left > (1U << 30) ? (1U << 30) : left);

			if (n < 0 && errno != EINTR)
				rc = -errno;
			else if (n == 0)
				rc = -EBADMSG;	/* shorter than it was a moment ago */
			else if (n > 0)
				left -= (uint64_t)n;
		}
		close(in);
		return rc;
	}
	xxh64_init(&x, 0);
	rc = copy_hashed(in, out, ly->size, &x, &short_read);
	close(in);
	if (!rc && (short_read || xxh64_digest(&x) != ly->xxh))
		rc = -EBADMSG;
	return rc;
}

int img_assemble(int fd, const char *path, const struct img_layers *l, off_t head_len, int out,
		 char **err)
{
	int rc, short_read;

	*err = NULL;
	if (lseek(fd, 0, SEEK_SET) < 0)
		goto io_error;
	rc = copy_hashed(fd, out, (uint64_t)head_len, NULL, &short_read);
	if (rc || short_read)
		goto image_error;
	for (size_t i = 0; i < l->n; i++) {
		const struct img_layer *ly = &l->v[i];

		rc = img_layer_copy(ly, out);
		if (rc == -ENOENT) {
			*err = xasprintf("%s: its cached %s layer %s is gone (evicted or removed from the "
					 "cache): run ./cut again, or cut with --standalone for an image "
					 "that boots without the cache", path, ly->kind, ly->path);
			return rc;
		}
		if (rc == -EBADMSG) {
			int drc = img_layer_discard(ly->path);

			*err = xasprintf("%s: its cached %s layer %s is corrupted (size or checksum "
					 "differ from the image's record): %s; run ./cut again to rebuild it",
					 path, ly->kind, ly->path,
					 drc ? "could not remove it from the cache" : "removed it from the cache");
			return rc;
		}
		if (rc) {
			*err = xasprintf("%s: cached %s layer %s: %s", path, ly->kind, ly->path,
					 strerror(-rc));
			return rc;
		}
	}
	if (lseek(fd, head_len, SEEK_SET) < 0)
		goto io_error;
	rc = copy_hashed(fd, out, l->tail, NULL, &short_read);
	if (rc || short_read)
		goto image_error;
	return 0;
io_error:
	rc = -errno;
image_error:
	if (!rc)
		rc = -EINVAL;	/* shorter than its own record: probe said otherwise */
	*err = xasprintf("%s: %s", path, strerror(-rc));
	return rc;
}

char *img_layer_meta_path(const char *layer_path)
{
	size_t len = strlen(layer_path);

	if (len > 5 && !strcmp(layer_path + len - 5, ".cpio"))
		return xasprintf("%.*s.meta", (int)(len - 5), layer_path);
	return xasprintf("%s.meta", layer_path);
}

int img_layer_discard(const char *layer_path)
{
	char *meta = img_layer_meta_path(layer_path);
	int rc = 0;

	/* the record first: a layer without one is no entry */
	if (unlink(meta) < 0 && errno != ENOENT)
		rc = -errno;
	if (unlink(layer_path) < 0 && errno != ENOENT && !rc)
		rc = -errno;
	free(meta);
	return rc;
}
