// SPDX-License-Identifier: GPL-2.0
/* nearest.c: the known word nearest to a mistyped one, for every "did you mean". */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "nearest.h"

/* Optimal string alignment distance, case ignored: VM_MEMROY is one edit from VM_MEMORY. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *d = xcalloc((la + 1) * (lb + 1), sizeof(*d));
	size_t r;

#define D(i, j) d[(i) * (lb + 1) + (j)]
	for (size_t i = 0; i <= la; i++)
		D(i, 0) = i;
	for (size_t j = 0; j <= lb; j++)
		D(0, j) = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int ca = toupper((unsigned char)a[i - 1]), cb = toupper((unsigned char)b[j - 1]);
			size_t best = D(i - 1, j - 1) + (ca != cb);

			if (D(i - 1, j) + 1 < best)
				best = D(i - 1, j) + 1;
			if (D(i, j - 1) + 1 < best)
				best = D(i, j - 1) + 1;
			if (i > 1 && j > 1 && ca == toupper((unsigned char)b[j - 2]) &&
			    toupper((unsigned char)a[i - 2]) == cb && D(i - 2, j - 2) + 1 < best)
				best = D(i - 2, j - 2) + 1;
			D(i, j) = best;
		}
	r = D(la, lb);
#undef D
	free(d);
	return r;
}

const char *nearest_word(const char *word, const struct strv *cands)
{
	size_t len = strlen(word);
	/* one edit for short words, up to three for long ones */
	size_t limit = len / 4 < 1 ? 1 : len / 4 > 3 ? 3 : len / 4;
	size_t best_d = limit + 1;
	const char *best = NULL;

	for (size_t i = 0; i < cands->n; i++) {
		size_t d = edit_distance(word, cands->v[i]);

		if (d < best_d) {
			best = cands->v[i];
			best_d = d;
		}
	}
	return best;
}
