// SPDX-License-Identifier: GPL-2.0
/*
 * kimage.c: the release a kernel image says it is, so that ./vm can tell a
 * kernel from the one an image's modules were cut for before it boots
 * (Documentation/arch/x86/boot.rst: the real-mode header).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "kimage.h"
#include "err.h"
#include "io.h"

/* the header and the string: kernel_version points into the setup code, within 64 KiB */
#define KIMAGE_READ 0x10200

int kimage_release(const char *path, char **release, char **err)
{
	static unsigned char buf[KIMAGE_READ];
	size_t got = 0;
	struct stat st;
	int fd, e;

	*release = NULL;
	/* KERNEL_SRC's, VM_KERNEL's: a FIFO there must not hang ./cut or ./vm */
	fd = open_regular(path, 0, &st);
	if (fd < 0) {
		*err = xasprintf("%s: %s", path, file_strerror(fd, &st));
		return fd;
	}
	while (got < sizeof(buf)) {
		ssize_t n = read(fd, buf + got, sizeof(buf) - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			close(fd);
			*err = xasprintf("%s: read: %s", path, strerror(e));
			return -e;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	return kimage_release_buf(buf, got, release);
}

int kimage_release_buf(const unsigned char *buf, size_t got, char **release)
{
	size_t off, end;

	*release = NULL;
	if (got < 0x210 || memcmp(buf + 0x202, "HdrS", 4))
		return 1;
	off = 0x200 + (size_t)(buf[0x20e] | buf[0x20f] << 8);
	/* kernel_version 0: none; the string must end within what was read */
	if (off == 0x200 || off >= got)
		return 1;
	for (end = off; end < got && buf[end] && buf[end] != ' '; end++)
		if (buf[end] < 0x21 || buf[end] > 0x7e)
			return 1;
	if (end == off || end == got)
		return 1;
	*release = xstrndup((const char *)buf + off, end - off);
	return 0;
}

static const struct {
	enum kimage_comp comp;
	unsigned char magic[6];
	size_t n;
	const char *argv[4];
} formats[] = {
	{ KIMAGE_GZIP, { 0x1f, 0x8b }, 2, { "gzip", "-dc", NULL } },
	{ KIMAGE_XZ, { 0xfd, '7', 'z', 'X', 'Z', 0 }, 6, { "xz", "-dc", NULL } },
	{ KIMAGE_ZSTD, { 0x28, 0xb5, 0x2f, 0xfd }, 4, { "zstd", "-dcq", NULL } },
	/* the legacy frame Linux compresses with (lz4 -l) */
	{ KIMAGE_LZ4, { 0x02, 0x21, 0x4c, 0x18 }, 4, { "lz4", "-dc", NULL } },
	{ KIMAGE_BZIP2, { 'B', 'Z', 'h' }, 3, { "bzip2", "-dc", NULL } },
	{ KIMAGE_LZMA, { 0x5d, 0, 0 }, 3, { "xz", "-dc", "--format=lzma", NULL } },
	{ KIMAGE_LZO, { 0x89, 'L', 'Z', 'O' }, 4, { "lzop", "-dc", NULL } },
};

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int kimage_payload(const unsigned char *buf, size_t len, size_t *off, size_t *plen,
		   size_t *size, enum kimage_comp *comp, const char **why)
{
	size_t setup, po, pl;

	if (len < 0x250 || memcmp(buf + 0x202, "HdrS", 4)) {
		*why = "not an x86 bzImage (no HdrS setup header)";
		return 1;
	}
	if ((buf[0x206] | buf[0x207] << 8) < 0x208) {
		*why = "boot protocol older than 2.08: no payload_offset in its header";
		return 1;
	}
	/* setup_sects 0 means 4 (boot.rst) */
	setup = ((size_t)(buf[0x1f1] ? buf[0x1f1] : 4) + 1) * 512;
	po = le32(buf + 0x248);
	pl = le32(buf + 0x24c);
	if (setup > len || po > len - setup || pl > len - setup - po || pl < 8) {
		*why = "its payload_offset and payload_length point past the end of the file";
		return 1;
	}
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!memcmp(buf + setup + po, formats[i].magic, formats[i].n)) {
			*off = setup + po;
			*plen = formats[i].comp == KIMAGE_GZIP ? pl : pl - 4;
			*size = le32(buf + setup + po + pl - 4);
			*comp = formats[i].comp;
			return 0;
		}
	*why = "its payload is compressed in a format not known here";
	return 1;
}

const char *const *kimage_unpack_argv(enum kimage_comp comp)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i].comp == comp)
			return formats[i].argv;
	return NULL;
}
