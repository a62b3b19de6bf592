/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arena.h: memory for many buffers freed together, in large anonymous
 * mappings that ask for transparent huge pages. ./cut's modules layer
 * holds every module it hashes (15 MB for fstests_local) until it knows
 * whether the cache has the layer: through malloc that is thousands of
 * page faults, each zeroing and charging 4 KiB (some 10 ms of a 40 ms
 * cut); here a fault maps 2 MiB where the kernel allows it (THP
 * "always" or "madvise"), else it costs what malloc does.
 */
#ifndef RAPIDO_ARENA_H
#define RAPIDO_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *chunks;
};

#define ARENA_INIT { NULL }

/* n bytes, 16-byte aligned, uninitialised; dies when memory is exhausted, as xmalloc does */
void *arena_alloc(struct arena *a, size_t n);
/* Unmap everything arena_alloc returned. */
void arena_free(struct arena *a);

#endif
