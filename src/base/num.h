/* SPDX-License-Identifier: GPL-2.0 */
/* num.h: the one strict parser for unsigned numbers in options, keys and files. */
#ifndef RAPIDO_NUM_H
#define RAPIDO_NUM_H

#include <stdint.h>

/* Room for num_parse()'s explanation, terminator included. */
#define NUM_WHY_LEN 160

/*
 * Parse all of S as an unsigned number in BASE (10 or 16) from MIN to MAX.
 * Digits only: strtoul() alone also takes leading blanks, a sign (and wraps
 * "-1" to ULONG_MAX), "0x" in base 16 and an empty string, and every caller
 * used to reject a different subset of those.
 *
 * Returns 0 with *OUT set, -EINVAL when S is not a number, -ERANGE when it is
 * outside MIN..MAX. On error, WHY (NUM_WHY_LEN bytes, may be NULL) holds the
 * reason for the user: "expected a number from MIN to MAX, got 'S'".
 */
int num_parse_base(const char *s, int base, uint64_t min, uint64_t max, uint64_t *out,
		   char *why);

static inline int num_parse(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *why)
{
	return num_parse_base(s, 10, min, max, out, why);
}

/* num_parse() into an unsigned int; MAX must fit one. */
int num_parse_uint(const char *s, unsigned int min, unsigned int max, unsigned int *out,
		   char *why);

/*
 * Split "HOST:PORT" at its last colon: a non-empty host and a port from 1 to
 * 65535. *HOST is malloc'd. -EINVAL with WHY set otherwise.
 */
int num_parse_hostport(const char *s, char **host, unsigned int *port, char *why);

/* The most shards a run splits into (--shard, VM_SHARD, a suite's meta shard). */
#define NUM_SHARD_MAX 10000

/*
 * "I/N", shard I of N: 1 <= I <= N <= NUM_SHARD_MAX. 0, or -EINVAL with WHY
 * (may be NULL) saying so. The one parser of ./vm's --shard, VM_SHARD in
 * ./cut --check-conf (num_shard_check, for confkeys[]) and run results.
 */
int num_parse_shard(const char *s, unsigned int *i, unsigned int *n, char *why);
int num_shard_check(const char *s, char **err);

#endif
