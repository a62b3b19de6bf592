/* SPDX-License-Identifier: GPL-2.0 */
/* size.h: parse sizes such as 512, 4K, 1G, 2GiB into bytes. */
#ifndef RAPIDO_SIZE_H
#define RAPIDO_SIZE_H

#include <stdint.h>

/*
 * Accepts a decimal number with an optional binary suffix K, M, G, T, P
 * (also KiB, MiB, ...; case-insensitive; "KB" is treated as KiB as in
 * zramctl and qemu). Rejects negatives, empty input, trailing junk and
 * overflow. Returns 0 or -EINVAL / -ERANGE.
 */
int parse_size(const char *s, uint64_t *out);

#endif
