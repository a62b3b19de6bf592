// SPDX-License-Identifier: GPL-2.0
/*
 * kmodfile.c: fuzz a compressed kernel module's way to depmod.c
 * (src/image/kmodfile.c, then kmodelf.c): a module tree is the user's
 * build, and a .ko.zst may be hostile. The input's first byte picks the
 * compression (xz, zstd, gzip), the rest is the file. Properties: the
 * answer is the bytes, -EFBIG past the cap, -EBADMSG or -ENOMEM, nothing
 * else; the bytes are within the cap, the same again, and refused at a cap
 * one byte under their length; an ELF among them is read as depmod reads it.
 */
#include <errno.h>

#include "fuzz.h"
#include "kmodelf.h"
#include "kmodfile.h"
#include "strv.h"

/* small, so that a fuzzed stream reaches the cap in a few steps */
#define CAP (1u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned int comps[] = { KMOD_COMP_XZ, KMOD_COMP_ZSTD, KMOD_COMP_GZ };
	unsigned int comp;
	void *out, *again;
	size_t len, len2;
	int rc;

	if (!size)
		return 0;
	comp = comps[data[0] % 3];
	rc = kmod_file_decompress(comp, data + 1, size - 1, CAP, &out, &len);
	fuzz_assert(rc == 0 || rc == -EFBIG || rc == -EBADMSG || rc == -ENOMEM, "rc %d", rc);
	fuzz_assert(!rc == !!out, "rc %d with%s bytes", rc, out ? "" : "out");
	if (rc)
		return 0;
	fuzz_assert(len <= CAP, "%zu bytes past the cap %u", len, CAP);
	/* the cap is exact: its length passes, one byte less is refused */
	rc = kmod_file_decompress(comp, data + 1, size - 1, len, &again, &len2);
	fuzz_assert(!rc && len2 == len && !memcmp(out, again, len), "at a cap of its length: rc %d", rc);
	free(again);
	if (len) {
		rc = kmod_file_decompress(comp, data + 1, size - 1, len - 1, &again, &len2);
		fuzz_assert(rc == -EFBIG && !again, "at a cap one byte under: rc %d", rc);
	}
	{
		struct kmod_elf e;
		struct strv info = STRV_INIT, exports = STRV_INIT, needs = STRV_INIT;

		if (!kmod_elf_open(&e, out, len)) {
			kmod_elf_strings(&e, ".modinfo", &info);
			kmod_elf_exports(&e, &exports);
			kmod_elf_needs(&e, &needs);
		}
		strv_free(&info);
		strv_free(&exports);
		strv_free(&needs);
	}
	free(out);
	return 0;
}
