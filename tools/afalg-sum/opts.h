/* SPDX-License-Identifier: GPL-2.0 */
/* opts.h: rapido-afalg-sum command line: getopt_long, coreutils' rules, --help. */
#ifndef AFSUM_OPTS_H
#define AFSUM_OPTS_H

#include <stdio.h>

#include "sum.h"

/* The longest name a struct sockaddr_alg can carry (salg_name[64], NUL included). */
#define AFSUM_MAX_ALG_NAME 63

/*
 * Parse argv into *o (argv itself is kept: o->files points into it).
 * Returns -1 to go on, or the status to exit with at once: 0 after
 * --help/--version (printed to out), AFSUM_EXIT_USAGE or
 * AFSUM_EXIT_UNKNOWN_ALG after a message to err. Resets getopt itself.
 */
int afsum_parse_args(struct afsum_opts *o, int argc, char **argv,
		     FILE *out, FILE *err);

void afsum_usage(FILE *out);

#endif
