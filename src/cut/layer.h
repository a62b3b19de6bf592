/* SPDX-License-Identifier: GPL-2.0 */
/* layer.h: ./cut's cached layers (docs/CACHE.md): the cache, trees, dracut's layers. */
#ifndef RAPIDO_CUT_LAYER_H
#define RAPIDO_CUT_LAYER_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "cut.h"
#include "hash.h"
#include "strv.h"

#define CACHE_FORMAT "rapido-layer 1"

struct cut_cache {
	char *dir;		/* NULL: no cache for this cut */
	int lock_fd;		/* dir/lock, held shared until cut_cache_close */
	uint64_t cap;		/* CUT_CACHE_SIZE */
	struct strv used;	/* keys of this cut: never evicted by it */
	int warned;		/* said once that the cache cannot take a layer */
};

struct cut_layer {
	/* "modules", "ondemand", "bins", "libs", "tree", "busybox", "helpers" */
	const char *kind;
	char key[65];		/* SHA-256 hex of everything that makes its bytes */
	char *desc;		/* one line for --cache-info */
	char *path;		/* the layer's file: in the cache, or the work directory */
	int cached;		/* path is the cache's entry */
	int built;		/* by this cut (else found in the cache) */
	uint64_t size, xxh;
	struct strv libs;	/* tree: host libraries its programs need */
	char *ldcache;		/* tree: /etc/ld.so.cache those were found with */
	char *deps;		/* meta lines: host files its bytes came from */
	/*
	 * bins: the first program it holds that asks for the dynamic loader
	 * ("/usr/bin/perl"), or "none"; NULL: its record does not say
	 */
	char *loader;
	size_t apart;		/* bins: files of dracut's that went to its libs layer */
	char *when;		/* rapido/layers' condition (layers.h); NULL: every boot */
};

/* cache.c: the store */
/* Open the cache (unless no_cache or CUT_CACHE_SIZE=0); a cache that cannot be used is a warning. */
void cut_cache_open(struct cut_cache *c, const struct conf *conf, int no_cache);
/* 1 and ly filled from the entry when KEY is cached and still valid; 0 otherwise. */
int cut_cache_lookup(struct cut_cache *c, struct cut_layer *ly);
/* A new temporary file in the cache's tmp/, removed at exit unless inserted. */
int cut_cache_tmp(struct cut_cache *c, char **path);
/*
 * Move the finished layer file tmp into the cache under ly->key, or use the
 * entry a parallel cut stored meanwhile (tmp removed); 0 or -errno.
 */
int cut_cache_insert(struct cut_cache *c, struct cut_layer *ly, const char *tmp);
/* Report (once) that the cache cannot take a layer; the image becomes standalone. */
void cut_cache_give_up(struct cut_cache *c, int err, const char *what);
/* Release the cut's lock; the last cut running evicts down to the cap. */
void cut_cache_close(struct cut_cache *c);
void cut_layer_free(struct cut_layer *ly);

/*
 * cacheconf.c: CUT_CACHE_SIZE (a bad value dies naming where it was set)
 * and the cache's directory: CUT_CACHE_DIR, else $XDG_CACHE_HOME/rapido,
 * else ~/.cache/rapido; NULL when none of them is set.
 */
void cut_cache_conf(const struct conf *conf, uint64_t *cap, char **dir);

/* cacheinfo.c: ./cut --cache-info */
int cut_cache_info(void);

/* evict.c: one entry of the cache, KEY.cpio with its KEY.meta */
struct cut_entry {
	char key[65];
	uint64_t size;		/* both files */
	struct timespec used;	/* the record's mtime: its last lookup */
	char *kind, *desc;	/* when described; NULL if its record says nothing */
};
/*
 * The entries of the cache in dir, oldest use first; described: kind and
 * desc read from the records. Files that are no entry (a layer without its
 * record, a record without its layer, a temporary of write_file_atomic)
 * are removed when tidy is set.
 */
struct cut_entry *cut_cache_entries(const char *dir, size_t *n, int tidy, int describe);
void cut_cache_entries_free(struct cut_entry *v, size_t n);
/* Empty tmp/ and locks/, then evict the least recently used entries down to c->cap. */
void cut_cache_evict(struct cut_cache *c);

/* meta.c: an entry's record, layers/KEY.meta */
#define CUT_META_MAX (16 << 20)	/* a few lines, one per library and host file it holds */
struct cut_meta {
	char *text;
	const char *kind, *size, *xxh, *sig, *desc, *ldcache;	/* into text */
	char *loader;		/* into text, unescaped; NULL: no loader line */
	const char *apart;
	struct strv libs;
	struct strv deps;	/* "dep ..." lines, unescaped in place when checked */
};
/* Parse text (kept in m, freed by cut_meta_free); 0 or -EINVAL. */
int cut_meta_parse(char *text, struct cut_meta *m);
void cut_meta_free(struct cut_meta *m);
/* The record of ly, its layer file having the stat signature sig; malloc'd. */
char *cut_meta_text(const struct cut_layer *ly, const char *sig);
/* Rewrite the record's sig line (best effort). */
void cut_meta_resign(const char *meta_path, const char *sig);
/* '%xx' for blanks, '%' and controls (pct.h): a path stays one word on a record's line. */
void cut_meta_escape(FILE *f, const char *s);

/* tmps.c: temporaries outside the work directory; forget one renamed or removed */
void cut_tmp_add(const char *path);
void cut_tmp_forget(const char *path);
/* Remove them all (exit and signal paths). */
void cut_tmp_cleanup(void);

/* hostdep.c */
/* Record "dep" lines for the host file at path: stat or link target. */
void cut_dep_note(FILE *f, const char *path);
/* Do the host files of a record's dep lines, and its ld.so.cache, still match? */
int cut_deps_hold(struct cut_meta *m);
/* Stat signature of a file ("INO SIZE MTIME CTIME"), malloc'd; NULL if absent. */
char *cut_stat_sig(const char *path, int with_ctime);
/* Add a stat line of path (or "absent") to a key. */
void cut_key_stat(struct sha256 *s, const char *path);

/* sink.c: the file a new layer is written to */
struct cut_sink {
	char *path;		/* NULL: none (not opened, dropped, or kept) */
	int fd;
	int in_cache;		/* path is a temporary in the cache's tmp/ */
	struct xxh64 x;		/* the writer's hash of the bytes written (cpio_writer.hash) */
	uint64_t size;		/* once closed */
};
/*
 * A new file for a layer of kind: the cache's temporary when try_cache and
 * there is a cache (one that cannot make it is given up), else one in the
 * work directory w; dies if the work directory cannot take it.
 */
void cut_sink_open(struct cut_sink *s, struct cut_cache *c, int try_cache,
		   const struct cut_work *w, const char *kind);
/* Close after writing ended with rc (0 or -errno): returns rc, else close's error. */
int cut_sink_close(struct cut_sink *s, int rc);
/*
 * 1 when the cache's disk refused one of the n sinks written together
 * (rc[i]: how writing s[i] ended): the cache is given up and every one of
 * them dropped, to be written again into the work directory (try_cache 0).
 */
int cut_sink_retry(struct cut_cache *c, struct cut_sink *s, const int *rc, size_t n);
/* Remove the file. */
void cut_sink_drop(struct cut_sink *s);
/*
 * The layer is written, and ly says all its record holds (libs, deps,
 * ldcache): its file, size and checksum go into ly, and a cache's
 * temporary into the cache (one that cannot record it is given up).
 */
void cut_sink_keep(struct cut_sink *s, struct cut_cache *c, struct cut_layer *ly);

/* tree.c: the layer of one files: entry SRC copied to DEST, written as w's. */
int cut_tree_layer(struct cut_cache *c, const char *src, const char *dest,
		   const struct cut_work *w, struct cut_layer *ly, char **err);

/* dracut.c */
/* The key of a dracut layer: dracut itself, our dracut.conf.d, its argv and inputs. */
void cut_dracut_key(const struct cut_opts *o, const struct cut_plan *p, enum cut_dracut_part part,
		    const struct strv *libs, struct cut_layer *ly);

/*
 * kmods.c: the modules layers written by ./cut (without --dracut-modules):
 * ly[0] every boot's ("modules": depmod's files name every module of
 * both), ly[1] the modules only a boot that asks loads ("ondemand";
 * kind NULL when there are none); found in the cache or built into it
 * (or the work directory w); 0, or -errno with *err saying why.
 */
int cut_kmods_layer(struct cut_cache *c, const struct cut_plan *p, const struct cut_work *w,
		    struct cut_layer ly[2], char **err);

/*
 * helpers.c: /init and the profile's helpers, found in the cache or built
 * into it (or the work directory w); 0, or -errno with *err saying why.
 */
int cut_helpers_layer(struct cut_cache *c, const struct cut_plan *p, const struct cut_work *w,
		      struct cut_layer *ly, char **err);
/* The same for the busybox layer (p->busybox set): the binary and its applets in GUEST_BUSYBOX_DIR. */
int cut_busybox_layer(struct cut_cache *c, const struct cut_plan *p, const struct cut_work *w,
		      struct cut_layer *ly, char **err);

/*
 * build.c: an archive name that is a shared library (lib/ or usr/lib,
 * NAME.so or NAME.so.DIGITS...): the libs layer's, not the bins layer's.
 */
int cut_is_shared_lib(const char *name);
/*
 * build.c: build (or find) every layer and write the image, its
 * temporaries in w (created here); on_stop runs before cut dies of a signal.
 */
void cut_build(const struct cut_opts *o, struct cut_plan *p, struct cut_work *w,
	       void (*on_stop)(void));

#endif
