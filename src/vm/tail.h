/* SPDX-License-Identifier: GPL-2.0 */
/* tail.h: a byte window that keeps the last `cap` bytes written to it. */
#ifndef RAPIDO_VM_TAIL_H
#define RAPIDO_VM_TAIL_H

#include <stddef.h>

struct tail {
	char *buf;
	size_t len, cap;
};

void tail_init(struct tail *t, size_t cap);
void tail_add(struct tail *t, const char *p, size_t n);
void tail_free(struct tail *t);

#endif
