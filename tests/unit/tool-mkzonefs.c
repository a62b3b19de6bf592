// SPDX-License-Identifier: GPL-2.0
/*
 * tool-mkzonefs.c: rapido-mkzonefs's super block is the one zonefs_read_super()
 * takes: magic, label, UUID at their offsets, reserved area zero, and the
 * checksum worked out apart (Python's zlib.crc32 of the block, inverted).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "../../tools/mkzonefs/zonefs.h"

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int main(void)
{
	static unsigned char sb[ZONEFS_SUPER_SIZE];
	uint8_t uuid[ZONEFS_UUID_SIZE];
	char label[ZONEFS_LABEL_LEN + 1];
	int zero = 1;

	tap_plan(6);
	for (int i = 0; i < ZONEFS_UUID_SIZE; i++)
		uuid[i] = (uint8_t)i;
	memset(sb, 0xff, sizeof(sb));
	TAP_EQ_INT(zonefs_super_build(sb, "rapido", uuid), 0, "a super block with a label");
	TAP_EQ_INT(le32(sb + ZONEFS_OFF_MAGIC), ZONEFS_MAGIC, "  magic ZOFS at 0");
	/* python3: ~zlib.crc32(block with s_crc 0) & 0xffffffff */
	TAP_EQ_INT(le32(sb + ZONEFS_OFF_CRC), 0x0821b74a, "  the kernel's checksum");
	tap_ok(!memcmp(sb + ZONEFS_OFF_LABEL, "rapido", 7) && !memcmp(sb + ZONEFS_OFF_UUID, uuid, 16),
	       "  label and UUID at their offsets");
	for (size_t i = ZONEFS_OFF_FEATURES; i < ZONEFS_SUPER_SIZE; i++)
		zero &= !sb[i];
	tap_ok(zero, "  no features, reserved area zero (the kernel refuses anything there)");
	memset(label, 'x', ZONEFS_LABEL_LEN);
	label[ZONEFS_LABEL_LEN] = '\0';
	TAP_EQ_INT(zonefs_super_build(sb, label, uuid), -EINVAL, "a 64-byte label is refused");
	return tap_done();
}
