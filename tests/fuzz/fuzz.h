/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h: what every libFuzzer target here shares. A target is
 * tests/fuzz/NAME.c defining LLVMFuzzerTestOneInput(); `make fuzz` builds
 * build/fuzz/NAME; tests/unit/fuzz.sh runs each over tests/fuzz/corpus/NAME.
 * A target checks properties, not just "no crash": a broken one abort()s
 * with a message, which libFuzzer reports as a crash with the input saved.
 */
#ifndef RAPIDO_FUZZ_H
#define RAPIDO_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a C string (malloc'd); a NUL byte in it ends the string early. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* A property of the code under test does not hold: say which, and crash. */
#define fuzz_assert(cond, ...) do {					\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: property broken: %s: ",	\
			__FILE__, __LINE__, #cond);			\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		abort();						\
	}								\
} while (0)

#endif
