/* SPDX-License-Identifier: GPL-2.0 */
/* run.h: hash files and print their lines; open inputs the way both modes need. */
#ifndef AFSUM_RUN_H
#define AFSUM_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "sum.h"

/*
 * Open an input for hashing: "-" is standard input (not closed later).
 * A directory gives -EISDIR, as reading it would in coreutils.
 * Returns the fd or -errno.
 */
int afsum_open_input(const char *name);
void afsum_close_input(int fd);

/*
 * Hash one named input with h and fill digest/len. Returns 0, -errno for
 * an input problem (message NOT printed), or a fatal exit status (h printed it).
 */
int afsum_hash_name(struct afsum_hasher *h, const char *name,
		    unsigned char *digest, size_t *len);

/* Print "PROG: NAME: strerror(err)" the way coreutils reports a file. */
void afsum_report(FILE *err, const char *name, int err_no);

/* Generate mode: one line per file on out. Returns 0, AFSUM_EXIT_FAIL or fatal. */
int afsum_sum_files(const struct afsum_opts *o, struct afsum_hasher *h,
		    FILE *out, FILE *err);

/* Check or generate, as o says. */
int afsum_run(const struct afsum_opts *o, struct afsum_hasher *h, FILE *out, FILE *err);

#endif
