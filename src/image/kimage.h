/* SPDX-License-Identifier: GPL-2.0 */
/* kimage.h: the release a kernel image file says it is. */
#ifndef RAPIDO_KIMAGE_H
#define RAPIDO_KIMAGE_H

#include <stddef.h>

/*
 * The release (uname -r) in an x86 bzImage's setup header: the
 * kernel_version string (boot protocol 2.00+, "HdrS" at 0x202, its offset
 * - 0x200 at 0x20e), up to the first space. 0 with *release malloc'd; 1 when
 * the file is no bzImage or has no version string (arm64's Image, a
 * compressed vmlinuz of another kind: the release is not known); -errno on a
 * read error, with *err naming the path.
 */
int kimage_release(const char *path, char **release, char **err);
/* The same on the file's first len bytes: 0 with *release malloc'd, or 1. */
int kimage_release_buf(const unsigned char *buf, size_t len, char **release);

/* How a bzImage's payload (the kernel's own ELF) is compressed: its CONFIG_KERNEL_*. */
enum kimage_comp {
	KIMAGE_GZIP, KIMAGE_XZ, KIMAGE_ZSTD, KIMAGE_LZ4, KIMAGE_BZIP2, KIMAGE_LZMA, KIMAGE_LZO,
};

/*
 * The compressed payload of an x86 bzImage (boot protocol 2.08+:
 * payload_offset at 0x248 from the protected-mode code, which starts
 * after the (setup_sects + 1) * 512 bytes of setup, and payload_length
 * at 0x24c) and its format from its magic. Linux's build appends the
 * uncompressed size (le32) to every format but gzip, whose own trailer
 * ends with it: *size is that, and *plen the bytes of the compressed
 * stream alone. 0 with *off, *plen, *size and *comp set; 1 with *why
 * (static) when it is no such image, the payload is not within len
 * bytes, or its format is not one of the above.
 */
int kimage_payload(const unsigned char *buf, size_t len, size_t *off, size_t *plen,
		   size_t *size, enum kimage_comp *comp, const char **why);
/*
 * The argv (static, NULL-terminated) that writes a stream of that format,
 * read on stdin, uncompressed to stdout (the tools Linux's
 * scripts/extract-vmlinux runs).
 */
const char *const *kimage_unpack_argv(enum kimage_comp comp);

#endif
