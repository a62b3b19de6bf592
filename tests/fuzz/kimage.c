// SPDX-License-Identifier: GPL-2.0
/*
 * kimage.c: fuzz the reader of a bzImage's release (src/lib/kimage.c),
 * which ./vm runs on any file VM_KERNEL names. Properties: a release is
 * found only behind "HdrS", is non-empty, printable without spaces, and is
 * a substring of the input at the offset the header gives.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "kimage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *rel = NULL;
	int rc = kimage_release_buf(data, size, &rel);

	fuzz_assert(rc == 0 || rc == 1, "rc %d", rc);
	if (rc == 1) {
		fuzz_assert(!rel, "no release on 1");
		return 0;
	}
	fuzz_assert(size >= 0x210 && !memcmp(data + 0x202, "HdrS", 4), "release without a header");
	size_t off = 0x200 + (size_t)(data[0x20e] | data[0x20f] << 8), n = strlen(rel);

	fuzz_assert(n > 0 && off + n < size && !memcmp(data + off, rel, n), "release not at its offset");
	for (size_t i = 0; i < n; i++)
		fuzz_assert(rel[i] > ' ' && rel[i] < 0x7f, "byte %#x in the release", rel[i]);
	free(rel);
	return 0;
}
