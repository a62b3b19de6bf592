/* SPDX-License-Identifier: GPL-2.0 */
/* input.h: the inputs of rapido-afalg-sum, opened and reported the way both modes need. */
#ifndef AFSUM_INPUT_H
#define AFSUM_INPUT_H

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

#endif
