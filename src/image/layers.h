/* SPDX-License-Identifier: GPL-2.0 */
/*
 * layers.h: an image made of cached layers. The head archive of such an
 * image holds rapido/layers, naming each layer (kind, size, XXH64, cache
 * key). The image file is either head + layers + tail (standalone), or
 * head + tail + a locator archive (rapido/cache: the cache directory), from
 * which ./vm puts together the same head + layers + tail. The locator
 * stays outside the assembled archive, so a cached image, a standalone one
 * and one cut without the cache boot the very same bytes.
 */
#ifndef RAPIDO_LAYERS_H
#define RAPIDO_LAYERS_H

#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#define IMG_LAYERS_NAME "rapido/layers"
#define IMG_CACHE_NAME "rapido/cache"

struct img_layer {
	char *kind;	/* modules, bins, tree */
	uint64_t size;
	uint64_t xxh;	/* XXH64 of the layer's bytes */
	char *key;	/* its cache key: CACHE/layers/KEY.cpio */
	char *path;	/* that file, once the cache is known (img_probe); else NULL */
	/*
	 * NULL: every boot needs it. Else a comma-separated list of kernel
	 * parameters ("rapido.shares=,rapido.virtiofs="): a boot needs the
	 * layer only when its command line has one of them (img_layer_wanted).
	 */
	char *when;
	int skip;	/* left out of img_assemble's archive (the launcher's decision) */
};

struct img_layers {
	struct img_layer *v;
	size_t n;
	uint64_t tail;	/* bytes of the tail archive, at the end of the image */
};

enum img_form {
	IMG_PLAIN,	/* no rapido/layers: one file, boot it as it is */
	IMG_CACHED,	/* head + tail + locator: the layers come from the cache */
	IMG_STANDALONE,	/* head + layers + tail */
};

void img_layers_add(struct img_layers *l, const char *kind, uint64_t size, uint64_t xxh,
		    const char *key, const char *path);
/* The same, with the condition of a layer only some boots need (NULL: every boot). */
void img_layers_add_when(struct img_layers *l, const char *kind, uint64_t size, uint64_t xxh,
			 const char *key, const char *path, const char *when);
/*
 * Does a boot whose kernel command line holds the n parameters params
 * need the layer? Yes without a condition (every layer of an image cut
 * before conditions were written), else when one of them starts with a
 * name its condition lists.
 */
int img_layer_wanted(const struct img_layer *ly, const char *const *params, size_t n);
/* rapido/layers text (malloc'd). */
char *img_layers_format(const struct img_layers *l);
/* Returns 0 or -EINVAL with *err (malloc'd) naming the bad line. */
int img_layers_parse(const char *text, struct img_layers *l, char **err);
void img_layers_free(struct img_layers *l);

/*
 * Which form the image open on fd has; for a layered image also its
 * layers (with their paths in the cache the locator names) and the length
 * of its head. -EINVAL with *err when the size fits neither form (a
 * truncated copy), or the head cannot be read.
 */
int img_probe(int fd, const char *path, struct img_layers *l, off_t *head_len,
	      enum img_form *form, char **err);

/* The locator archive ending a cached image: the cache directory. 0 or -errno. */
int img_write_locator(int fd, const char *cache_dir);

/*
 * A layer file's stat as the cache records it ("INO SIZE MTIME CTIME",
 * nanoseconds): any write, chmod or replacement changes it (malloc'd).
 */
char *img_stat_sig(const struct stat *st);

/*
 * Append a layer file to out. When its stat still matches the signature in
 * its record (KEY.meta), nothing wrote to it since its XXH64 was taken and
 * the kernel copies it; otherwise it is hashed on the way. Only a regular
 * file is opened (never a FIFO or a symbolic link). Returns 0, -ENOENT
 * (gone), -ENOTREG (not a regular file), -EBADMSG (size or checksum differ
 * from ly's), or -errno.
 */
int img_layer_copy(const struct img_layer *ly, int out);
/*
 * Does the layer file still hold what its own record (KEY.meta) says?
 * 0 if so, -EBADMSG if not (or the record is not whole), or -errno.
 */
int img_layer_intact(const char *layer_path);

/*
 * Write the whole image (head, layers, tail) of the IMG_CACHED image open
 * on fd to out, but the layers marked skip. A layer that fails its checksum is removed from the cache
 * (so the next ./cut rebuilds it), unless it still matches its own record:
 * then the image's record is to blame, and the entry, which other images
 * may name, is kept. Returns 0 or -errno with *err.
 */
int img_assemble(int fd, const char *path, const struct img_layers *l, off_t head_len, int out,
		 char **err);

/* The cache's record of a layer file: KEY.cpio -> KEY.meta (malloc'd). */
char *img_layer_meta_path(const char *layer_path);
/* Remove a layer and its record from the cache. 0 or -errno. */
int img_layer_discard(const char *layer_path);

#endif
