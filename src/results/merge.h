/* SPDX-License-Identifier: GPL-2.0 */
/* merge.h: the results of several runs as one (merge.c). */
#ifndef RAPIDO_RESULTS_MERGE_H
#define RAPIDO_RESULTS_MERGE_H

#include <stddef.h>

struct rsuite;

/* Name each guest test found in more than one of the suites (stderr); how many. */
unsigned int merge_check_overlap(const struct rsuite *v, size_t n);

#endif
