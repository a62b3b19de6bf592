// SPDX-License-Identifier: GPL-2.0
/* tail.c: the last bytes of a stream (tail.h): the status port's, the console's. */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "tail.h"

void tail_init(struct tail *t, size_t cap)
{
	t->buf = xmalloc(cap);
	t->len = 0;
	t->cap = cap;
}

void tail_add(struct tail *t, const char *p, size_t n)
{
	if (n >= t->cap) {
		memcpy(t->buf, p + n - t->cap, t->cap);
		t->len = t->cap;
		return;
	}
	if (t->len + n > t->cap) {
		size_t drop = t->len + n - t->cap;

		memmove(t->buf, t->buf + drop, t->len - drop);
		t->len -= drop;
	}
	memcpy(t->buf + t->len, p, n);
	t->len += n;
}

void tail_free(struct tail *t)
{
	free(t->buf);
	memset(t, 0, sizeof(*t));
}
