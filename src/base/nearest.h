/* SPDX-License-Identifier: GPL-2.0 */
/* nearest.h: "did you mean ...?": the known word nearest to a mistyped one. */
#ifndef RAPIDO_NEAREST_H
#define RAPIDO_NEAREST_H

#include <stddef.h>

#include "strv.h"


/*
 * The word of CANDS nearest to WORD (the first of equals), or NULL when
 * none is near enough to be a likely typo: one edit for a short word, up
 * to three for a long one (a quarter of its length). Points into CANDS.
 */
const char *nearest_word(const char *word, const struct strv *cands);

#endif
