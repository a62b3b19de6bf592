/* SPDX-License-Identifier: GPL-2.0 */
/* mode.h: hash files and print their lines, or check them. */
#ifndef AFSUM_MODE_H
#define AFSUM_MODE_H

#include <stdbool.h>
#include <stdio.h>

#include "sum.h"

/* Generate mode: one line per file on out. Returns 0, AFSUM_EXIT_FAIL or fatal. */
int afsum_sum_files(const struct afsum_opts *o, struct afsum_hasher *h,
		    FILE *out, FILE *err);

/* Check or generate, as o says. */
int afsum_run(const struct afsum_opts *o, struct afsum_hasher *h, FILE *out, FILE *err);

#endif
