/* SPDX-License-Identifier: GPL-2.0 */
/* sum.h: what the parts of rapido-afalg-sum share: exit codes, options, the hasher seam. */
#ifndef AFSUM_SUM_H
#define AFSUM_SUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define AFSUM_PROG "rapido-afalg-sum"

/* Exit statuses; documented in --help. 0 and 1 mean what they mean for sha256sum. */
enum afsum_exit {
	AFSUM_EXIT_OK = 0,
	AFSUM_EXIT_FAIL = 1,		/* mismatch, unreadable file, bad check lines */
	AFSUM_EXIT_USAGE = 2,		/* bad option or combination (coreutils: 1) */
	AFSUM_EXIT_NO_AFALG = 3,	/* socket(AF_ALG) failed */
	AFSUM_EXIT_UNKNOWN_ALG = 4,	/* bind() refused the algorithm */
	AFSUM_EXIT_KEY = 5,		/* key missing, unreadable, refused or not wanted */
	AFSUM_EXIT_KERNEL = 6,		/* an AF_ALG operation failed or returned a bad digest */
};

/* Larger than any kernel digest (HASH_MAX_DIGESTSIZE is 64). */
#define AFSUM_MAX_DIGEST 128

struct afsum_opts {
	const char *alg;	/* -a, default "sha256" */
	bool check;		/* -c */
	int binary;		/* -1 unset, 0 -t, 1 -b (--tag sets it, as in coreutils) */
	bool tag;		/* --tag */
	bool zero;		/* -z */
	bool status;		/* --status */
	bool quiet;		/* --quiet */
	bool warn;		/* -w */
	bool strict;		/* --strict */
	bool ignore_missing;	/* --ignore-missing */
	bool no_splice;		/* --no-splice */
	bool debug;		/* --debug */
	const char *key_file;	/* --key-file, NULL if none */
	int key_fd;		/* --key-fd, -1 if none */
	char **files;		/* operands, or a single "-" */
	int nfiles;
};

/*
 * The seam between the command logic (generate and check, unit-tested) and
 * the kernel (AF_ALG, proven in a guest). hash() digests everything
 * readable from fd. It returns 0 and fills digest/len; -errno for an error
 * reading the input, which the caller reports like coreutils and goes on;
 * or a positive exit status after it reported a fatal error itself.
 */
struct afsum_hasher {
	int (*hash)(struct afsum_hasher *h, int fd, const char *name,
		    unsigned char *digest, size_t *len);
	size_t digest_len;	/* bytes */
	const char *tag;	/* name used in --tag lines, e.g. "SHA256" */
};

#endif
