/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodfile.h: a kernel module file's ELF bytes, whatever its compression
 * (.ko, .ko.xz, .ko.zst, .ko.gz), decompressed in memory with Debian's
 * liblzma, libzstd and zlib: depmod.c and ./cut's firmware lookup read
 * compressed modules themselves (issue 45; an exec of depmod or modinfo
 * was most of a cut after a kernel rebuild). What a file expands to is
 * capped: a hostile module must not grow to gigabytes in memory.
 */
#ifndef RAPIDO_KMODFILE_H
#define RAPIDO_KMODFILE_H

#include <stddef.h>

/* the compressions, as bits (the ones a host's kmod reads: depmod.h) */
#define KMOD_COMP_XZ 1u
#define KMOD_COMP_ZSTD 2u
#define KMOD_COMP_GZ 4u

/* the most a module may expand to; more is refused (-EFBIG) */
#define KMOD_FILE_MAX (256u << 20)

/*
 * What name's ending says: 0 for ".ko", a KMOD_COMP_* bit for ".ko.xz",
 * ".ko.zst" or ".ko.gz", -1 for anything else (not a module's name).
 */
int kmod_file_comp(const char *name);

/*
 * The uncompressed bytes of a module file compressed with comp (a
 * KMOD_COMP_* bit) into *out (malloc'd, *out_len bytes). 0; -EFBIG: it
 * expands past max; -EBADMSG: not a whole stream of that format (or bytes
 * after its end); -ENOMEM.
 */
int kmod_file_decompress(unsigned int comp, const void *in, size_t len, size_t max, void **out,
			 size_t *out_len);

/* "xz", "zstd" or "gzip" */
const char *kmod_file_comp_name(unsigned int comp);

#endif
