/* SPDX-License-Identifier: GPL-2.0 */
/*
 * depmod-input.h: one depmod case as a file, for the fuzz target
 * (tests/fuzz/depmod.c) and for lib-depmod.c, which has depmod itself
 * judge the seeds: parts split at "@@@@": modules.order, modules.builtin,
 * modules.builtin.modinfo (an empty part: no such file), then the modules
 * kernel/m0.ko, kernel/m1.ko, ...
 */
#ifndef RAPIDO_DEPMOD_INPUT_H
#define RAPIDO_DEPMOD_INPUT_H

#include <stdlib.h>
#include <string.h>

#include "depmod.h"

#define DEPMOD_CASE_SEP "@@@@"
#define DEPMOD_CASE_MODS 8

struct depmod_case {
	struct depmod_module mods[DEPMOD_CASE_MODS];
	char paths[DEPMOD_CASE_MODS][32];
	/* the lists as a file would be read: NUL-terminated copies, so that a read past one shows */
	char *texts[3];
	size_t lens[3];
	struct depmod_in in;
};

/* Cut data (which must outlive c) into c->in. */
static inline void depmod_case_parse(const void *data, size_t size, struct depmod_case *c)
{
	const char *p = data, *end = p + size;
	size_t n = 0;

	memset(c, 0, sizeof(*c));
	c->in.mods = c->mods;
	while (n < 3 + DEPMOD_CASE_MODS) {
		const char *s = memmem(p, (size_t)(end - p), DEPMOD_CASE_SEP, 4);
		size_t len = s ? (size_t)(s - p) : (size_t)(end - p);

		if (n < 3 && len) {
			c->texts[n] = malloc(len + 1);
			if (!c->texts[n])
				abort();
			memcpy(c->texts[n], p, len);
			c->texts[n][len] = '\0';
			c->lens[n] = len;
		} else if (n >= 3) {
			size_t i = c->in.n++;

			snprintf(c->paths[i], sizeof(c->paths[i]), "kernel/m%zu.ko", i);
			c->mods[i] = (struct depmod_module){ c->paths[i], p, len };
		}
		n++;
		if (!s)
			break;
		p = s + 4;
	}
	c->in.order = c->texts[0];
	c->in.order_len = c->lens[0];
	c->in.builtin = c->texts[1];
	c->in.builtin_len = c->lens[1];
	c->in.builtin_modinfo = c->texts[2];
	c->in.builtin_modinfo_len = c->lens[2];
}

static inline void depmod_case_free(struct depmod_case *c)
{
	for (int i = 0; i < 3; i++)
		free(c->texts[i]);
}

#endif
