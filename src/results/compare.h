/* SPDX-License-Identifier: GPL-2.0 */
/* compare.h: the verdict of each test of run A against run B (compare.c). */
#ifndef RAPIDO_RESULTS_COMPARE_H
#define RAPIDO_RESULTS_COMPARE_H

#include <stdio.h>

struct rsuite;

/* The changes from a to b printed to out; how many are regressions. */
unsigned int compare_suites(const struct rsuite *a, const struct rsuite *b, FILE *out);

#endif
