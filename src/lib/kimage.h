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

#endif
