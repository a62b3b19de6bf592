// SPDX-License-Identifier: GPL-2.0
/*
 * lib-kmodfile.c: a compressed module's bytes as src/image/kmodfile.c
 * gives them: the fuzz seeds (tests/fuzz/corpus/kmodfile: a module-like
 * ELF as xz, zstd and gzip) decompress to the ELF they were made from, the
 * cap is exact (the length passes, one byte less is -EFBIG), a stream past
 * the cap and one cut short are refused, and names map to compressions.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "io.h"
#include "kmodfile.h"
#include "tap.h"

#define CORPUS "tests/fuzz/corpus/kmodfile/"

/* the seed's answer at cap: rc, and the bytes in *out */
static int seed(const char *name, size_t cap, void **out, size_t *len)
{
	static const unsigned int comps[] = { KMOD_COMP_XZ, KMOD_COMP_ZSTD, KMOD_COMP_GZ };
	char *text, *path = xasprintf(CORPUS "%s", name);
	size_t tl;
	int rc;

	if (read_file(path, &text, &tl) || !tl)
		die_errno("%s", path);
	rc = kmod_file_decompress(comps[(unsigned char)text[0] % 3], text + 1, tl - 1, cap, out, len);
	free(text);
	free(path);
	return rc;
}

int main(void)
{
	static const char *const kinds[] = { "xz", "zst", "gz" };
	char *elf;
	size_t elf_len;

	tap_plan(13);
	if (read_file("tests/fuzz/corpus/elfwalk/module-like.o", &elf, &elf_len))
		die_errno("tests/fuzz/corpus/elfwalk/module-like.o");
	for (int k = 0; k < 3; k++) {
		char *name = xasprintf("module-like.%s", kinds[k]);
		void *out;
		size_t len;
		int rc = seed(name, KMOD_FILE_MAX, &out, &len);

		tap_ok(!rc && len == elf_len && !memcmp(out, elf, len), "%s: the ELF it was made from (rc %d)",
		       name, rc);
		free(out);
		rc = seed(name, elf_len, &out, &len);
		free(out);
		tap_ok(!rc && len == elf_len, "%s: at a cap of its length: read (rc %d)", name, rc);
		rc = seed(name, elf_len - 1, &out, &len);
		tap_ok(rc == -EFBIG && !out, "%s: at a cap one byte under: -EFBIG (rc %d)", name, rc);
		free(name);
	}
	{
		void *out;
		size_t len;
		int rc = seed("past-cap.zst", 1u << 20, &out, &len);

		tap_ok(rc == -EFBIG && !out, "2 MB of zeros as zstd past a 1 MiB cap: -EFBIG (rc %d)", rc);
		rc = seed("cut-short.xz", KMOD_FILE_MAX, &out, &len);
		tap_ok(rc == -EBADMSG && !out, "an xz stream cut short: -EBADMSG (rc %d)", rc);
	}
	tap_ok(kmod_file_comp("kernel/fs/xfs/xfs.ko") == 0 &&
	       kmod_file_comp("kernel/fs/xfs/xfs.ko.xz") == (int)KMOD_COMP_XZ &&
	       kmod_file_comp("kernel/fs/xfs/xfs.ko.zst") == (int)KMOD_COMP_ZSTD &&
	       kmod_file_comp("kernel/fs/xfs/xfs.ko.gz") == (int)KMOD_COMP_GZ,
	       "names: .ko, .ko.xz, .ko.zst, .ko.gz");
	tap_ok(kmod_file_comp("modules.order") < 0 && kmod_file_comp("xfs.ko.bz2") < 0 &&
	       kmod_file_comp(".ko") < 0, "other names are no modules");
	free(elf);
	return tap_done();
}
