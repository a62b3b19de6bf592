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

/* the header and the string: kernel_version points into the setup code, within 64 KiB */
#define KIMAGE_READ 0x10200

int kimage_release(const char *path, char **release, char **err)
{
	static unsigned char buf[KIMAGE_READ];
	size_t got = 0;
	int fd, e;

	*release = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		*err = xasprintf("%s: %s", path, strerror(e));
		return -e;
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
