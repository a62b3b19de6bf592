// SPDX-License-Identifier: GPL-2.0
/*
 * kimage.c: fuzz the reader of a bzImage's release (src/image/kimage.c),
 * which ./vm runs on any file VM_KERNEL names. Properties: a release is
 * found only behind "HdrS", is non-empty, printable without spaces, and is
 * a substring of the input at the offset the header gives. Then the
 * payload finder ./vm's PVH boot runs on the same file (kimage_payload):
 * a payload lies within the input behind "HdrS", starts with its format's
 * magic and leaves room for the size trailer; and the check of the ELF it
 * unpacks to (pvh_elf_check, on the input as an ELF): what it accepts
 * ends within the input.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "kimage.h"
#include "pvhelf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *rel = NULL;
	size_t off, plen, usize, end;
	enum kimage_comp comp;
	const char *why = NULL;
	int rc;

	rc = kimage_payload(data, size, &off, &plen, &usize, &comp, &why);
	fuzz_assert(rc == 0 || (rc == 1 && why), "payload rc %d", rc);
	if (rc == 0) {
		fuzz_assert(size >= 0x250 && !memcmp(data + 0x202, "HdrS", 4), "payload without a header");
		fuzz_assert(off < size && plen <= size - off, "payload past the end");
		fuzz_assert(comp == KIMAGE_GZIP || plen + 4 <= size - off, "no room for the trailer");
		fuzz_assert(kimage_unpack_argv(comp) != NULL, "no unpacker for format %d", comp);
	}
	rc = pvh_elf_check(data, size, &end, &why);
	fuzz_assert(rc == 0 || (rc == 1 && why), "elf rc %d", rc);
	fuzz_assert(rc || (end <= size && size >= 64 && !memcmp(data, "\177ELF", 4)),
		    "accepted ELF ends past the input");
	rc = kimage_release_buf(data, size, &rel);

	fuzz_assert(rc == 0 || rc == 1, "rc %d", rc);
	if (rc == 1) {
		fuzz_assert(!rel, "no release on 1");
		return 0;
	}
	fuzz_assert(size >= 0x210 && !memcmp(data + 0x202, "HdrS", 4), "release without a header");
	size_t roff = 0x200 + (size_t)(data[0x20e] | data[0x20f] << 8), n = strlen(rel);

	fuzz_assert(n > 0 && roff + n < size && !memcmp(data + roff, rel, n), "release not at its offset");
	for (size_t i = 0; i < n; i++)
		fuzz_assert(rel[i] > ' ' && rel[i] < 0x7f, "byte %#x in the release", rel[i]);
	free(rel);
	return 0;
}
