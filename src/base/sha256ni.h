/* SPDX-License-Identifier: GPL-2.0 */
/* sha256ni.h: SHA-256's block function on x86's SHA extensions, for the cache keys (hash.c). */
#ifndef RAPIDO_SHA256NI_H
#define RAPIDO_SHA256NI_H

#include <stddef.h>
#include <stdint.h>

/* 1 if this CPU has the SHA extensions (and the SSSE3 and SSE4.1 they are used with). */
int sha256ni_available(void);
/* Hash n 64-byte blocks at p into h, as FIPS 180-4's compression function does; only if available. */
void sha256ni_blocks(uint32_t h[8], const uint8_t *p, size_t n);

#endif
