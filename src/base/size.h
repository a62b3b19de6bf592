/* SPDX-License-Identifier: GPL-2.0 */
/* size.h: parse sizes such as 512, 4K, 1G, 2GiB into bytes. */
#ifndef RAPIDO_SIZE_H
#define RAPIDO_SIZE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Accepts a decimal number with an optional binary suffix K, M, G, T, P
 * (also KiB, MiB, ...; case-insensitive; "KB" is treated as KiB as in
 * zramctl and qemu). Rejects negatives, empty input, trailing junk and
 * overflow. Returns 0 or -EINVAL / -ERANGE.
 */
int parse_size(const char *s, uint64_t *out);

/* "256M", "1G", "1T": N in the largest unit it is a whole number of (else bytes). */
void size_format(uint64_t n, char *buf, size_t len);

#endif
