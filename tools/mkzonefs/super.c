// SPDX-License-Identifier: GPL-2.0
/*
 * super.c: the zonefs super block. Debian 12 has no zonefs-tools, and
 * zonefs (Linux >= 5.6) mounts only a disk whose first block holds this
 * block: zonefs_read_super() checks the magic, the checksum and that the
 * reserved area is zero.
 */
#include <errno.h>
#include <string.h>

#include "status.h"
#include "zonefs.h"

static void put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

int zonefs_super_build(unsigned char *buf, const char *label, const uint8_t uuid[ZONEFS_UUID_SIZE])
{
	size_t len = strlen(label);

	if (len >= ZONEFS_LABEL_LEN)
		return -EINVAL;
	memset(buf, 0, ZONEFS_SUPER_SIZE);
	put_le32(buf + ZONEFS_OFF_MAGIC, ZONEFS_MAGIC);
	memcpy(buf + ZONEFS_OFF_LABEL, label, len);
	memcpy(buf + ZONEFS_OFF_UUID, uuid, ZONEFS_UUID_SIZE);
	/* the kernel's crc32(~0U, ...) is zlib's crc32 without its final inversion */
	put_le32(buf + ZONEFS_OFF_CRC, ~crc32_buf(0, buf, ZONEFS_SUPER_SIZE));
	return 0;
}
