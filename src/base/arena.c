// SPDX-License-Identifier: GPL-2.0
/* arena.c: buffers freed together, in huge-page-backed mappings (arena.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "arena.h"
#include "err.h"

/* THP's unit on x86_64 and arm64 (4 KiB pages): chunks are aligned to it */
#define HUGE_SIZE ((size_t)2 << 20)
#define CHUNK_SIZE ((size_t)32 << 20)

struct arena_chunk {
	struct arena_chunk *next;
	char *base;
	size_t size, used;
};

/* A mapping of size bytes (a multiple of HUGE_SIZE) at a HUGE_SIZE boundary. */
static char *map_aligned(size_t size)
{
	char *p = mmap(NULL, size + HUGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	uintptr_t start, end;

	if (p == MAP_FAILED)
		die_errno("mmap of %zu bytes for module contents", size + HUGE_SIZE);
	start = ((uintptr_t)p + HUGE_SIZE - 1) & ~(uintptr_t)(HUGE_SIZE - 1);
	end = start + size;
	/* the unaligned ends back; munmap of a part of a mapping only fails on bad arguments */
	if (start > (uintptr_t)p && munmap(p, start - (uintptr_t)p) < 0)
		die_errno("munmap");
	if ((uintptr_t)p + size + HUGE_SIZE > end && munmap((char *)end, (uintptr_t)p + size + HUGE_SIZE - end) < 0)
		die_errno("munmap");
	/* a hint: where THP is off this fails (EINVAL) and 4 KiB pages serve */
	(void)madvise((char *)start, size, MADV_HUGEPAGE);
	return (char *)start;
}

void *arena_alloc(struct arena *a, size_t n)
{
	struct arena_chunk *c = a->chunks;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->used < n) {
		size_t size = n > CHUNK_SIZE ? (n + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1) : CHUNK_SIZE;

		c = xmalloc(sizeof(*c));
		c->base = map_aligned(size);
		c->size = size;
		c->used = 0;
		c->next = a->chunks;
		a->chunks = c;
	}
	c->used += n;
	return c->base + c->used - n;
}

void arena_free(struct arena *a)
{
	while (a->chunks) {
		struct arena_chunk *c = a->chunks;

		a->chunks = c->next;
		munmap(c->base, c->size);
		free(c);
	}
}
