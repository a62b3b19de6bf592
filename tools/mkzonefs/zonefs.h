/* SPDX-License-Identifier: GPL-2.0 */
/* zonefs.h: the zonefs super block (Linux fs/zonefs/zonefs.h), built for rapido-mkzonefs. */
#ifndef RAPIDO_MKZONEFS_ZONEFS_H
#define RAPIDO_MKZONEFS_ZONEFS_H

#include <stddef.h>
#include <stdint.h>

#define ZONEFS_MAGIC		0x5a4f4653	/* "ZOFS" */
#define ZONEFS_SUPER_SIZE	4096
#define ZONEFS_LABEL_LEN	64
#define ZONEFS_UUID_SIZE	16

/* byte offsets of struct zonefs_super's fields (little endian, packed) */
#define ZONEFS_OFF_MAGIC	0
#define ZONEFS_OFF_CRC		4
#define ZONEFS_OFF_LABEL	8
#define ZONEFS_OFF_UUID		72
#define ZONEFS_OFF_FEATURES	88
#define ZONEFS_OFF_RESERVED	108

/*
 * The super block in buf (ZONEFS_SUPER_SIZE bytes): magic, LABEL (at most
 * ZONEFS_LABEL_LEN - 1 bytes: -EINVAL otherwise), UUID, no features
 * (files owned by root, mode 0640), the rest zero, and the checksum the
 * kernel checks: crc32(~0, block with s_crc 0), no final inversion.
 */
int zonefs_super_build(unsigned char *buf, const char *label, const uint8_t uuid[ZONEFS_UUID_SIZE]);

#endif
