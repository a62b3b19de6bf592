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
#include "tree.h"
#include "layers.h"
#include "protocol.h"

void img_layers_add_when(struct img_layers *l, const char *kind, uint64_t size, uint64_t xxh,
			 const char *key, const char *path, const char *when)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n] = (struct img_layer){
		.kind = xstrdup(kind), .size = size, .xxh = xxh, .key = xstrdup(key),
		.path = path ? xstrdup(path) : NULL, .when = when ? xstrdup(when) : NULL,
	};
	l->n++;
}

void img_layers_add(struct img_layers *l, const char *kind, uint64_t size, uint64_t xxh,
		    const char *key, const char *path)
{
	img_layers_add_when(l, kind, size, xxh, key, path, NULL);
}

/* A condition: kernel parameter names, each with its '=', joined by commas. */
static int when_valid(const char *p)
{
	for (;;) {
		size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz" "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "0123456789_.-");

		if (!n || p[n] != '=')
			return 0;
		p += n + 1;
		if (!*p)
			return 1;
		if (*p++ != ',')
			return 0;
	}
}

int img_layer_wanted(const struct img_layer *ly, const char *const *params, size_t n)
{
	const char *p;

	if (!ly->when)
		return 1;
	for (p = ly->when; *p; p += *p == ',') {
		size_t len = strcspn(p, ",");

		for (size_t i = 0; i < n; i++)
			if (!strncmp(params[i], p, len))
				return 1;
		p += len;
	}
	return 0;
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
		fprintf(f, "layer %s %" PRIu64 " %016" PRIx64 " %s%s%s\n", l->v[i].kind, l->v[i].size,
			l->v[i].xxh, l->v[i].key, l->v[i].when ? " when " : "",
			l->v[i].when ? l->v[i].when : "");
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
		const char *when = NULL;
		unsigned long long size;
		int n = 0;

		lineno++;
		if (line[0] == '#')
			continue;
		if (sscanf(line, "layer %31s %llu %16s %64[0-9a-f]%n", kind, &size, hex, key, &n) == 4 &&
		    strlen(hex) == 16 && strlen(key) == 64 &&
		    (!line[n] || !strncmp(line + n, " when ", 6))) {
			uint64_t x = strtoull(hex, &end, 16);

			/* an image cut before conditions has none: every layer in */
			if (line[n])
				when = line + n + 6;
			if (when && !when_valid(when)) {
				*err = xasprintf("%s line %d: when: expected kernel parameter names, each "
						 "ending in '=', joined by commas (" KP_SHARES "," KP_IP "), "
						 "got '%s'", IMG_LAYERS_NAME, lineno, when);
				break;
			}
			if (!*end) {
				img_layers_add_when(l, kind, size, x, key, NULL, when);
				continue;
			}
		} else if (sscanf(line, "tail %llu%n", &size, &n) == 1 && !line[n]) {
			l->tail = size;
			have_tail = 1;
			continue;
		}
		*err = xasprintf("%s line %d: expected 'layer KIND SIZE XXH64 KEY [when PARAM=,...]' or "
				 "'tail SIZE', got '%s'", IMG_LAYERS_NAME, lineno, line);
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
		free(l->v[i].when);
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

/* A cache record (KEY.meta) is small: a few lines, one per library and host file. */
#define RECORD_MAX (16 << 20)

/* What a layer's record (KEY.meta) says of it. */
struct layer_record {
	uint64_t size, xxh;
	char *sig;
};

/* Read the record of the layer file: 0, or -errno (-EBADMSG: not a whole record). */
static int record_read(const char *path, struct layer_record *r)
{
	char *meta = img_layer_meta_path(path), *text, *save = NULL, *end;
	int rc = read_regular_file(meta, O_NOFOLLOW, RECORD_MAX, &text, NULL, NULL), have = 0;

	memset(r, 0, sizeof(*r));
	free(meta);
	if (rc)
		return rc;
	/* "size N", "xxh64 HEX" and "sig ..." lines (src/cut/cache.c writes them) */
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "size ", 5) && line[5]) {
			r->size = strtoull(line + 5, &end, 10);
			have |= !*end;
		} else if (!strncmp(line, "xxh64 ", 6) && line[6]) {
			r->xxh = strtoull(line + 6, &end, 16);
			have |= !*end << 1;
		} else if (!strncmp(line, "sig ", 4) && !r->sig) {
			r->sig = xstrdup(line + 4);
			have |= 4;
		}
	}
	free(text);
	if (have != 7) {
		free(r->sig);
		r->sig = NULL;
		return -EBADMSG;
	}
	return 0;
}

/* Does the record vouch for the file as it is now (nothing wrote to it since it was hashed)? */
static int record_vouches(const struct layer_record *r, const struct stat *st)
{
	char *sig = img_stat_sig(st);
	int ok = r->sig && !strcmp(r->sig, sig);

	free(sig);
	return ok;
}

static int send_all(int in, int out, uint64_t len)
{
	while (len) {
		ssize_t n = sendfile(out, in, NULL, len > (1U << 30) ? (1U << 30) : len);

		if (n < 0 && errno != EINTR)
			return -errno;
		if (n == 0)
			return -EBADMSG;	/* shorter than it was a moment ago */
		if (n > 0)
			len -= (uint64_t)n;
	}
	return 0;
}

int img_layer_copy(const struct img_layer *ly, int out)
{
	struct layer_record r;
	struct xxh64 x;
	struct stat st;
	int in = open_regular(ly->path, O_NOFOLLOW, &st), rc, short_read;

	if (in < 0)
		return in;
	if ((uint64_t)st.st_size != ly->size) {
		close(in);
		return -EBADMSG;
	}
	/* the record speaks for the bytes only if it names the ones the image wants */
	if (!record_read(ly->path, &r) && record_vouches(&r, &st) && r.size == ly->size &&
	    r.xxh == ly->xxh) {
		free(r.sig);
		rc = send_all(in, out, ly->size);
		close(in);
		return rc;
	}
	free(r.sig);
	xxh64_init(&x, 0);
	rc = copy_hashed(in, out, ly->size, &x, &short_read);
	close(in);
	if (!rc && (short_read || xxh64_digest(&x) != ly->xxh))
		rc = -EBADMSG;
	return rc;
}

int img_layer_intact(const char *path)
{
	struct layer_record r;
	struct xxh64 x;
	struct stat st;
	int in, rc, short_read, null;

	rc = record_read(path, &r);
	if (rc)
		return rc;
	in = open_regular(path, O_NOFOLLOW, &st);
	if (in < 0) {
		free(r.sig);
		return in;
	}
	rc = (uint64_t)st.st_size == r.size ? 0 : -EBADMSG;
	if (!rc && !record_vouches(&r, &st)) {
		null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null < 0) {
			rc = -errno;
		} else {
			xxh64_init(&x, 0);
			rc = copy_hashed(in, null, r.size, &x, &short_read);
			if (!rc && (short_read || xxh64_digest(&x) != r.xxh))
				rc = -EBADMSG;
			close(null);
		}
	}
	close(in);
	free(r.sig);
	return rc;
}

/* Why the layer ly of the image at path cannot be used, in *err; keeps or drops the entry. */
static int layer_error(const char *path, const struct img_layer *ly, int rc, char **err)
{
	struct stat st;
	int drc;

	if (rc == -ENOENT) {
		*err = xasprintf("%s: its cached %s layer %s is gone (evicted or removed from the "
				 "cache): run ./cut again, or cut with --standalone for an image "
				 "that boots without the cache", path, ly->kind, ly->path);
	} else if (rc == -ENOTREG) {
		/* not an entry the cache made: ./cut replaces it; never rm -r from here */
		if (lstat(ly->path, &st) < 0)
			st.st_mode = 0;
		*err = xasprintf("%s: its cached %s layer %s is %s: run ./cut again to replace it",
				 path, ly->kind, ly->path, file_strerror(rc, &st));
	} else if (rc == -EBADMSG && !img_layer_intact(ly->path)) {
		/* the file matches its own record, which other images may name too */
		char *meta = img_layer_meta_path(ly->path);

		*err = xasprintf("%s: its record of the cached %s layer %s (%llu bytes, XXH64 %016llx) "
				 "differs from that cache entry, which matches its own record %s: the "
				 "image is damaged or the layer was rebuilt since; the entry is kept; "
				 "run ./cut again", path, ly->kind, ly->path,
				 (unsigned long long)ly->size, (unsigned long long)ly->xxh, meta);
		free(meta);
	} else if (rc == -EBADMSG) {
		drc = img_layer_discard(ly->path);
		*err = xasprintf("%s: its cached %s layer %s is corrupted (size or checksum "
				 "differ from its record): %s; run ./cut again to rebuild it",
				 path, ly->kind, ly->path,
				 drc ? "could not remove it from the cache" : "removed it from the cache");
	} else {
		*err = xasprintf("%s: cannot read its cached %s layer %s: %s%s", path, ly->kind,
				 ly->path, strerror(-rc), rc == -EACCES ?
				 " (a cache of another user? CUT_CACHE_DIR names the cache ./cut uses)" : "");
	}
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

		if (ly->skip)
			continue;
		rc = img_layer_copy(ly, out);
		if (rc)
			return layer_error(path, ly, rc, err);
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

/* unlink, or rm -r for a directory in a file's place: 0 or -errno (gone already is fine) */
static int remove_any(const char *path)
{
	if (unlink(path) == 0 || errno == ENOENT)
		return 0;
	return errno == EISDIR ? remove_tree(path, NULL) : -errno;
}

int img_layer_discard(const char *layer_path)
{
	char *meta = img_layer_meta_path(layer_path);
	/* the record first: a layer without one is no entry */
	int rc = remove_any(meta), rc2 = remove_any(layer_path);

	free(meta);
	return rc ? rc : rc2;
}
